import { describe, expect, it } from 'vitest';
import { entries, meaningfulDifferences, perAnswerMembers } from '../runner/by-meaning.js';

/**
 * Comparing two answers by what they say: a member that differs in every answer (a request id, a
 * serving time) is told apart from content, and a real difference is still caught.
 */

const NAMED = ['requestId', 'status', 'expiresAt', 'login', 'passwordPolicy', 'passwordOwnerManaged'];
const now = Date.parse('2026-11-29T10:00:00Z');
const login = { label: 'acme', hasUsername: true, tokens: { password: 'tok_1' } };
const answer = (meta: Record<string, unknown>, over: Record<string, unknown> = {}) => ({ status: 'approved', login, ...over, meta });

describe('per-answer members', () => {
  it('when repeated answers differ in a meta member, then it is per-answer and the comparison ignores it', () => {
    const [a, b, c] = [answer({ requestId: 'r1' }), answer({ requestId: 'r2' }), answer({ requestId: 'r3' })];
    const perAnswer = perAnswerMembers([b, c], NAMED, now);
    expect(perAnswer).toEqual(['/meta/requestId']);
    expect(meaningfulDifferences(a, b, perAnswer)).toEqual([]);
  });

  it('when a serving time is the same in two repeats, then its shape still tells it apart', () => {
    const t = (iso: string) => answer({ servedAt: iso, id: '0f3c6a9e-7b1d-4c2e-9a8f-1b2c3d4e5f60' });
    const perAnswer = perAnswerMembers([t('2026-11-29T10:00:01Z'), t('2026-11-29T10:00:01Z')], NAMED, now);
    expect(perAnswer.sort()).toEqual(['/meta/id', '/meta/servedAt']);
    expect(meaningfulDifferences(t('2026-11-29T09:59:59Z'), t('2026-11-29T10:00:01Z'), perAnswer)).toEqual([]);
  });

  it('when a member the specification names differs, then it is a real difference, whatever its shape', () => {
    const first = answer({ requestId: 'r1' }, { expiresAt: now });
    const later = answer({ requestId: 'r2' }, { login: { ...login, hasUsername: false }, expiresAt: now + 1 });
    const perAnswer = perAnswerMembers([later, answer({ requestId: 'r3' }, { login: { ...login, hasUsername: false }, expiresAt: now + 2 })], NAMED, now);
    expect(perAnswer).toEqual(['/meta/requestId']);
    expect(meaningfulDifferences(first, later, perAnswer).sort()).toEqual(['/expiresAt', '/login/hasUsername']);
  });
});

describe('entries of a member whose container is not given', () => {
  it('when a member is a list or an object keyed by label, then its entries are the same', () => {
    expect(entries([{ a: 1 }, { a: 2 }])).toEqual([{ a: 1 }, { a: 2 }]);
    expect(entries({ visa: { a: 1 }, amex: { a: 2 } })).toEqual([{ a: 1 }, { a: 2 }]);
    expect(entries(undefined)).toEqual([]);
    expect(entries('x')).toEqual([]);
  });
});
