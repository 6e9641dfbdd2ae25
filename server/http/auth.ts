import type { RequestHandler } from 'express';
import type { Db } from '../store/db.js';
import { findLiveKey, keyDigest } from '../store/keys.js';
import { cachedRead, scopes } from '../store/read-cache.js';
import { ApiError } from '../domain/errors.js';
import { context } from './context.js';

// RFC 9110 section 11.1: the scheme name is case-insensitive (`bearer` is `Bearer`).
const BEARER = /^Bearer +(\S+) *$/i;

/** Section 5: Bearer keys on every secured operation, and the per-key signup permission. */
export function authenticate(db: Db): RequestHandler {
  return (req, res, next) => {
    const ctx = context(req);
    const op = ctx.operation;
    if (!op?.secured) return next();
    // Node keeps the first of two Authorization headers; a proxy in front may read the last one
    // and see another key. A request that sends two names no one key, so it is refused.
    if (authorizationFields(req.rawHeaders) > 1) throw new ApiError(401, 'unauthorized', 'Send one Authorization header; this request sends more than one.');
    const match = BEARER.exec(req.get('authorization') ?? '');
    if (!match) throw new ApiError(401, 'unauthorized', 'Send the API key as "Authorization: Bearer <API key>".');
    // Cached until a write to any key or account (a revocation, a plan change), in this process or
    // another; the cache is keyed by the key's hash, never by the key.
    const secret = match[1]!;
    const key = cachedRead(db, `api-key:${keyDigest(secret)}`, () => findLiveKey(db, secret), scopes.keys);
    if (!key) throw new ApiError(401, 'invalid_api_key', 'The API key is unknown or has been revoked.');
    ctx.key = key;
    if (op.requiresSignupPermission && key.signup_enabled !== 1) {
      throw new ApiError(403, 'signup_not_enabled', 'This API key does not have the signup permission; the account holder can grant it in the dashboard.');
    }
    next();
  };
}

/** How many Authorization header fields the request sent (rawHeaders alternates names and values). */
function authorizationFields(raw: string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') count++;
  return count;
}
