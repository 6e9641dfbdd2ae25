import { stmt, type Db } from './db.js';
import type { Sealer } from './secrets.js';

/** What a token points at, read without ever returning a stored value to a caller outside the server. */

export async function cardExists(db: Db, cardId: string): Promise<boolean> {
  return await stmt(db, 'SELECT 1 FROM cards WHERE id = ?').get(cardId) !== undefined;
}

/** Whether an address field holds a value; undefined when the address (or the field) does not exist. */
export async function addressFieldFilled(db: Db, addressId: string, field: string): Promise<boolean | undefined> {
  const row = await stmt(db, 'SELECT CASE WHEN value IS NULL THEN 0 ELSE 1 END AS filled FROM address_fields WHERE address_id = ? AND field = ?').get(addressId, field) as
    | { filled: number }
    | undefined;
  return row === undefined ? undefined : row.filled === 1;
}

/** One identity field's value, for rules that depend on it (the +1 phone tokens). */
export async function readIdentityField(db: Db, sealer: Sealer, accountId: string, field: string): Promise<string | null> {
  const row = await stmt(db, 'SELECT value FROM identity_fields WHERE account_id = ? AND field = ?').get(accountId, field) as
    | { value: Buffer | null }
    | undefined;
  return row ? sealer.openOptional(row.value) : null;
}
