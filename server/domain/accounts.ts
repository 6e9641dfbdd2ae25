import { transaction, type Db } from '../store/db.js';
import { createAccount as insertAccount, type AccountRow } from '../store/accounts.js';
import { issueToken } from '../store/tokens.js';
import type { PlanName } from '../contract.js';
import { IDENTITY_FIELDS, tokenFieldsOfIdentityField } from './profile-fields.js';

/**
 * A new account, with a token for every identity field from the start: an empty field is listed
 * in `missing` and its token resolves to token_not_found until filled (section 2.1).
 */
export function openAccount(db: Db, input: { plan: PlanName; name: string; now: number }): Promise<AccountRow> {
  return transaction(db, async (db) => {
    const account = await insertAccount(db, input);
    for (const field of IDENTITY_FIELDS) {
      for (const tokenField of tokenFieldsOfIdentityField(field)) {
        await issueToken(db, { accountId: account.id, kind: 'identity', recordId: account.id, field: tokenField });
      }
    }
    return account;
  });
}
