import { stmt, type Db } from './db.js';
import { newTimedId } from './ids.js';
import type { Sealer } from './secrets.js';

/** Signup requests. `expired` is derived from expires_at by the domain, never stored. */
export interface SignupRequestRow {
  id: string;
  account_id: string;
  key_id: string | null;
  website: string;
  rules: string;
  status: 'pending' | 'approved' | 'denied';
  preapproved: number;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  login_id: string | null;
  password_policy: string | null;
  approval_failure: string | null;
}

const COLUMNS = `id, account_id, key_id, website, rules, status, preapproved, created_at, expires_at, decided_at, login_id,
  password_policy, approval_failure`;

export interface NewSignupRequest {
  accountId: string;
  keyId: string;
  website: string;
  email: string;
  username: string | null;
  rules: string;
  now: number;
  expiresAt: number;
}

export async function insertSignupRequest(db: Db, sealer: Sealer, input: NewSignupRequest): Promise<string> {
  const id = newTimedId('sreq', input.now);
  await stmt(
    db,
    `INSERT INTO signup_requests (id, account_id, key_id, website, email, username, rules, status, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
  ).run(id, input.accountId, input.keyId, input.website, sealer.seal(input.email), sealer.sealOptional(input.username), input.rules, input.now, input.expiresAt);
  return id;
}

export async function getSignupRequest(db: Db, id: string): Promise<SignupRequestRow | undefined> {
  return (await stmt(db, `SELECT ${COLUMNS} FROM signup_requests WHERE id = ?`).get(id)) as SignupRequestRow | undefined;
}

/** The email and username the agent filed, opened for creating the login. */
export async function readSignupIdentity(db: Db, sealer: Sealer, id: string): Promise<{ email: string; username: string | null }> {
  const row = await stmt(db, 'SELECT email, username FROM signup_requests WHERE id = ?').get(id) as { email: Buffer; username: Buffer | null };
  return { email: sealer.open(row.email), username: sealer.openOptional(row.username) };
}

/** Requests awaiting a decision: pending and not yet expired. */
export async function countPending(db: Db, accountId: string, now: number): Promise<number> {
  return (await stmt(db, "SELECT COUNT(*) FROM signup_requests WHERE account_id = ? AND status = 'pending' AND expires_at > ?").pluck().get(accountId, now)) as number;
}

/**
 * Whether more than `ceiling` of the account's requests are pending and not expired. The account's
 * one row of pending requests (migration 0007-pending-signups) answers while it is within the
 * ceiling; only above it are the live ones counted, and then at most ceiling + 1 of them.
 */
export async function pendingAbove(db: Db, accountId: string, now: number, ceiling: number): Promise<boolean> {
  const stored = ((await stmt(db, 'SELECT pending FROM pending_signups WHERE account_id = ?').pluck().get(accountId)) as number | undefined) ?? 0;
  if (stored <= ceiling) return false;
  const live = await stmt(
    db,
    "SELECT COUNT(*) FROM (SELECT 1 FROM signup_requests WHERE account_id = ? AND status = 'pending' AND expires_at > ? LIMIT ?) AS live",
  )
    .pluck()
    .get(accountId, now, ceiling + 1) as number;
  return live > ceiling;
}

export async function markApproved(db: Db, id: string, input: { loginId: string; passwordPolicy: string; preapproved: boolean; now: number }): Promise<void> {
  await stmt(
    db,
    `UPDATE signup_requests SET status = 'approved', login_id = ?, password_policy = ?, preapproved = ?, decided_at = ?, approval_failure = NULL
     WHERE id = ? AND status = 'pending'`,
  ).run(input.loginId, input.passwordPolicy, input.preapproved ? 1 : 0, input.now, id);
}

export async function markDenied(db: Db, id: string, now: number): Promise<void> {
  await stmt(db, "UPDATE signup_requests SET status = 'denied', decided_at = ? WHERE id = ? AND status = 'pending'").run(now, id);
}

export async function recordApprovalFailure(db: Db, id: string, reason: string): Promise<void> {
  await stmt(db, "UPDATE signup_requests SET approval_failure = ? WHERE id = ? AND status = 'pending'").run(reason, id);
}

/**
 * A scoped key's own list (section 5 item 6): how many entries it has added itself (the logins it
 * created that are on its list) and how long the whole list is.
 */
export async function scopedListCounts(db: Db, keyId: string): Promise<{ added: number; total: number }> {
  return (await stmt(
    db,
    `SELECT COUNT(*) AS total, COALESCE(SUM(CASE WHEN l.created_by_key = kl.key_id THEN 1 ELSE 0 END), 0) AS added
     FROM key_logins kl JOIN logins l ON l.id = kl.login_id WHERE kl.key_id = ?`,
  ).get(keyId)) as { added: number; total: number };
}
