import { transaction } from '../../store/db.js';
import * as store from '../../store/keys.js';
import { apiKeyName } from '../dashboard.js';
import { ApiError } from '../errors.js';
import { requireAccount, requireKeyOf, requireLoginOf, type BackOfficeDeps } from './lookups.js';

/** The back office's API keys (tag Keys): createApiKey, revokeApiKey, addKeyLogin, removeKeyLogin. */

export interface NewKey {
  name: string;
  signup?: boolean;
  scope?: 'all' | string[];
}

function requireScoped(key: store.KeyRow): void {
  if (key.scoped !== 1) throw new ApiError(409, 'key_not_scoped', 'This key sees all logins; only a scoped key has a list of logins.');
}

export async function createApiKey({ db, clock }: BackOfficeDeps, accountId: string, input: NewKey) {
  const account = await requireAccount(db, accountId);
  const name = apiKeyName(input.name);
  const signup = input.signup ?? false;
  const scope = input.scope ?? 'all';
  const created = await transaction(db, async (db) => {
    const logins = [];
    for (const label of scope === 'all' ? [] : scope) logins.push(await requireLoginOf(db, account, label));
    const key = await store.createKey(db, { accountId: account.id, name, signupEnabled: signup, scoped: scope !== 'all', now: clock.now() });
    for (const login of logins) await store.addKeyLogin(db, key.row.id, login.id);
    return key;
  });
  return { keyId: created.row.id, key: created.secret, name, signup, scope };
}

export async function revokeApiKey({ db, clock }: BackOfficeDeps, accountId: string, keyId: string): Promise<void> {
  const key = await requireKeyOf(db, await requireAccount(db, accountId), keyId);
  await store.revokeKey(db, key.id, clock.now());
}

/** A scoped key's login, by label, and the login itself; 409 `key_not_scoped` for a key that sees all. */
async function scopedKeyLogin(db: BackOfficeDeps['db'], accountId: string, keyId: string, label: string) {
  const account = await requireAccount(db, accountId);
  const key = await requireKeyOf(db, account, keyId);
  const login = await requireLoginOf(db, account, label);
  requireScoped(key);
  return { key, login };
}

export async function addKeyLogin({ db }: BackOfficeDeps, accountId: string, keyId: string, label: string): Promise<void> {
  const { key, login } = await scopedKeyLogin(db, accountId, keyId, label);
  await store.addKeyLogin(db, key.id, login.id);
}

export async function removeKeyLogin({ db }: BackOfficeDeps, accountId: string, keyId: string, label: string): Promise<void> {
  const { key, login } = await scopedKeyLogin(db, accountId, keyId, label);
  await store.removeKeyLogin(db, key.id, login.id);
}
