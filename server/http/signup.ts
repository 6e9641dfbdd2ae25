import type { Handlers } from './handlers.js';

/** Tag Signup: fileSignupRequest, getSignupRequest, setLoginUsername, rotateLoginPassword, createLogin. */
export const signupHandlers: Handlers = {};
