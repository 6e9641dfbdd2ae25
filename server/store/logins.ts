import { stmt, type Db } from './db.js';
import { newId } from './ids.js';
import { issueToken } from './tokens.js';
import type { Sealer } from './secrets.js';

/** A login as the catalog needs it: which fields exist, never their values. */
export interface LoginRow {
  id: string;
  account_id: string;
  label: string;
  website: string | null;
  has_email: number;
  has_username: number;
  has_totp: number;
  created_by_key: string | null;
  password_owner_managed: number;
  created_at: number;
}

export interface NewLogin {
  accountId: string;
  label: string;
  website: string | null;
  extraWebsites: string[];
  email?: string | null;
  username?: string | null;
  password: string;
  totpSecret?: string | null;
  createdByKey?: string | null;
  now: number;
}

const LOGIN_COLUMNS = `id, account_id, label, website, CASE WHEN email IS NULL THEN 0 ELSE 1 END AS has_email,
  CASE WHEN username IS NULL THEN 0 ELSE 1 END AS has_username, CASE WHEN totp_secret IS NULL THEN 0 ELSE 1 END AS has_totp,
  created_by_key, password_owner_managed, created_at`;

export async function insertLogin(db: Db, sealer: Sealer, input: NewLogin): Promise<string> {
  const id = newId('login');
  await stmt(
    db,
    `INSERT INTO logins (id, account_id, label, website, email, username, password, totp_secret, created_by_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    input.accountId,
    input.label,
    input.website,
    sealer.sealOptional(input.email),
    sealer.sealOptional(input.username),
    sealer.seal(input.password),
    sealer.sealOptional(input.totpSecret),
    input.createdByKey ?? null,
    input.now,
  );
  for (const host of input.extraWebsites) await stmt(db, 'INSERT INTO login_extra_sites (login_id, host) VALUES (?, ?) ON CONFLICT DO NOTHING').run(id, host);
  const fields = ['password', ...(input.email ? ['email'] : []), ...(input.username ? ['username'] : []), ...(input.totpSecret ? ['totp'] : [])];
  for (const field of fields) await issueToken(db, { accountId: input.accountId, kind: 'login', recordId: id, field });
  return id;
}

type LoginTuple = [string, string, string, string | null, number, number, number, string | null, number, number];

/** An account's logins. Read as arrays and made into rows here, which costs less than the driver's row objects for a long list. */
export async function listLogins(db: Db, accountId: string): Promise<LoginRow[]> {
  const tuples = await stmt(db, `SELECT ${LOGIN_COLUMNS} FROM logins WHERE account_id = ? ORDER BY created_at, label`).raw().all(accountId) as LoginTuple[];
  return tuples.map(([id, account_id, label, website, has_email, has_username, has_totp, created_by_key, password_owner_managed, created_at]) => ({
    id,
    account_id,
    label,
    website,
    has_email,
    has_username,
    has_totp,
    created_by_key,
    password_owner_managed,
    created_at,
  }));
}

/** One login of the account as listLogins reads it, with its extra hosts in their order there. */
export async function accountLogin(db: Db, accountId: string, id: string): Promise<{ login: LoginRow; extra: string[] } | undefined> {
  const login = await stmt(db, `SELECT ${LOGIN_COLUMNS} FROM logins WHERE id = ? AND account_id = ?`).get(id, accountId) as LoginRow | undefined;
  if (!login) return undefined;
  return { login, extra: await extraSitesOf(db, id) };
}

/** One login's extra sign-in hosts, in the order extraSitesByLogin gives them. */
export async function extraSitesOf(db: Db, loginId: string): Promise<string[]> {
  return (await stmt(db, 'SELECT host FROM login_extra_sites WHERE login_id = ? ORDER BY host').pluck().all(loginId)) as string[];
}

export async function getLoginByLabel(db: Db, accountId: string, label: string): Promise<LoginRow | undefined> {
  return (await stmt(db, `SELECT ${LOGIN_COLUMNS} FROM logins WHERE account_id = ? AND label = ?`).get(accountId, label)) as LoginRow | undefined;
}

export async function getLogin(db: Db, id: string): Promise<LoginRow | undefined> {
  return (await stmt(db, `SELECT ${LOGIN_COLUMNS} FROM logins WHERE id = ?`).get(id)) as LoginRow | undefined;
}

/** The account's logins, from its one row of counts (migration 0010-login-counts). */
export async function countLogins(db: Db, accountId: string): Promise<number> {
  return ((await stmt(db, 'SELECT logins FROM login_counts WHERE account_id = ?').pluck().get(accountId)) as number | undefined) ?? 0;
}

/** Whether the account has a login with this label: one look-up in the (account_id, label) index. */
export async function labelTaken(db: Db, accountId: string, label: string): Promise<boolean> {
  return await stmt(db, 'SELECT 1 FROM logins WHERE account_id = ? AND label = ?').pluck().get(accountId, label) !== undefined;
}

/** login id → extra sign-in hosts, for the whole account in one query. */
export async function extraSitesByLogin(db: Db, accountId: string): Promise<Map<string, string[]>> {
  const rows = await stmt(
    db,
    'SELECT s.login_id, s.host FROM login_extra_sites s JOIN logins l ON l.id = s.login_id WHERE l.account_id = ? ORDER BY s.host',
  ).all(accountId) as { login_id: string; host: string }[];
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(r.login_id, [...(map.get(r.login_id) ?? []), r.host]);
  return map;
}

export async function setUsername(db: Db, sealer: Sealer, login: LoginRow, username: string): Promise<void> {
  await stmt(db, 'UPDATE logins SET username = ? WHERE id = ?').run(sealer.seal(username), login.id);
  await issueToken(db, { accountId: login.account_id, kind: 'login', recordId: login.id, field: 'username' });
}

export async function readUsername(db: Db, sealer: Sealer, loginId: string): Promise<string | null> {
  const row = await stmt(db, 'SELECT username FROM logins WHERE id = ?').get(loginId) as { username: Buffer | null } | undefined;
  return row ? sealer.openOptional(row.username) : null;
}

export async function readPassword(db: Db, sealer: Sealer, loginId: string): Promise<string | null> {
  const row = await stmt(db, 'SELECT password FROM logins WHERE id = ?').get(loginId) as { password: Buffer } | undefined;
  return row ? sealer.open(row.password) : null;
}

export async function setPassword(db: Db, sealer: Sealer, loginId: string, password: string, ownerManaged: boolean): Promise<void> {
  await stmt(db, 'UPDATE logins SET password = ?, password_owner_managed = CASE WHEN ? = 1 THEN 1 ELSE password_owner_managed END WHERE id = ?').run(
    sealer.seal(password),
    ownerManaged ? 1 : 0,
    loginId,
  );
}

export async function deleteLogin(db: Db, accountId: string, label: string): Promise<boolean> {
  return (await stmt(db, 'DELETE FROM logins WHERE account_id = ? AND label = ?').run(accountId, label)).changes === 1;
}
