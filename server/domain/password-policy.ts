import { ApiError } from './errors.js';

/**
 * The password rule fields of section 2.6, read from a request body. A member of the wrong type is
 * ignored (the document marks them `x-ignore-wrong-type`), so the service's defaults apply; a value
 * of the right type that breaks a rule is `invalid_policy` or `password_too_short`.
 */

/** Generated passwords are 12 to 64 characters, 24 by default (sections 2.6, 8.7). */
export const PASSWORD_LENGTH = { min: 12, max: 64, default: 24 } as const;

/** The punctuation every site is assumed to accept; `symbols` can only narrow it. */
export const SAFE_SYMBOLS = '!@#$*+-_=.?';

export const LOWERCASE = 'abcdefghijklmnopqrstuvwxyz';
export const UPPERCASE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const DIGITS = '0123456789';

export type CharacterClass = 'lowercase' | 'uppercase' | 'digit' | 'symbol';

/** What the generator follows: one length, the classes it must contain, and the symbols it may use. */
export interface PasswordRules {
  length: number;
  /** Empty when the site rejects punctuation. */
  symbolAlphabet: string;
  /** No three identical characters in a row. */
  noRepeats: boolean;
}

/** The `passwordPolicy` member of a poll or a rotation: the rules the password actually followed. */
export interface PasswordPolicy {
  length: number;
  classes: CharacterClass[];
  symbolAlphabet?: string;
}

export const RULE_FIELDS = ['minLength', 'maxLength', 'noSymbols', 'symbols', 'noRepeats'] as const;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Reads the rule fields of a body into the rules the generator follows, or throws the specification's 400. */
export function readPasswordRules(body: Record<string, unknown>): PasswordRules {
  const minLength = isNumber(body.minLength) ? body.minLength : undefined;
  const maxLength = isNumber(body.maxLength) ? body.maxLength : undefined;
  const noSymbols = typeof body.noSymbols === 'boolean' ? body.noSymbols : false;
  const symbols = typeof body.symbols === 'string' ? body.symbols : undefined;
  const noRepeats = typeof body.noRepeats === 'boolean' ? body.noRepeats : false;

  if (maxLength !== undefined) {
    if (!Number.isInteger(maxLength)) throw policyError('maxLength must be a whole number.');
    if (maxLength < PASSWORD_LENGTH.min) {
      throw new ApiError(400, 'password_too_short', `maxLength is below ${PASSWORD_LENGTH.min}; a generated password has at least ${PASSWORD_LENGTH.min} characters.`);
    }
  }
  if (minLength !== undefined) {
    if (!Number.isInteger(minLength)) throw policyError('minLength must be a whole number.');
    if (minLength > PASSWORD_LENGTH.max) throw policyError(`minLength is above ${PASSWORD_LENGTH.max}, the longest generated password.`);
    if (maxLength !== undefined && minLength > maxLength) throw policyError('minLength is above maxLength.');
  }
  let symbolAlphabet = SAFE_SYMBOLS;
  if (symbols !== undefined) {
    // Keep the safe set's order, so the same rule fields always give the same alphabet.
    symbolAlphabet = [...SAFE_SYMBOLS].filter((c) => symbols.includes(c)).join('');
    if (symbolAlphabet === '') throw policyError(`symbols names none of the safe set ${SAFE_SYMBOLS}.`);
  }

  const lo = Math.max(PASSWORD_LENGTH.min, minLength ?? PASSWORD_LENGTH.min);
  const hi = Math.min(PASSWORD_LENGTH.max, maxLength ?? PASSWORD_LENGTH.max);
  const length = Math.min(hi, Math.max(lo, PASSWORD_LENGTH.default));
  return { length, symbolAlphabet: noSymbols ? '' : symbolAlphabet, noRepeats };
}

/** The rules as the agent sees them: no `symbolAlphabet` when the password has no symbols. */
export function policyOf(rules: PasswordRules): PasswordPolicy {
  const classes: CharacterClass[] = ['lowercase', 'uppercase', 'digit'];
  if (rules.symbolAlphabet === '') return { length: rules.length, classes };
  return { length: rules.length, classes: [...classes, 'symbol'], symbolAlphabet: rules.symbolAlphabet };
}

function policyError(message: string): ApiError {
  return new ApiError(400, 'invalid_policy', message);
}
