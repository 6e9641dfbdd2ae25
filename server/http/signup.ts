import type { Handlers } from './handlers.js';
import { context, requireKey } from './context.js';
import { ApiError } from '../domain/errors.js';
import { writeAsKey, writeAsKeyInGroupCommit } from './auth.js';
import { fileSignupRequest, pollSignupRequest, rotateLoginPassword, setLoginUsername } from '../domain/signup.js';

/**
 * Tag Signup: fileSignupRequest, getSignupRequest, setLoginUsername, rotateLoginPassword, createLogin.
 * The signup permission, the 4 KB body cap and the 20 writes per key per minute are applied by the
 * pipeline from the document; the rest is the domain's. Each write runs as the key is when it
 * writes (http/auth.ts, writeAsKey).
 */
export const signupHandlers: Handlers = {
  // Filings come in bursts from many agents: each shares its commit with the writes and charges of
  // its turn, and is answered once that commit holds it.
  fileSignupRequest(req, res, services) {
    return writeAsKeyInGroupCommit(req, services.db, (key, db) => fileSignupRequest({ ...services, db }, key, req.body as Record<string, unknown>)).then((filed) => {
      res.status(202).json(filed);
    });
  },

  async getSignupRequest(req, res, services) {
    res.status(200).json(await pollSignupRequest(services, requireKey(req), context(req).params.id!));
  },

  async setLoginUsername(req, res, services) {
    const body = req.body as { label: string; username: string };
    res.status(200).json(await writeAsKey(req, services.db, (key, db) => setLoginUsername({ ...services, db }, key, body.label, body.username)));
  },

  async rotateLoginPassword(req, res, services) {
    res.status(200).json(await writeAsKey(req, services.db, (key, db) => rotateLoginPassword({ ...services, db }, key, req.body as Record<string, unknown>)));
  },

  createLogin() {
    throw new ApiError(410, 'signup_requires_approval', 'POST /v1/logins is retired; file a signup request with POST /v1/logins/requests and let the account holder approve it.');
  },
};
