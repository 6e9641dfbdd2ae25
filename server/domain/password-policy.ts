import { ApiError } from './errors.js';
import type { Contract } from '../contract.js';
import type { components } from '../../client/generated/schema.js';

/**
 * The password rule fields of section 2.6, read from a request body. A member of the wrong type is
 * ignored (the document marks them `x-ignore-wrong-type`), so the service's defaults apply; a value
 * of the right type that breaks a rule is `invalid_policy` or `password_too_short`.
 */

/** The length range of a generated password (sections 2.6, 8.7). */
export interface PasswordLength {
  min: number;
  max: number;
  default: number;
}

/** Reads the range from the document's root `x-limits` (`generated-password-length`). */
export function passwordLength(contract: Contract): PasswordLength {
  const { min, max, value } = contract.limit('generated-password-length');
  if (min === undefined || max === undefined || value === undefined) throw new Error('generated-password-length needs min, max and value');
  return { min, max, default: value };
}

/** The punctuation every site is assumed to accept; `symbols` can only narrow it. */
export const SAFE_SYMBOLS = '!@#$*+-_=.?';

export const LOWERCASE = 'abcdefghijklmnopqrstuvwxyz';
export const UPPERCASE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const DIGITS = '0123456789';

export type CharacterClass = components['schemas']['PasswordPolicy']['classes'][number];

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

// A number is judged as JSON.parse reads it, an IEEE 754 double (PasswordRules in the document):
// `1e400` reads as Infinity, a whole number beyond every bound, never a value to ignore. NaN
// cannot come from JSON.
const isNumber = (v: unknown): v is number => typeof v === 'number' && !Number.isNaN(v);
const isWhole = (n: number) => Number.isInteger(n) || !Number.isFinite(n);

/** Reads the rule fields of a body into the rules the generator follows, or throws the specification's 400. */
export function readPasswordRules(body: Record<string, unknown>, range: PasswordLength): PasswordRules {
  const minLength = isNumber(body.minLength) ? body.minLength : undefined;
  const maxLength = isNumber(body.maxLength) ? body.maxLength : undefined;
  const noSymbols = typeof body.noSymbols === 'boolean' ? body.noSymbols : false;
  const symbols = typeof body.symbols === 'string' ? body.symbols : undefined;
  const noRepeats = typeof body.noRepeats === 'boolean' ? body.noRepeats : false;

  if (maxLength !== undefined) {
    if (!isWhole(maxLength)) throw policyError('maxLength must be a whole number.');
    if (maxLength < range.min) {
      throw new ApiError(400, 'password_too_short', `maxLength is below ${range.min}; a generated password has at least ${range.min} characters.`);
    }
  }
  if (minLength !== undefined) {
    if (!isWhole(minLength)) throw policyError('minLength must be a whole number.');
    if (minLength > range.max) throw policyError(`minLength is above ${range.max}, the longest generated password.`);
    if (maxLength !== undefined && minLength > maxLength) throw policyError('minLength is above maxLength.');
  }
  let symbolAlphabet = SAFE_SYMBOLS;
  if (symbols !== undefined) {
    // Keep the safe set's order, so the same rule fields always give the same alphabet.
    symbolAlphabet = [...SAFE_SYMBOLS].filter((c) => symbols.includes(c)).join('');
    if (symbolAlphabet === '') throw policyError(`symbols names none of the safe set ${SAFE_SYMBOLS}.`);
  }

  const lo = Math.max(range.min, minLength ?? range.min);
  const hi = Math.min(range.max, maxLength ?? range.max);
  const length = Math.min(hi, Math.max(lo, range.default));
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
