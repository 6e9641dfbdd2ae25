import { transaction } from '../../store/db.js';
import * as store from '../../store/profile.js';
import { tokensOf } from '../../store/tokens.js';
import { buildCatalog } from '../catalog.js';
import { checkProfileLabel, parsePhone } from '../dashboard.js';
import { ApiError } from '../errors.js';
import { ADDRESS_FIELDS, tokenFieldsOfIdentityField } from '../profile-fields.js';
import { requireAccount, type BackOfficeDeps } from './lookups.js';

/** The back office's identity and addresses (tag Profile): setIdentityFields, addAddress. */

export type ProfileFields = Record<string, string | null | undefined>;

/** Empty means cleared; a phone number is stored in one form, `+<digits>`, whatever spacing it came in. */
function normalise(fields: ProfileFields): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out[field] = value === null || value === '' ? null : field === 'phone' ? parsePhone(value).e164 : value;
  }
  return out;
}

/** Sets the fields given; answers the identity entry exactly as the catalog builds it (an all-logins view; identity is not scoped). */
export async function setIdentityFields({ db, sealer }: BackOfficeDeps, accountId: string, fields: ProfileFields) {
  const id = (await requireAccount(db, accountId)).id;
  await store.setIdentityFields(db, sealer, id, normalise(fields), tokenFieldsOfIdentityField);
  return (await buildCatalog(db, { id: '', account_id: id, scoped: 0 }, undefined)).identity;
}

export async function addAddress({ db, sealer, clock }: BackOfficeDeps, accountId: string, label: string, given: ProfileFields) {
  const id = (await requireAccount(db, accountId)).id;
  checkProfileLabel(label);
  // Every address field gets a token; one not given is empty and resolves to token_not_found.
  const fields = { ...Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, null])), ...normalise(given) };
  const addressId = await transaction(db, async (db) => {
    if (await store.addressLabelTaken(db, id, label)) {
      throw new ApiError(409, 'address_label_taken', `The account already has an address labelled "${label}".`);
    }
    return store.insertAddress(db, sealer, { accountId: id, label, fields, now: clock.now() });
  });
  return { label, tokens: await tokensOf(db, 'address', addressId) };
}
