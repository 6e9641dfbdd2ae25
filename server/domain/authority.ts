import { transaction, type Db } from '../store/db.js';
import { writeInGroupCommit } from '../store/group-commit.js';
import { findLiveKeyById, type AuthenticatedKey } from '../store/keys.js';
import { ApiError } from './errors.js';

/**
 * What a key may do (section 5 items 3 and 5), and the one place a write confirms it. A request is
 * authenticated when its head arrives, but its body may arrive up to the request timeout later: a
 * key revoked, its signup permission withdrawn, its scope changed or its account deleted in the
 * meantime must not write. So every write as a key runs in one immediate transaction that first
 * reads the key again, and writes as the key reads there.
 */

/** What an operation needs of its key beyond being live. */
export interface KeyNeeds {
  requiresSignupPermission: boolean;
}

export function revokedKey(): ApiError {
  return new ApiError(401, 'invalid_api_key', 'The API key is unknown or has been revoked.');
}

/** The key as it may act, or the answer of section 5 for the key it is. */
export function authorised(key: AuthenticatedKey | undefined, needs: KeyNeeds): AuthenticatedKey {
  if (!key) throw revokedKey();
  if (needs.requiresSignupPermission && key.signup_enabled !== 1) {
    throw new ApiError(403, 'signup_not_enabled', 'This API key does not have the signup permission; the account holder can grant it in the dashboard.');
  }
  return key;
}

/**
 * Runs `write` in one immediate transaction as the key is stored at that moment (its scope, plan
 * and permission included), after confirming it still holds what the operation needs. Writes the
 * domain opens inside run as savepoints of this transaction, so the check and the write commit
 * together: no revocation can land between them, from this process or another on the same file.
 */
export function writeAs<T>(db: Db, key: { id: string }, needs: KeyNeeds, write: (key: AuthenticatedKey, tx: Db) => Promise<T>): Promise<T> {
  return transaction(db, async (tx) => write(authorised(await findLiveKeyById(tx, key.id), needs), tx));
}

/**
 * As writeAs, as one step of the connection's next group commit (store/group-commit.ts), with the
 * other writes and the limiter's charges of the same event-loop turn: the step's savepoint holds
 * the check and the write together. Settles once that has committed.
 */
export function writeAsInGroupCommit<T>(db: Db, key: { id: string }, needs: KeyNeeds, write: (key: AuthenticatedKey, tx: Db) => Promise<T>): Promise<T> {
  return writeInGroupCommit(db, async (tx) => write(authorised(await findLiveKeyById(tx, key.id), needs), tx));
}
