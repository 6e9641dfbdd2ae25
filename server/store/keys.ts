import { hash, randomBytes } from 'node:crypto';
import { stmt, type Db } from './db.js';
import { newId } from './ids.js';
import type { PlanName } from '../contract.js';

export interface KeyRow {
  id: string;
  account_id: string;
  name: string;
  signup_enabled: number;
  scoped: number;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface AuthenticatedKey extends KeyRow {
  plan: PlanName;
}

export function hashKey(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/** The key's hash in base64, to name the key (in a cache) without holding it: made as text, not as bytes then text. */
export function keyDigest(secret: string): string {
  return hash('sha256', secret, 'base64');
}

/** Creates a key and returns its secret, which is shown once and stored only as a hash. */
export async function createKey(
  db: Db,
  input: { accountId: string; name: string; signupEnabled: boolean; scoped: boolean; now: number },
): Promise<{ row: KeyRow; secret: string }> {
  const secret = `vk_${randomBytes(24).toString('base64url')}`;
  const row: KeyRow = {
    id: newId('key'),
    account_id: input.accountId,
    name: input.name,
    signup_enabled: input.signupEnabled ? 1 : 0,
    scoped: input.scoped ? 1 : 0,
    created_at: input.now,
    revoked_at: null,
    last_used_at: null,
  };
  await stmt(
    db,
    `INSERT INTO api_keys (id, account_id, name, hash, signup_enabled, scoped, created_at)
     VALUES (@id, @account_id, @name, @hash, @signup_enabled, @scoped, @created_at)`,
  ).run({ ...row, hash: hashKey(secret) });
  return { row, secret };
}

/** A live key with its account's plan; the caller adds the condition that names the key. */
const LIVE_KEY = `SELECT k.id, k.account_id, k.name, k.signup_enabled, k.scoped, k.created_at, k.revoked_at, k.last_used_at, a.plan
     FROM api_keys k JOIN accounts a ON a.id = k.account_id
     WHERE k.revoked_at IS NULL AND`;

/** The live key with this secret and its account's plan, or undefined when unknown or revoked. */
export async function findLiveKey(db: Db, secret: string): Promise<AuthenticatedKey | undefined> {
  return (await stmt(
    db,
    `${LIVE_KEY} k.hash = ?`,
  ).get(hashKey(secret))) as AuthenticatedKey | undefined;
}

/** The live key with this id and its account's plan, read now: undefined once revoked or its account deleted. */
export async function findLiveKeyById(db: Db, id: string): Promise<AuthenticatedKey | undefined> {
  return (await stmt(
    db,
    `${LIVE_KEY} k.id = ?`,
  ).get(id)) as AuthenticatedKey | undefined;
}

export async function getKey(db: Db, id: string): Promise<KeyRow | undefined> {
  return (await stmt(db, 'SELECT id, account_id, name, signup_enabled, scoped, created_at, revoked_at, last_used_at FROM api_keys WHERE id = ?').get(id)) as
    | KeyRow
    | undefined;
}

export async function revokeKey(db: Db, id: string, now: number): Promise<boolean> {
  return (await stmt(db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id)).changes === 1;
}

export async function markKeyUsed(db: Db, id: string, now: number): Promise<void> {
  await stmt(db, 'UPDATE api_keys SET last_used_at = ? WHERE id = ?', 'bookkeeping').run(now, id);
}

export async function keyLoginIds(db: Db, keyId: string): Promise<string[]> {
  return (((await stmt(db, 'SELECT login_id FROM key_logins WHERE key_id = ?').all(keyId)) as { login_id: string }[])).map((r) => r.login_id);
}

export async function addKeyLogin(db: Db, keyId: string, loginId: string): Promise<void> {
  await stmt(db, 'INSERT INTO key_logins (key_id, login_id) VALUES (?, ?) ON CONFLICT DO NOTHING').run(keyId, loginId);
}

export async function removeKeyLogin(db: Db, keyId: string, loginId: string): Promise<boolean> {
  return (await stmt(db, 'DELETE FROM key_logins WHERE key_id = ? AND login_id = ?').run(keyId, loginId)).changes === 1;
}
