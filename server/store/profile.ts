import { stmt, type Db } from './db.js';
import { newId } from './ids.js';
import { issueToken } from './tokens.js';
import type { Sealer } from './secrets.js';

/** Identity fields and addresses of an account. Values are sealed; an empty value is stored as NULL. */

export async function setIdentityFields(db: Db, sealer: Sealer, accountId: string, fields: Record<string, string | null>, tokenFields: (field: string) => string[]): Promise<void> {
  const upsert = stmt(
    db,
    `INSERT INTO identity_fields (account_id, field, value) VALUES (?, ?, ?)
     ON CONFLICT (account_id, field) DO UPDATE SET value = excluded.value`,
  );
  for (const [field, value] of Object.entries(fields)) {
    await upsert.run(accountId, field, sealer.sealOptional(value));
    for (const tokenField of tokenFields(field)) await issueToken(db, { accountId, kind: 'identity', recordId: accountId, field: tokenField });
  }
}

/** field → whether it holds a value. */
export async function identityPresence(db: Db, accountId: string): Promise<Map<string, boolean>> {
  const rows = await stmt(db, 'SELECT field, CASE WHEN value IS NULL THEN 0 ELSE 1 END AS filled FROM identity_fields WHERE account_id = ?').all(accountId) as {
    field: string;
    filled: number;
  }[];
  return new Map(rows.map((r) => [r.field, r.filled === 1]));
}

export interface AddressRow {
  id: string;
  label: string;
}

export async function insertAddress(db: Db, sealer: Sealer, input: { accountId: string; label: string; fields: Record<string, string | null>; now: number }): Promise<string> {
  const id = newId('addr');
  await stmt(db, 'INSERT INTO addresses (id, account_id, label, created_at) VALUES (?, ?, ?, ?)').run(id, input.accountId, input.label, input.now);
  const add = stmt(db, 'INSERT INTO address_fields (address_id, field, value) VALUES (?, ?, ?)');
  for (const [field, value] of Object.entries(input.fields)) {
    await add.run(id, field, sealer.sealOptional(value));
    await issueToken(db, { accountId: input.accountId, kind: 'address', recordId: id, field });
  }
  return id;
}

export async function listAddresses(db: Db, accountId: string): Promise<AddressRow[]> {
  return (await stmt(db, 'SELECT id, label FROM addresses WHERE account_id = ? ORDER BY created_at, label').all(accountId)) as AddressRow[];
}

export async function addressLabelTaken(db: Db, accountId: string, label: string): Promise<boolean> {
  return await stmt(db, 'SELECT 1 FROM addresses WHERE account_id = ? AND label = ?').get(accountId, label) !== undefined;
}
