import type { Handlers } from './handlers.js';

/** Tag Account-holder links, and the proxy health check. */
export const linkHandlers: Handlers = {};
