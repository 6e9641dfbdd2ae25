/**
 * The identity and address fields this server keeps. The specification names only the six phone
 * tokens; the other field names are this implementation's and are open in the document.
 */
export const IDENTITY_FIELDS = ['first_name', 'last_name', 'full_name', 'email', 'date_of_birth', 'phone'] as const;

/** One stored phone number yields six tokens; the last three resolve only for country code +1. */
export const PHONE_TOKENS = ['phone', 'phone_country', 'phone_national', 'phone_area', 'phone_prefix', 'phone_line'] as const;

export const ADDRESS_FIELDS = ['name', 'line1', 'line2', 'city', 'region', 'postal_code', 'country', 'phone'] as const;

/** Labels that would be confused with a field or record name (section 8.7: "such as card, city, email"). */
export const RESERVED_LABELS = new Set<string>([
  'card',
  'cards',
  'login',
  'logins',
  'identity',
  'address',
  'addresses',
  'token',
  'tokens',
  'number',
  'cvv',
  'password',
  'username',
  'totp',
  ...IDENTITY_FIELDS,
  ...PHONE_TOKENS,
  ...ADDRESS_FIELDS,
]);

export function tokenFieldsOfIdentityField(field: string): string[] {
  return field === 'phone' ? [...PHONE_TOKENS] : [field];
}
