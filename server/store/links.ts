import { hash as digest } from 'node:crypto';
import { randomBytes } from './random.js';
import { TIME_DIGITS, timePrefix } from './ids.js';
import { stmt, type Db } from './db.js';
import type { Sealer } from './secrets.js';

/**
 * Account-holder links (section 4.11). The token is the link's only credential: it is looked up by
 * its SHA-256, and kept otherwise only sealed, as the message delivered to the account holder.
 */
export type LinkKind = 'purchase' | 'signup' | 'cvv' | 'challenge';
export type LinkStatus = 'pending' | 'approved' | 'denied' | 'opened';

export interface LinkRow {
  account_id: string;
  kind: LinkKind;
  signup_request_id: string | null;
  details: string;
  status: LinkStatus;
  decision_at: 'declared' | 'page' | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

const COLUMNS = 'account_id, kind, signup_request_id, details, status, decision_at, created_at, expires_at, used_at';

/** A token as issued: the time it was issued (timePrefix), then 24 random bytes (32 base64url characters). */
const TIMED_TOKEN = new RegExp(`^lnk_([0-9a-f]{${TIME_DIGITS}})[A-Za-z0-9_-]{32}$`);

/**
 * The key a link is stored and found by: its token's SHA-256, after the time the token carries, so
 * that links issued together share the index's last page instead of each writing a page of its own.
 * A token without that time (issued before tokens carried it) is keyed by its SHA-256 alone.
 */
function hash(token: string): Buffer {
  const sha = digest('sha256', token, 'buffer');
  const issued = TIMED_TOKEN.exec(token)?.[1];
  return issued === undefined ? sha : Buffer.concat([Buffer.from(issued, 'hex'), sha]);
}

export function insertLink(
  db: Db,
  sealer: Sealer,
  input: { accountId: string; kind: LinkKind; signupRequestId?: string; details?: Record<string, unknown>; now: number; expiresAt: number },
): string {
  const token = `lnk_${timePrefix(input.now)}${randomBytes(24).toString('base64url')}`;
  stmt(
    db,
    `INSERT INTO account_links (token_hash, token, account_id, kind, signup_request_id, details, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(hash(token), sealer.seal(token), input.accountId, input.kind, input.signupRequestId ?? null, JSON.stringify(input.details ?? {}), input.now, input.expiresAt);
  return token;
}

export function findLink(db: Db, token: string): LinkRow | undefined {
  return stmt(db, `SELECT ${COLUMNS} FROM account_links WHERE token_hash = ?`).get(hash(token)) as LinkRow | undefined;
}

/** Spends a link: only a pending link changes, so two decisions at once cannot both take effect. */
export function useLink(db: Db, token: string, status: Exclude<LinkStatus, 'pending'>, now: number, decisionAt?: 'declared' | 'page'): boolean {
  return (
    stmt(db, "UPDATE account_links SET status = ?, used_at = ?, decision_at = ? WHERE token_hash = ? AND status = 'pending'").run(
      status,
      now,
      decisionAt ?? null,
      hash(token),
    ).changes === 1
  );
}

/** Closes the link of a signup request decided another way (pre-approval never makes one). */
export function closeSignupLinks(db: Db, signupRequestId: string, status: 'approved' | 'denied', now: number): void {
  stmt(db, "UPDATE account_links SET status = ?, used_at = ? WHERE signup_request_id = ? AND status = 'pending'").run(status, now, signupRequestId);
}

/** Every link of an account as delivered to the account holder, newest first (the fixture surface). */
export function listAccountLinks(db: Db, sealer: Sealer, accountId: string): (LinkRow & { token: string })[] {
  const rows = stmt(db, `SELECT token, ${COLUMNS} FROM account_links WHERE account_id = ? ORDER BY created_at DESC, rowid DESC`).all(accountId) as (LinkRow & {
    token: Buffer;
  })[];
  return rows.map((r) => ({ ...r, token: sealer.open(r.token) }));
}
