import { stmt, type Db } from './db.js';
import { newId } from './ids.js';
import type { PlanName } from '../contract.js';

export interface AccountRow {
  id: string;
  plan: PlanName;
  name: string;
  created_at: number;
}

export async function createAccount(db: Db, input: { plan: PlanName; name: string; now: number }): Promise<AccountRow> {
  const row: AccountRow = { id: newId('acct'), plan: input.plan, name: input.name, created_at: input.now };
  await stmt(db, 'INSERT INTO accounts (id, plan, name, created_at) VALUES (@id, @plan, @name, @created_at)').run(row);
  return row;
}

export async function getAccount(db: Db, id: string): Promise<AccountRow | undefined> {
  return (await stmt(db, 'SELECT * FROM accounts WHERE id = ?').get(id)) as AccountRow | undefined;
}

export async function setPlan(db: Db, id: string, plan: PlanName): Promise<boolean> {
  return (await stmt(db, 'UPDATE accounts SET plan = ? WHERE id = ?').run(plan, id)).changes === 1;
}

/** Deletes the account and, by cascade, everything it owns. */
export async function deleteAccount(db: Db, id: string): Promise<boolean> {
  return (await stmt(db, 'DELETE FROM accounts WHERE id = ?').run(id)).changes === 1;
}
