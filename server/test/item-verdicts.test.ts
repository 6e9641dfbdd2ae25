import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildContract, type Contract } from '../contract.js';
import { itemVerdicts } from '../http/validated-items.js';
import { insertLogin } from '../store/logins.js';
import { contract, givenAccount, startServer, type TestServer } from './support.js';

/**
 * The response hook is handed a catalog without the entries it has already let through
 * (http/validated-items.ts) only while the document's catalog schema makes an answer's verdict that of
 * its items one by one. These cases hold what it hands over, and hold that a schema with a rule over
 * a whole array (a count, uniqueness) has every answer checked whole.
 */

const MEMBERS = ['cards', 'logins', 'relatedLogins', 'addresses'];

/** The document with the token catalog's schema changed by `change`. */
function variant(change: (catalog: Record<string, any>) => void): Contract {
  const doc = structuredClone(contract().doc) as { components: { schemas: Record<string, Record<string, any>> } };
  change(doc.components.schemas.TokenCatalog!);
  return buildContract(doc as never);
}

describe('itemVerdicts', () => {
  it('when entries were let through, then only the others are handed over; other members and the order stay', () => {
    const verdicts = itemVerdicts(contract(), 'getTokenCatalog', MEMBERS)!;
    expect(verdicts).toBeDefined();
    const [a, b, c] = [{ label: 'a' }, { label: 'b' }, { label: 'c' }];
    const identity = { tokens: {}, missing: [] };
    const first = { cards: [a], logins: [b], identity, addresses: [] };
    expect(verdicts.unseen(first)).toEqual(first);
    verdicts.passed(first, verdicts.unseen(first));
    const second = { cards: [a, c], logins: [c, b], relatedLogins: [b, a], identity, addresses: [] };
    const part = verdicts.unseen(second);
    expect(Object.keys(part)).toEqual(Object.keys(second));
    // Verdicts are kept per member: `a` and `b` were let through as a card and a login, not as related logins.
    expect(part).toEqual({ cards: [c], logins: [c], relatedLogins: [b, a], identity, addresses: [] });
    expect(part.cards[0]).toBe(c);
    expect(part.identity).toBe(identity);
    expect(second.cards).toEqual([a, c]);
  });

  it('when items are not objects, then they are always handed over', () => {
    const verdicts = itemVerdicts(contract(), 'getTokenCatalog', MEMBERS)!;
    const body = { cards: ['x', null, 3], logins: 'not an array', addresses: [] };
    verdicts.passed(body, body);
    expect(verdicts.unseen(body)).toEqual(body);
  });

  it('when any lists of entries follow one another, some let through, then exactly the entries never let through in that member are handed over, in their order', () => {
    // Entries, and a few items that are not objects, which are never let through.
    const pool: unknown[] = [...Array.from({ length: 24 }, (_, i) => ({ label: `e${i}` })), undefined, null, 'e0', 7];
    const step = fc.record({ logins: fc.array(fc.nat(pool.length - 1), { maxLength: 30 }), cards: fc.array(fc.nat(pool.length - 1), { maxLength: 6 }), pass: fc.boolean() });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const verdicts = itemVerdicts(contract(), 'getTokenCatalog', MEMBERS)!;
        const passed = { logins: new Set<unknown>(), cards: new Set<unknown>() };
        const objects = (items: unknown[]) => items.filter((e) => typeof e === 'object' && e !== null);
        for (const s of steps) {
          const body = { cards: s.cards.map((i) => pool[i]!), logins: s.logins.map((i) => pool[i]!), identity: { tokens: {}, missing: [] }, addresses: [] };
          const part = verdicts.unseen(body);
          expect(part.logins).toEqual(body.logins.filter((e) => !passed.logins.has(e)));
          expect(part.cards).toEqual(body.cards.filter((e) => !passed.cards.has(e)));
          if (!s.pass) continue;
          verdicts.passed(body, part);
          for (const e of objects(body.logins)) passed.logins.add(e);
          for (const e of objects(body.cards)) passed.cards.add(e);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('when the schema rules over a whole array or over the object in a way this does not read, then there are no item verdicts', () => {
    const variants: [string, (catalog: Record<string, any>) => void][] = [
      ['maxItems', (s) => (s.properties.logins.maxItems = 600)],
      ['minItems', (s) => (s.properties.addresses.minItems = 1)],
      ['uniqueItems', (s) => (s.properties.cards.uniqueItems = true)],
      ['contains', (s) => (s.properties.relatedLogins.contains = { type: 'object' })],
      ['items as a tuple', (s) => (s.properties.logins.items = [s.properties.logins.items])],
      ['allOf around the object', (s) => (s.allOf = [{ required: ['cards'] }])],
      ['a member that is not an array', (s) => (s.properties.cards = { type: 'object' })],
    ];
    for (const [name, change] of variants) expect(itemVerdicts(variant(change), 'getTokenCatalog', MEMBERS), name).toBeUndefined();
    // Annotations say nothing of the items: the verdicts stay.
    expect(itemVerdicts(variant((s) => (s.properties.logins['x-note'] = 'n')), 'getTokenCatalog', MEMBERS)).toBeDefined();
  });
});

describe('a server whose document rules over the number of logins', () => {
  let t: TestServer;
  afterAll(() => t?.close());

  it('when a login is added past the document\'s count, then 500: the catalog was checked whole, not only the new entry', async () => {
    t = await startServer({ contract: variant((s) => (s.properties.logins.maxItems = 2)) });
    const a = await givenAccount(t, { plan: 'Plus' });
    const add = (label: string) => insertLogin(t.db, t.sealer, { accountId: a.accountId, now: t.clock.now(), label, website: `${label}.com`, extraWebsites: [], password: `${label}-secret-pass` });
    // Not t.call, which holds every answer to the document's: this one may be a 500.
    const read = () => fetch(`${t.base}/v1/tokens`, { headers: { authorization: `Bearer ${a.key}` } });
    await add('one');
    await add('two');
    expect((await read()).status).toBe(200);
    await add('three');
    const refused = await read();
    expect(refused.status).toBe(500);
    expect(await refused.json()).toEqual({ code: 'internal_error', error: 'Internal error.' });
  });
});
