import { randomBytes } from 'node:crypto';
import { stmt, type Db } from './db.js';

/**
 * Token kinds. The kind is part of the token so a token of one kind never matches a field of
 * another; the rest is random, so a token says nothing about the value it stands for.
 */
export const TOKEN_PREFIX = {
  card: 'tok_card',
  login: 'tok_login',
  identity: 'tok_id',
  address: 'tok_addr',
} as const;
export type TokenKind = keyof typeof TOKEN_PREFIX;

export async function issueToken(db: Db, input: { accountId: string; kind: TokenKind; recordId: string; field: string }): Promise<string> {
  const existing = await stmt(db, 'SELECT token FROM tokens WHERE kind = ? AND record_id = ? AND field = ?').get(
    input.kind,
    input.recordId,
    input.field,
  ) as { token: string } | undefined;
  if (existing) return existing.token;
  const token = `${TOKEN_PREFIX[input.kind]}_${input.field.replace(/[^a-z0-9]/gi, '').slice(0, 12).toLowerCase()}_${randomBytes(12).toString('hex')}`;
  await stmt(db, 'INSERT INTO tokens (token, account_id, kind, record_id, field) VALUES (?, ?, ?, ?, ?)').run(
    token,
    input.accountId,
    input.kind,
    input.recordId,
    input.field,
  );
  return token;
}

/** field → token of one record. */
export async function tokensOf(db: Db, kind: TokenKind, recordId: string): Promise<Record<string, string>> {
  const rows = await stmt(db, 'SELECT field, token FROM tokens WHERE kind = ? AND record_id = ?').all(kind, recordId) as {
    field: string;
    token: string;
  }[];
  return Object.fromEntries(rows.map((r) => [r.field, r.token]));
}

/** Every token of an account, grouped by record; one query for the whole catalog. */
export async function accountTokens(db: Db, accountId: string): Promise<Map<string, Record<string, string>>> {
  // As arrays: an account at its ceilings has well over a thousand tokens, and row objects cost more.
  const rows = await stmt(db, 'SELECT record_id, field, token FROM tokens WHERE account_id = ?').raw().all(accountId) as [string, string, string][];
  const byRecord = new Map<string, Record<string, string>>();
  for (const [recordId, field, token] of rows) {
    let m = byRecord.get(recordId);
    if (!m) byRecord.set(recordId, (m = {}));
    m[field] = token;
  }
  return byRecord;
}

/** field → token of one record of the account, in the order accountTokens gives them. */
export async function recordTokens(db: Db, accountId: string, recordId: string): Promise<Record<string, string> | undefined> {
  const rows = await stmt(db, 'SELECT field, token FROM tokens WHERE account_id = ? AND record_id = ? ORDER BY field').raw().all(accountId, recordId) as [string, string][];
  return rows.length > 0 ? Object.fromEntries(rows) : undefined;
}

export async function findToken(db: Db, token: string): Promise<{ account_id: string; kind: TokenKind; record_id: string; field: string } | undefined> {
  return (await stmt(db, 'SELECT account_id, kind, record_id, field FROM tokens WHERE token = ?').get(token)) as
    | { account_id: string; kind: TokenKind; record_id: string; field: string }
    | undefined;
}
