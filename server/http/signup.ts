import type { Handlers } from './handlers.js';
import { context, requireKey } from './context.js';
import { ApiError } from '../domain/errors.js';
import { writeAsKey } from './auth.js';
import { fileSignupRequest, pollSignupRequest, rotateLoginPassword, setLoginUsername } from '../domain/signup.js';

/**
 * Tag Signup: fileSignupRequest, getSignupRequest, setLoginUsername, rotateLoginPassword, createLogin.
 * The signup permission, the 4 KB body cap and the 20 writes per key per minute are applied by the
 * pipeline from the document; the rest is the domain's. Each write runs as the key is when it
 * writes (http/auth.ts, writeAsKey).
 */
export const signupHandlers: Handlers = {
  fileSignupRequest(req, res, services) {
    res.status(202).json(writeAsKey(req, services.db, (key) => fileSignupRequest(services, key, req.body as Record<string, unknown>)));
  },

  getSignupRequest(req, res, services) {
    res.status(200).json(pollSignupRequest(services, requireKey(req), context(req).params.id!));
  },

  setLoginUsername(req, res, services) {
    const body = req.body as { label: string; username: string };
    res.status(200).json(writeAsKey(req, services.db, (key) => setLoginUsername(services, key, body.label, body.username)));
  },

  rotateLoginPassword(req, res, services) {
    res.status(200).json(writeAsKey(req, services.db, (key) => rotateLoginPassword(services, key, req.body as Record<string, unknown>)));
  },

  createLogin() {
    throw new ApiError(410, 'signup_requires_approval', 'POST /v1/logins is retired; file a signup request with POST /v1/logins/requests and let the account holder approve it.');
  },
};
