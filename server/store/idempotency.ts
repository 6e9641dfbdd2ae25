import { stmt, type Db } from './db.js';

/**
 * Storage of idempotency keys (migration 0012). Callers run these inside one transaction per
 * decision. Every write is bookkeeping: no cached read of account data depends on these rows.
 */

export interface IdempotencyRow {
  request_tag: Buffer;
  body_tag: Buffer;
  started_at: number;
  /** The claim of the request still being processed; null once answered. */
  owner: string | null;
  /** The sealed answer; null while in flight. */
  answer: Buffer | null;
}

export async function findIdempotencyKey(db: Db, credential: string, key: string): Promise<IdempotencyRow | undefined> {
  return (await stmt(db, 'SELECT request_tag, body_tag, started_at, owner, answer FROM idempotency_keys WHERE credential = ? AND idempotency_key = ?').get(
    credential,
    key,
  )) as IdempotencyRow | undefined;
}

/** Marks the key in flight for `owner`, replacing a row whose time is over. */
export async function claimIdempotencyKey(
  db: Db,
  row: { credential: string; key: string; requestTag: Buffer; bodyTag: Buffer; startedAt: number; owner: string },
): Promise<void> {
  await stmt(
    db,
    `INSERT INTO idempotency_keys (credential, idempotency_key, request_tag, body_tag, started_at, owner, answer) VALUES (?, ?, ?, ?, ?, ?, NULL)
     ON CONFLICT (credential, idempotency_key) DO UPDATE SET request_tag = excluded.request_tag, body_tag = excluded.body_tag,
       started_at = excluded.started_at, owner = excluded.owner, answer = NULL`,
    'bookkeeping',
  ).run(row.credential, row.key, row.requestTag, row.bodyTag, row.startedAt, row.owner);
}

/** Keeps the answer of the claim `owner`; false when the claim was taken over meanwhile. */
export async function answerIdempotencyKey(db: Db, credential: string, key: string, owner: string, answer: Buffer): Promise<boolean> {
  const result = await stmt(db, 'UPDATE idempotency_keys SET answer = ?, owner = NULL WHERE credential = ? AND idempotency_key = ? AND owner = ?', 'bookkeeping').run(
    answer,
    credential,
    key,
    owner,
  );
  return result.changes > 0;
}

/** Frees the key of the claim `owner`, if it still holds it. */
export async function releaseIdempotencyKey(db: Db, credential: string, key: string, owner: string): Promise<void> {
  await stmt(db, 'DELETE FROM idempotency_keys WHERE credential = ? AND idempotency_key = ? AND owner = ?', 'bookkeeping').run(credential, key, owner);
}

/** Deletes every key first sent at or before `cutoff`. */
export async function purgeIdempotencyKeys(db: Db, cutoff: number): Promise<void> {
  await stmt(db, 'DELETE FROM idempotency_keys WHERE started_at <= ?', 'bookkeeping').run(cutoff);
}
