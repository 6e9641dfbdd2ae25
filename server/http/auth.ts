import type { Request, RequestHandler } from 'express';
import type { Db } from '../store/db.js';
import { findLiveKey, keyDigest, type AuthenticatedKey } from '../store/keys.js';
import { cachedRead, scopes } from '../store/read-cache.js';
import { ApiError } from '../domain/errors.js';
import { authorised, writeAs, writeAsInGroupCommit } from '../domain/authority.js';
import { context, requireKey } from './context.js';
import { fieldCount } from './header-fields.js';

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
    if (fieldCount(req.rawHeaders, 'authorization') > 1) throw new ApiError(401, 'unauthorized', 'Send one Authorization header; this request sends more than one.');
    const match = BEARER.exec(req.get('authorization') ?? '');
    if (!match) throw new ApiError(401, 'unauthorized', 'Send the API key as "Authorization: Bearer <API key>".');
    // Cached until a write to any key or account (a revocation, a plan change), in this process or
    // another; the cache is keyed by the key's hash, never by the key.
    const secret = match[1]!;
    return cachedRead(db, `api-key:${keyDigest(secret)}`, () => findLiveKey(db, secret), scopes.keys).then((key) => {
      // A write confirms the key again inside its transaction (domain/authority.ts, writeAsKey below).
      ctx.key = authorised(key, op);
      next();
    });
  };
}

/**
 * Runs a handler's write as the request's key, with its authority read again inside the write's
 * transaction: the body may have arrived long after the head was authenticated.
 */
export function writeAsKey<T>(req: Request, db: Db, write: (key: AuthenticatedKey, tx: Db) => Promise<T>): Promise<T> {
  return writeAs(db, requireKey(req), context(req).operation!, write);
}

/** As writeAsKey, in the connection's next group commit: the promise settles once the write is committed. */
export function writeAsKeyInGroupCommit<T>(req: Request, db: Db, write: (key: AuthenticatedKey, tx: Db) => Promise<T>): Promise<T> {
  return writeAsInGroupCommit(db, requireKey(req), context(req).operation!, write);
}
