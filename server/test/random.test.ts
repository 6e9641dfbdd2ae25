import { describe, expect, it } from 'vitest';
import { randomBytes } from '../store/random.js';

describe('pooled random bytes', () => {
  it('when drawn across several refills of the pool, then every draw has its length and no two draws share bytes', () => {
    const seen = new Set<string>();
    // 16 bytes at a time, well past one 4 KB pool: a byte handed out twice, or a wiped one, would repeat.
    for (let i = 0; i < 2000; i++) {
      const b = randomBytes(i % 7 === 0 ? 12 : 16);
      expect(b.length).toBe(i % 7 === 0 ? 12 : 16);
      const hex = b.toString('hex');
      expect(hex).not.toMatch(/^(00)+$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(2000);
  });

  it('when more than a pool is asked for, then all of it is random', () => {
    const b = randomBytes(10_000);
    expect(b.length).toBe(10_000);
    expect(b.subarray(9_000).equals(Buffer.alloc(1_000))).toBe(false);
  });
});
