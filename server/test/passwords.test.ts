import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { alphabetOf, followsRules, generatePassword } from '../domain/passwords.js';
import { passwordLength, policyOf, readPasswordRules as readRules, SAFE_SYMBOLS } from '../domain/password-policy.js';
import { contract } from './support.js';

// The document's range (root x-limits); the expectations below spell out the specification's 12 to 64.
const readPasswordRules = (body: Record<string, unknown>) => readRules(body, passwordLength(contract()));
import { ApiError } from '../domain/errors.js';

/**
 * Generated passwords (sections 2.5, 2.6, 8.7) over random rule fields, checked against an oracle
 * written from the specification's words, not from the implementation.
 */

const anyValue = fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.object({ maxDepth: 0 }));
// Infinities are what JSON.parse makes of 1e400 and -1e400: numbers of the right type, judged by the rules.
const length = fc.oneof(fc.integer({ min: -5, max: 80 }), fc.double({ min: -5, max: 80, noNaN: true }), fc.constantFrom(Infinity, -Infinity), anyValue);
const symbols = fc.oneof(
  fc.string({ unit: fc.constantFrom(...SAFE_SYMBOLS, '%', '^', '&', '(', ')', 'a', ' ', '~'), maxLength: 14 }),
  anyValue,
);
const ruleFields = fc.record(
  {
    minLength: length,
    maxLength: length,
    noSymbols: fc.oneof(fc.boolean(), anyValue),
    symbols,
    noRepeats: fc.oneof(fc.boolean(), anyValue),
  },
  { requiredKeys: [] },
);

/** The codes the specification gives for these rule fields; empty when they are acceptable. */
function expectedCodes(f: Record<string, unknown>): Set<string> {
  const codes = new Set<string>();
  const num = (v: unknown): v is number => typeof v === 'number';
  // A number too large for a double is still a whole number, larger (or smaller) than any bound.
  const whole = (v: number) => Number.isInteger(v) || !Number.isFinite(v);
  if (num(f.maxLength) && !whole(f.maxLength)) codes.add('invalid_policy');
  if (num(f.maxLength) && f.maxLength < 12) codes.add('password_too_short');
  if (num(f.minLength) && (!whole(f.minLength) || f.minLength > 64 || (num(f.maxLength) && f.minLength > f.maxLength))) {
    codes.add('invalid_policy');
  }
  if (typeof f.symbols === 'string' && ![...f.symbols].some((c) => SAFE_SYMBOLS.includes(c))) codes.add('invalid_policy');
  return codes;
}

describe('generated passwords', () => {
  it('when rule fields are random, then the password follows every rule or the right 400 code is given', () => {
    let generated = 0;
    fc.assert(
      fc.property(ruleFields, (fields) => {
        const expected = expectedCodes(fields);
        let rules;
        try {
          rules = readPasswordRules(fields);
        } catch (e) {
          expect(e).toBeInstanceOf(ApiError);
          expect((e as ApiError).status).toBe(400);
          expect(expected.has((e as ApiError).code), `${(e as ApiError).code} for ${JSON.stringify(fields)}`).toBe(true);
          return;
        }
        expect(expected.size, `accepted ${JSON.stringify(fields)}`).toBe(0);
        generated++;

        const password = generatePassword(rules);
        const min = typeof fields.minLength === 'number' ? fields.minLength : -Infinity;
        const max = typeof fields.maxLength === 'number' ? fields.maxLength : Infinity;
        const noSymbols = fields.noSymbols === true;
        const allowed = typeof fields.symbols === 'string' ? [...SAFE_SYMBOLS].filter((c) => (fields.symbols as string).includes(c)) : [...SAFE_SYMBOLS];

        expect(password.length).toBeGreaterThanOrEqual(Math.max(12, min));
        expect(password.length).toBeLessThanOrEqual(Math.min(64, max));
        // The default length is 24 whenever the rules allow it.
        if (min <= 24 && max >= 24) expect(password.length).toBe(24);
        expect(password).toMatch(/[a-z]/);
        expect(password).toMatch(/[A-Z]/);
        expect(password).toMatch(/[0-9]/);
        for (const c of password) {
          expect(/[a-zA-Z0-9]/.test(c) || (!noSymbols && allowed.includes(c)), `character ${c} in ${password}`).toBe(true);
        }
        if (!noSymbols) expect([...password].some((c) => allowed.includes(c))).toBe(true);
        if (fields.noRepeats === true) expect(password).not.toMatch(/(.)\1\1/);

        const policy = policyOf(rules);
        expect(policy.length).toBe(password.length);
        if (noSymbols) {
          expect(policy).toEqual({ length: password.length, classes: ['lowercase', 'uppercase', 'digit'] });
        } else {
          expect(policy.classes).toEqual(['lowercase', 'uppercase', 'digit', 'symbol']);
          expect([...policy.symbolAlphabet!].sort()).toEqual([...allowed].sort());
        }
      }),
      { numRuns: 2000 },
    );
    // The generator itself was exercised, not only the refusals.
    expect(generated).toBeGreaterThan(500);
  });

  it('when the same rules are used many times, then every allowed character appears and passwords differ', () => {
    const rules = readPasswordRules({ symbols: '#?' });
    const seen = new Set<string>();
    const passwords = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const p = generatePassword(rules);
      passwords.add(p);
      for (const c of p) seen.add(c);
    }
    expect(passwords.size).toBe(400);
    expect(seen.size).toBe(26 + 26 + 10 + 2);
  });

  it('when the narrowest rules are given (12 characters, one symbol, no repeats), then generation still follows them', () => {
    const rules = readPasswordRules({ maxLength: 12, symbols: '=', noRepeats: true });
    for (let i = 0; i < 200; i++) {
      const p = generatePassword(rules);
      expect(p).toHaveLength(12);
      expect(p).toMatch(/=/);
      expect(p).not.toMatch(/(.)\1\1/);
    }
  });

  it('when noRepeats is set and a candidate has three identical characters in a row, then it is drawn again; without noRepeats it is kept', () => {
    const rules = readPasswordRules({ maxLength: 12, noSymbols: true, noRepeats: true });
    const alphabet = alphabetOf(rules);
    // A fixed random source: the first candidate breaks noRepeats (`aaa`), the second follows every rule.
    const first = 'aaaBcdefgh12';
    const second = 'abaBcdefgh12';
    const source = () => {
      const queue = [...first, ...second].map((c) => alphabet.indexOf(c));
      return (max: number) => {
        expect(max).toBe(alphabet.length);
        return queue.shift()!;
      };
    };
    expect(followsRules(first, rules)).toBe(false);
    expect(followsRules(first, { ...rules, noRepeats: false })).toBe(true);
    expect(generatePassword(rules, source())).toBe(second);
    expect(generatePassword({ ...rules, noRepeats: false }, source())).toBe(first);
  });

  it('when a password has three identical characters in a row anywhere, then it breaks noRepeats; two are fine', () => {
    const rules = readPasswordRules({ maxLength: 12, noRepeats: true });
    for (const password of ['aaaBcd3fgh1!', 'Abcd3fghZZZ!', 'Abcd3fgh1!!!', 'Ab111cd3fgh!']) expect(followsRules(password, rules), password).toBe(false);
    for (const password of ['aaBcd3fgh1!!', 'AbCC3fghZZ1!']) expect(followsRules(password, rules), password).toBe(true);
  });
});
