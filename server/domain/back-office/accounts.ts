import type { PlanName } from '../../contract.js';
import type { Db } from '../../store/db.js';
import * as store from '../../store/accounts.js';
import { openAccount } from '../accounts.js';
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import { requireAccount } from './lookups.js';

/** The back office's accounts (tag Accounts): createAccount, changeAccountPlan, deleteAccount. */

export interface AccountView {
  accountId: string;
  plan: PlanName;
  name: string;
}

/** The name an account gets when none is given (the document's default). */
const DEFAULT_NAME = 'Fixture account';

const view = (a: store.AccountRow): AccountView => ({ accountId: a.id, plan: a.plan, name: a.name });

export async function createAccount(db: Db, clock: Clock, input: { plan: PlanName; name?: string }): Promise<AccountView> {
  return view(await openAccount(db, { plan: input.plan, name: input.name ?? DEFAULT_NAME, now: clock.now() }));
}

export async function changeAccountPlan(db: Db, accountId: string, plan: PlanName): Promise<AccountView> {
  const account = await requireAccount(db, accountId);
  await store.setPlan(db, account.id, plan);
  return view((await store.getAccount(db, account.id))!);
}

/** Deleting the row cascades to everything the account owns (keys, records, tokens, links). */
export async function deleteAccount(db: Db, accountId: string): Promise<void> {
  if (!await store.deleteAccount(db, accountId)) throw new ApiError(404, 'not_found', 'No account with this id.');
}
