import { describe, expect, it } from 'vitest';
import { brokenUnderEveryReading } from '../runner/generate/values.js';

/**
 * A generated refusal is judged by the specification only when its value breaks the requirement
 * whichever way the open questions are read; otherwise only the document's reading refuses it.
 */
describe('which generated broken values every reading refuses', () => {
  const table: ['website' | 'email' | 'username', string, boolean, string][] = [
    ['email', 'a@b', true, 'three ASCII characters'],
    ['email', 'ab.example.com', true, 'no @'],
    ['email', 'a@b@c.com', true, 'two @'],
    ['email', 'ab @c.com', true, 'an ASCII space'],
    ['email', 'ab\u00a0@c.com', false, 'a no-break space: whitespace beyond ASCII is left open'],
    ['email', '𝔘@b', false, 'three code points, four UTF-16 units: how characters are counted is left open'],
    ['username', 'abc', true, 'three BMP characters'],
    ['username', 'ab\u0001cd', true, 'a C0 control'],
    ['username', '🛒🛒', false, 'two code points, four UTF-16 units'],
    ['website', 'www.example.com', true, 'a subdomain'],
    ['website', 'co.uk', true, 'a public suffix'],
    ['website', 'a_b.com', false, 'an underscore: the host name label rules are the document\'s'],
    ['website', '-ab.com', false, 'a label starting with a hyphen'],
  ];
  it.each(table)('%s %j: %s (%s)', (member, value, every) => {
    expect(brokenUnderEveryReading(member, value)).toBe(every);
  });

  it('when the value is not a string, then only the document refuses it', () => {
    expect(brokenUnderEveryReading('email', 42)).toBe(false);
  });
});
