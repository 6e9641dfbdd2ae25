import { randomInt } from 'node:crypto';
import { DIGITS, LOWERCASE, UPPERCASE, type PasswordRules } from './password-policy.js';

/** A uniform whole number from 0 to `max - 1`; crypto.randomInt, or a fixed sequence in tests. */
export type RandomIndex = (max: number) => number;

/**
 * Generates a password that follows the rules: every character is drawn with crypto.randomInt
 * (uniform, no modulo bias) from the whole alphabet, and a candidate that misses a required class
 * or has three identical characters in a row (under noRepeats) is thrown away and drawn again.
 * Rejection keeps the result uniform over all passwords that follow the rules; placing one
 * character of each class first and shuffling would not. The worst case (12 characters, one
 * symbol allowed) still succeeds about one time in seven, so the loop ends quickly.
 */
export function generatePassword(rules: PasswordRules, random: RandomIndex = randomInt): string {
  const alphabet = alphabetOf(rules);
  for (;;) {
    const chars: string[] = [];
    for (let i = 0; i < rules.length; i++) chars.push(alphabet[random(alphabet.length)]!);
    const password = chars.join('');
    if (followsRules(password, rules)) return password;
  }
}

/** Every character a password under these rules may have, in the order the generator indexes them. */
export function alphabetOf(rules: PasswordRules): string {
  return [LOWERCASE, UPPERCASE, DIGITS, rules.symbolAlphabet].join('');
}

/** Whether a password follows the rules; the generator's acceptance test, and the tests' oracle. */
export function followsRules(password: string, rules: PasswordRules): boolean {
  if (password.length !== rules.length) return false;
  const classes = [LOWERCASE, UPPERCASE, DIGITS, ...(rules.symbolAlphabet ? [rules.symbolAlphabet] : [])];
  const alphabet = alphabetOf(rules);
  if ([...password].some((c) => !alphabet.includes(c))) return false;
  if (!classes.every((set) => [...password].some((c) => set.includes(c)))) return false;
  if (rules.noRepeats && /(.)\1\1/s.test(password)) return false;
  return true;
}
