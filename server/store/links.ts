import { hash as digest, timingSafeEqual } from 'node:crypto';
import { randomBytes } from './random.js';
import { TIME_DIGITS, timePrefix } from './ids.js';
import { stmt, type Db } from './db.js';
import type { Sealer } from './secrets.js';

/**
 * Account-holder links (section 4.11). The token is the link's only credential: it is looked up by
 * its SHA-256, and kept otherwise only sealed, as the message delivered to the account holder.
 * A signup request's link is not stored: its token is the request's id with the server's tag of
 * it, and its state is the request's (signupLinkToken).
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

export async function insertLink(
  db: Db,
  sealer: Sealer,
  input: { accountId: string; kind: LinkKind; signupRequestId?: string; details?: Record<string, unknown>; now: number; expiresAt: number },
): Promise<string> {
  const token = `lnk_${timePrefix(input.now)}${randomBytes(24).toString('base64url')}`;
  await stmt(
    db,
    `INSERT INTO account_links (token_hash, token, account_id, kind, signup_request_id, details, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(hash(token), sealer.seal(token), input.accountId, input.kind, input.signupRequestId ?? null, JSON.stringify(input.details ?? {}), input.now, input.expiresAt);
  return token;
}

const SIGNUP_LINK = 'signup-link';
const SIGNUP_TAG_BYTES = 16;
const REQUEST_PREFIX = 'sreq_';

/**
 * The token of a signup request's link: `lnk_`, then base64url of the id's hex digits as bytes and
 * the first 16 bytes of the server's tag of the id. Only the server can issue one, and it names
 * its request without a stored row.
 */
export function signupLinkToken(sealer: Sealer, requestId: string): string {
  const tag = sealer.tag(SIGNUP_LINK, requestId).subarray(0, SIGNUP_TAG_BYTES);
  return `lnk_${Buffer.concat([Buffer.from(requestId.slice(REQUEST_PREFIX.length), 'hex'), tag]).toString('base64url')}`;
}

/** The request a signup link names, when the token carries a tag the server made. */
function signupRequestOf(sealer: Sealer, token: string): string | undefined {
  if (!token.startsWith('lnk_')) return undefined;
  const bytes = Buffer.from(token.slice(4), 'base64url');
  // Only the one spelling the server issues: base64url leaves spare bits in a last character.
  if (bytes.length <= SIGNUP_TAG_BYTES || bytes.toString('base64url') !== token.slice(4)) return undefined;
  const requestId = `${REQUEST_PREFIX}${bytes.subarray(0, bytes.length - SIGNUP_TAG_BYTES).toString('hex')}`;
  const tag = sealer.tag(SIGNUP_LINK, requestId).subarray(0, SIGNUP_TAG_BYTES);
  return timingSafeEqual(tag, bytes.subarray(bytes.length - SIGNUP_TAG_BYTES)) ? requestId : undefined;
}

/** A request's link as a link row: none for a pre-approved request, which never waited on the holder. */
const REQUEST_LINK = `SELECT account_id, 'signup' AS kind, id AS signup_request_id, '{}' AS details, status, NULL AS decision_at,
  created_at, expires_at, decided_at AS used_at FROM signup_requests WHERE preapproved = 0`;

export async function findLink(db: Db, sealer: Sealer, token: string): Promise<LinkRow | undefined> {
  const requestId = signupRequestOf(sealer, token);
  if (requestId !== undefined) {
    const row = await stmt(db, `${REQUEST_LINK} AND id = ?`).get(requestId) as LinkRow | undefined;
    if (row) return row;
  }
  return (await stmt(db, `SELECT ${COLUMNS} FROM account_links WHERE token_hash = ?`).get(hash(token))) as LinkRow | undefined;
}

/** Spends a link: only a pending link changes, so two decisions at once cannot both take effect. */
export async function useLink(db: Db, token: string, status: Exclude<LinkStatus, 'pending'>, now: number, decisionAt?: 'declared' | 'page'): Promise<boolean> {
  return (
    (await stmt(db, "UPDATE account_links SET status = ?, used_at = ?, decision_at = ? WHERE token_hash = ? AND status = 'pending'").run(
      status,
      now,
      decisionAt ?? null,
      hash(token),
    )).changes === 1
  );
}

/** Closes the stored link of a signup request, from before request links were derived, once it is decided. */
export async function closeSignupLinks(db: Db, signupRequestId: string, status: 'approved' | 'denied', now: number): Promise<void> {
  await stmt(db, "UPDATE account_links SET status = ?, used_at = ? WHERE signup_request_id = ? AND status = 'pending'").run(status, now, signupRequestId);
}

/**
 * Every link of an account as delivered to the account holder, newest first (the back office):
 * the stored ones, and those of its signup requests filed since their links stopped being stored.
 */
export async function listAccountLinks(db: Db, sealer: Sealer, accountId: string): Promise<(LinkRow & { token: string })[]> {
  const stored = await stmt(db, `SELECT token, ${COLUMNS} FROM account_links WHERE account_id = ? ORDER BY created_at DESC, rowid DESC`).all(accountId) as (LinkRow & {
    token: Buffer;
  })[];
  const requested = await stmt(
    db,
    `${REQUEST_LINK} AND account_id = ? AND NOT EXISTS (SELECT 1 FROM account_links l WHERE l.signup_request_id = signup_requests.id)
     ORDER BY created_at DESC, rowid DESC`,
  ).all(accountId) as LinkRow[];
  return [
    ...stored.map((r) => ({ ...r, token: sealer.open(r.token) })),
    ...requested.map((r) => ({ ...r, token: signupLinkToken(sealer, r.signup_request_id!) })),
  ].sort((a, b) => b.created_at - a.created_at);
}
