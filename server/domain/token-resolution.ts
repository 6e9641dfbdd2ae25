import type { Db } from '../store/db.js';
import type { Sealer } from '../store/secrets.js';
import { findToken } from '../store/tokens.js';
import { getLogin } from '../store/logins.js';
import { addressFieldFilled, cardExists, readIdentityField } from '../store/token-targets.js';
import { PHONE_TOKENS } from './profile-fields.js';
import { parsePhone } from './dashboard.js';

export type Resolution = { resolves: true } | { resolves: false; reason: 'token_not_found' | 'cvv_entry_required' };

const NOT_FOUND: Resolution = { resolves: false, reason: 'token_not_found' };
const RESOLVES: Resolution = { resolves: true };
/** Phone tokens that exist only for numbers in country code +1 (section 2.1). */
const NANP_ONLY = new Set<string>(['phone_area', 'phone_prefix', 'phone_line']);

/**
 * Whether a token would be replaced by a value (section 7.2 `token_not_found`): the token parses
 * but matches no record (deleted record, removed or empty field, login without a TOTP secret, a
 * +1-only phone part of another country's number). The security code is never stored, so its
 * token resolves only through live entry by the account holder (`cvv_entry_required` here).
 * Never says what the value is.
 */
export async function resolveToken(db: Db, sealer: Sealer, token: string): Promise<Resolution> {
  const target = await findToken(db, token);
  if (!target) return NOT_FOUND;
  const { kind, record_id: recordId, field } = target;
  if (kind === 'card') {
    if (!await cardExists(db, recordId)) return NOT_FOUND;
    return field === 'securityCode' ? { resolves: false, reason: 'cvv_entry_required' } : RESOLVES;
  }
  if (kind === 'login') {
    const login = await getLogin(db, recordId);
    if (!login) return NOT_FOUND;
    const present: Record<string, boolean> = {
      password: true,
      email: login.has_email === 1,
      username: login.has_username === 1,
      totp: login.has_totp === 1,
    };
    return present[field] ? RESOLVES : NOT_FOUND;
  }
  if (kind === 'address') return await addressFieldFilled(db, recordId, field) ? RESOLVES : NOT_FOUND;
  const isPhone = (PHONE_TOKENS as readonly string[]).includes(field);
  const value = await readIdentityField(db, sealer, recordId, isPhone ? 'phone' : field);
  if (value === null) return NOT_FOUND;
  if (NANP_ONLY.has(field) && phoneCountry(value) !== '1') return NOT_FOUND;
  return RESOLVES;
}

function phoneCountry(value: string): string | undefined {
  try {
    return parsePhone(value).countryCode;
  } catch {
    return undefined;
  }
}
