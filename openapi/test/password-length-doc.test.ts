import { describe, expect, it } from 'vitest';
import { loadContract } from '../../server/contract.js';
import { passwordLength, policyOf, readPasswordRules, SAFE_SYMBOLS } from '../../server/domain/password-policy.js';
import { loadBundle } from './bundle.js';

/**
 * What `PasswordRules` tells an integrator about a generated password's length, and about a rotation
 * sent without rules, against what the reference server does (server/domain/password-policy.ts).
 * The examples are read from the description, so a changed sentence is checked as it reads.
 */

const description = String(loadBundle().components.schemas.PasswordRules.description).replace(/\s+/g, ' ');
const range = passwordLength(loadContract());

describe('the password rules as the reference describes them', () => {
  const examples = [...description.matchAll(/`((?:minLength|maxLength): \d+(?:, (?:minLength|maxLength): \d+)*)` gives (\d+)/g)].map((m) => ({
    rules: Object.fromEntries(m[1]!.split(', ').map((pair) => pair.split(': ')).map(([k, v]) => [k!, Number(v)])),
    length: Number(m[2]),
  }));

  it('when the length examples are read, then there are some, and the server gives each the length said', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const { rules, length } of examples) expect(readPasswordRules(rules, range).length, JSON.stringify(rules)).toBe(length);
  });

  it('when no length rule is sent, then the length is the one the description names', () => {
    const said = /no length rule gives (\d+)/.exec(description);
    expect(said).not.toBeNull();
    expect(readPasswordRules({}, range).length).toBe(Number(said![1]));
  });

  it('when a rotation sends only its label, then the password follows the defaults the description lists', () => {
    expect(description).toContain('24 characters, all four classes, symbols from the whole safe set, repeats allowed');
    const rules = readPasswordRules({ label: 'acme' }, range);
    expect(policyOf(rules)).toEqual({ length: 24, classes: ['lowercase', 'uppercase', 'digit', 'symbol'], symbolAlphabet: SAFE_SYMBOLS });
    expect(rules.noRepeats).toBe(false);
  });
});
