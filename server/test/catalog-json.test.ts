import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogJson, layOut, listJsonOf, ListJsonWriter, type ListJson } from '../domain/catalog-json.js';

// A list's JSON is written from another list's, entry by entry, as runs of its bytes and entries
// serialised anew (domain/catalog-json.ts). Whatever entries are taken, in whatever order, from a
// list in pieces or in one, the bytes are the list's JSON and each entry ends where it is said to.

const entry = fc.record({ label: fc.string({ unit: 'binary', maxLength: 6 }), tokens: fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }) });

/** One list made from the one before: each item takes entry i of it, or a new entry. */
const generation = fc.record({
  items: fc.array(fc.oneof(fc.record({ carry: fc.nat(40) }), fc.record({ fresh: entry })), { maxLength: 25 }),
  // Whether the list goes into an answer, which leaves it in one piece.
  answered: fc.boolean(),
});

function expectJsonOf(json: ListJson, entries: object[]): void {
  const bytes = Buffer.concat(json.pieces);
  expect(bytes.toString('utf8')).toBe(entries.map((e) => JSON.stringify(e)).join(','));
  expect(json.ends.length).toBe(entries.length);
  entries.forEach((e, i) => {
    const start = i === 0 ? 0 : json.ends[i - 1]! + 1;
    expect(bytes.subarray(start, json.ends[i]).toString('utf8')).toBe(JSON.stringify(e));
  });
}

describe('a list\'s JSON written from another\'s', () => {
  it('when entries are carried in any order and new ones put between them, generation after generation, then the bytes are the list\'s JSON and its ends are the entries\'', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), fc.array(generation, { minLength: 1, maxLength: 6 }), (first, generations) => {
        let entries: object[] = first;
        let json = listJsonOf(entries);
        expectJsonOf(json, entries);
        for (const g of generations) {
          const writer = new ListJsonWriter(g.items.length);
          const next: object[] = [];
          for (const item of g.items) {
            if ('fresh' in item) {
              writer.fresh(item.fresh);
              next.push(item.fresh);
            } else if (entries.length > 0) {
              const i = item.carry % entries.length;
              writer.carry(json, i);
              next.push(entries[i]!);
            }
          }
          const made = writer.done();
          entries = next;
          json = made;
          expectJsonOf(json, entries);
          if (g.answered) {
            layOut(entries, json);
            const body = { cards: [], logins: entries, identity: { tokens: {}, missing: [] }, addresses: [] };
            const answer = catalogJson(body);
            expect(Buffer.concat(answer.pieces).toString('utf8')).toBe(JSON.stringify(body));
            expect(answer.length).toBe(Buffer.byteLength(JSON.stringify(body)));
            expect(answer.join().toString('utf8')).toBe(JSON.stringify(body));
            expect(json.pieces.length).toBeLessThanOrEqual(1);
            expectJsonOf(json, entries);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('when the entries kept follow one another, then they are one run of bytes: a change to one entry of many gives a few pieces', () => {
    const entries = Array.from({ length: 500 }, (_, i) => ({ label: `login ${i}` }));
    const json = listJsonOf(entries);
    layOut(entries, json);
    catalogJson({ cards: [], logins: entries, identity: {}, addresses: [] }).join();
    const writer = new ListJsonWriter(entries.length);
    entries.forEach((_, i) => (i === 250 ? writer.fresh({ label: 'changed' }) : writer.carry(json, i)));
    // Before it, a comma, the changed entry, a comma, after it.
    expect(writer.done().pieces.length).toBe(5);
  });
});
