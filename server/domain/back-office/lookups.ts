import type { Contract } from '../../contract.js';
import type { Db } from '../../store/db.js';
import type { Sealer } from '../../store/secrets.js';
import { getAccount, type AccountRow } from '../../store/accounts.js';
import { getKey, type KeyRow } from '../../store/keys.js';
import { getLoginByLabel, type LoginRow } from '../../store/logins.js';
import type { Clock } from '../clock.js';
import type { Limiter } from '../limiter.js';
import { ApiError } from '../errors.js';

/**
 * What the account holder's back office works with, and the lookups every one of its operations
 * shares: a record of another account is as unknown as a missing one.
 */
export interface BackOfficeDeps {
  db: Db;
  sealer: Sealer;
  clock: Clock;
  limiter: Limiter;
  contract: Contract;
}

export async function requireAccount(db: Db, accountId: string): Promise<AccountRow> {
  const account = await getAccount(db, accountId);
  if (!account) throw new ApiError(404, 'not_found', 'No account with this id.');
  return account;
}

export async function requireKeyOf(db: Db, account: AccountRow, keyId: string): Promise<KeyRow> {
  const key = await getKey(db, keyId);
  if (!key || key.account_id !== account.id) throw new ApiError(404, 'not_found', 'No API key with this id in this account.');
  return key;
}

export async function requireLoginOf(db: Db, account: AccountRow, label: string): Promise<LoginRow> {
  const login = await getLoginByLabel(db, account.id, label);
  if (!login) throw new ApiError(404, 'not_found', `No login labelled "${label}" in this account.`);
  return login;
}
