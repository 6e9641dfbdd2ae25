import fc from 'fast-check';

/**
 * Values of the service's own kinds, for generated requests: sites, emails, usernames, page
 * addresses and password rule fields, valid ones and ones that break exactly one rule. Strings mix
 * multi-byte text in, since the document counts lengths in characters, not bytes.
 */

const LETTER = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');
const WIDE = fc.constantFrom('é', 'ü', 'ß', 'ж', '日', '𝔘', '🛒', 'ñ');
/** Characters for free text: mostly ASCII letters, some multi-byte, no control characters. */
export const TEXT_CHAR = fc.oneof({ weight: 4, arbitrary: LETTER }, { weight: 1, arbitrary: WIDE }, { weight: 1, arbitrary: fc.constantFrom('.', '-', '_', '+', ' ') });

/** A string of exactly `length` characters (code points), multi-byte ones included. */
export function textOfLength(length: number, char: fc.Arbitrary<string> = TEXT_CHAR): fc.Arbitrary<string> {
  return fc.array(char, { minLength: length, maxLength: length }).map((cs) => cs.join(''));
}

export function characters(text: string): number {
  return [...text].length;
}

const LABEL = fc
  .array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), { minLength: 1, maxLength: 20 })
  .map((cs) => cs.join(''));
const IDN_LABEL = fc.tuple(LABEL, fc.constantFrom('ü', 'é', 'ñ', 'ø', 'ç')).map(([l, c]) => `${l}${c}${l.slice(0, 2) || 'a'}`);
const SUFFIX = fc.constantFrom('com', 'net', 'org', 'co.uk', 'com.au', 'de', 'io', 'fr');

/** A registrable domain: a label under a public suffix, sometimes internationalised or hyphenated. */
export const SITE = fc
  .tuple(fc.oneof({ weight: 5, arbitrary: LABEL }, { weight: 1, arbitrary: IDN_LABEL }, { weight: 1, arbitrary: fc.tuple(LABEL, LABEL).map(([a, b]) => `${a}-${b}`) }), SUFFIX)
  .map(([label, suffix]) => `cf${label}.${suffix}`);

/** Not a registrable domain, each for one reason the document gives. */
export const NOT_A_SITE = fc.oneof(
  SITE.map((s) => `www.${s}`),
  SUFFIX,
  fc.tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: 0, max: 255 })).map(([a, b]) => `${a}.${b}.0.1`),
  fc.tuple(LABEL, LABEL).map(([a, b]) => `${a}_${b}.com`),
  LABEL.map((l) => `-${l}.com`),
  LABEL.map((l) => `${l}-.com`),
  LABEL.map((l) => `${l}..com`),
  SITE.map((s) => `https://${s}`),
  SITE.map((s) => `${s}/login`),
  LABEL.map((l) => `cf${l}`),
);

export const EMAIL_MIN = 4;
export const EMAIL_MAX = 254;

/** An email of exactly `length` characters: one `@`, no whitespace. */
export function emailOfLength(length: number): fc.Arbitrary<string> {
  const local = Math.max(1, Math.floor((length - 1) / 2));
  const domain = length - 1 - local;
  const part = (n: number) => textOfLength(n, fc.oneof({ weight: 5, arbitrary: LETTER }, { weight: 1, arbitrary: WIDE }, { weight: 1, arbitrary: fc.constantFrom('.', '-', '+') }));
  return fc.tuple(part(local), part(domain)).map(([l, d]) => `${l}@${d}`);
}

export const EMAIL = fc.integer({ min: 6, max: 60 }).chain(emailOfLength);

/** Breaks the email rule one way: length, the one `@`, or whitespace. */
export const NOT_AN_EMAIL = fc.oneof(
  emailOfLength(EMAIL_MIN - 1),
  fc.integer({ min: EMAIL_MAX + 1, max: EMAIL_MAX + 40 }).chain(emailOfLength),
  textOfLength(12, LETTER),
  fc.tuple(emailOfLength(12), LABEL).map(([e, l]) => `${e}@${l}`),
  fc.tuple(emailOfLength(12), fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u2003')).map(([e, ws]) => e.replace('@', `${ws}@`)),
);

/** A username: at least 4 characters, no control characters. */
export const USERNAME = fc.integer({ min: 4, max: 40 }).chain((n) => textOfLength(n));

export const NOT_A_USERNAME = fc.oneof(
  fc.integer({ min: 0, max: 3 }).chain((n) => textOfLength(n)),
  // Inserted between characters (code points), never inside a surrogate pair.
  fc.tuple(USERNAME, fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c))).map(([u, c]) => [...[...u].slice(0, 2), c, ...[...u].slice(2)].join('')),
  fc.tuple(USERNAME, fc.integer({ min: 0x7f, max: 0x9f }).map((c) => String.fromCharCode(c))).map(([u, c]) => `${u}${c}`),
);

/** Page addresses for the `url` filters: URLs, bare hosts, and strings that parse as nothing. */
export const PAGE = fc.oneof(
  fc.tuple(fc.constantFrom('https://', 'http://', 'https://www.', 'https://shop.'), SITE, fc.constantFrom('/', '/checkout', '/cart/1', '')).map((p) => p.join('')),
  SITE,
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 20, unit: 'grapheme' }),
  fc.webUrl(),
);

/** Values of a JSON type other than `type`. */
export function wrongType(type: string): fc.Arbitrary<unknown> {
  const all: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.string({ maxLength: 8 }),
    number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    integer: fc.integer(),
    boolean: fc.boolean(),
    object: fc.constant({ a: 1 }),
    array: fc.constant([1, 'x']),
    null: fc.constant(null),
  };
  const others = Object.entries(all).filter(([t]) => t !== type && !(type === 'number' && t === 'integer') && !(type === 'integer' && t === 'number'));
  return fc.oneof(...others.map(([, a]) => a));
}

export const SAFE_SYMBOLS = '!@#$*+-_=.?';

/** Password rule fields that follow section 2.6, as a partial object. */
export const PASSWORD_RULES = fc
  .record(
    {
      minLength: fc.integer({ min: -5, max: 64 }),
      maxLength: fc.integer({ min: 12, max: 200 }),
      noSymbols: fc.boolean(),
      symbols: fc.subarray([...SAFE_SYMBOLS, 'a', '%', '^'], { minLength: 1 }).map((cs) => cs.join('')).filter((s) => [...s].some((c) => SAFE_SYMBOLS.includes(c))),
      noRepeats: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .filter((r) => r.minLength === undefined || r.maxLength === undefined || r.minLength <= r.maxLength);

/** Rule fields of the wrong type: ignored, the defaults apply (section 2.6). */
export const WRONG_TYPED_RULES = fc.record(
  {
    minLength: fc.oneof(fc.string({ maxLength: 4 }), fc.boolean(), fc.constant(null), fc.constant([20])),
    maxLength: fc.oneof(fc.string({ maxLength: 4 }), fc.boolean(), fc.constant(null), fc.constant({ n: 5 })),
    noSymbols: fc.oneof(fc.constant('yes'), fc.integer({ min: 0, max: 1 }), fc.constant(null)),
    symbols: fc.oneof(fc.integer(), fc.boolean(), fc.constant([SAFE_SYMBOLS])),
    noRepeats: fc.oneof(fc.constant('true'), fc.integer({ min: 0, max: 1 })),
  },
  { requiredKeys: [] },
);

/** One rule of section 2.6 broken by a value of the right type, with the code it gives. */
export const BROKEN_RULE: fc.Arbitrary<{ rule: string; fields: Record<string, unknown>; code: 'password_too_short' | 'invalid_policy'; requirement: 'rule-max-length' | 'rule-min-length' | 'rule-symbols' }> = fc.oneof(
  fc.oneof(fc.integer({ min: -1000, max: 11 }), fc.constant(-1e400)).map((n) => ({ rule: 'maxLength below 12', fields: { maxLength: n }, code: 'password_too_short' as const, requirement: 'rule-max-length' as const })),
  fc.oneof(fc.integer({ min: 65, max: 10_000 }), fc.constant(1e400)).map((n) => ({ rule: 'minLength above 64', fields: { minLength: n }, code: 'invalid_policy' as const, requirement: 'rule-min-length' as const })),
  fc.double({ min: 12.01, max: 63.99, noNaN: true }).filter((n) => !Number.isInteger(n)).map((n) => ({ rule: 'a length not whole', fields: { minLength: n }, code: 'invalid_policy' as const, requirement: 'rule-min-length' as const })),
  fc.integer({ min: 13, max: 64 }).chain((min) => fc.integer({ min: 12, max: min - 1 }).map((max) => ({ rule: 'minLength above maxLength', fields: { minLength: min, maxLength: max }, code: 'invalid_policy' as const, requirement: 'rule-min-length' as const }))),
  fc.stringMatching(/^[a-zA-Z0-9%^&()]{1,8}$/).map((s) => ({ rule: 'symbols with none of the safe set', fields: { symbols: s }, code: 'invalid_policy' as const, requirement: 'rule-symbols' as const })),
);

/**
 * Whether a broken value breaks its requirement under every reading of the specification, not only
 * under the document's: which characters are whitespace or control characters, how characters are
 * counted, and the host name label rules are left open there, so values that turn on them are
 * judged by the document alone.
 */
export function brokenUnderEveryReading(member: 'website' | 'email' | 'username', value: unknown): boolean {
  if (typeof value !== 'string') return false;
  switch (member) {
    case 'website':
      return !/_|(^|\.)-|-(\.|$)/.test(value);
    case 'email':
      return value.split('@').length !== 2 || /^[\x00-\x7f]*$/.test(value);
    case 'username':
      return !/[\u{10000}-\u{10ffff}]/u.test(value);
  }
}
