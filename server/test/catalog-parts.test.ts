import { beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { beginRequestReads, stmt, transaction, type Db } from '../store/db.js';
import { Sealer } from '../store/secrets.js';
import { twoConnectionsEachTest } from './shared-file.js';
import { openAccount } from '../domain/accounts.js';
import { accountData, readWhole } from '../domain/catalog-parts.js';
import { buildCatalog, loginEntry } from '../domain/catalog.js';
import { catalogJson } from '../domain/catalog-json.js';
import { getLogin, insertLogin, setUsername } from '../store/logins.js';
import { insertCard } from '../store/cards.js';
import { issueToken } from '../store/tokens.js';

// A kept logins or tokens part takes the rows changed since it was read (migration
// 0009-row-versions) instead of being read whole. Whatever the writes, by this process or another
// on the same file, the kept part is the part read whole.

const sealer = new Sealer(randomBytes(32));
const dbs = twoConnectionsEachTest();
let a: Db;
let b: Db;
beforeEach(() => ({ a, b } = dbs));

// Labels whose UTF-16 order is not their UTF-8 order (U+FF5E against U+1F600), as SQLite sorts them.
const LABELS = ['acme', 'Acme', 'b', 'é', '\uff5e', '😀', 'a b', 'z'];
const SITES = ['acme.com', 'shop.acme.com', 'acme.co.uk', 'other.org', null];

type Op =
  | { op: 'add'; label: number; site: number; extra: number[]; username: boolean; createdAt: number; by: 'a' | 'b' }
  | { op: 'delete'; label: number; by: 'a' | 'b' }
  | { op: 'username'; label: number; by: 'a' | 'b' }
  | { op: 'site'; label: number; site: number; by: 'a' | 'b' }
  | { op: 'extra'; label: number; site: number; remove: boolean; by: 'a' | 'b' }
  | { op: 'card'; by: 'a' | 'b' }
  | { op: 'forget-tokens'; label: number; by: 'a' | 'b' }
  | { op: 'email-token'; nth: number; by: 'a' | 'b' }
  | { op: 'card-token'; nth: number; by: 'a' | 'b' }
  | { op: 'many'; count: number; by: 'a' | 'b' }
  | { op: 'other-account'; by: 'a' | 'b' }
  | { op: 'read' };

const by = fc.constantFrom<'a' | 'b'>('a', 'b');
const label = fc.nat({ max: LABELS.length - 1 });
const site = fc.nat({ max: SITES.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('card' as const), by }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('add' as const), label, site, extra: fc.array(fc.nat({ max: 3 }), { maxLength: 3 }), username: fc.boolean(), createdAt: fc.nat({ max: 1 }), by }), weight: 3 },
  fc.record({ op: fc.constant('delete' as const), label, by }),
  fc.record({ op: fc.constant('username' as const), label, by }),
  fc.record({ op: fc.constant('site' as const), label, site, by }),
  fc.record({ op: fc.constant('extra' as const), label, site: fc.nat({ max: 3 }), remove: fc.boolean(), by }),
  fc.record({ op: fc.constant('forget-tokens' as const), label, by }),
  { arbitrary: fc.record({ op: fc.constant('email-token' as const), nth: fc.nat(), by }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('card-token' as const), nth: fc.nat(), by }), weight: 3 },
  fc.record({ op: fc.constant('many' as const), count: fc.integer({ min: 60, max: 70 }), by }),
  fc.record({ op: fc.constant('other-account' as const), by }),
  { arbitrary: fc.constant({ op: 'read' as const }), weight: 3 },
);

async function apply(dbs: { a: Db; b: Db }, accountId: string, otherId: string, o: Op, serial: () => number): Promise<void> {
  if (o.op === 'read') return;
  const db = dbs[o.by];
  const id = async (l: number) => (await stmt(db, 'SELECT id FROM logins WHERE account_id = ? AND label = ?').pluck().get(accountId, LABELS[l])) as string | undefined;
  switch (o.op) {
    case 'add':
      if (await id(o.label)) return;
      await insertLogin(db, sealer, {
        accountId,
        label: LABELS[o.label]!,
        website: SITES[o.site]!,
        extraWebsites: o.extra.map((i) => SITES[i]!),
        password: 'pw-Secret-1',
        username: o.username ? 'me' : null,
        now: o.createdAt,
      });
      return;
    case 'delete':
      await stmt(db, 'DELETE FROM logins WHERE account_id = ? AND label = ?').run(accountId, LABELS[o.label]);
      return;
    case 'username': {
      const login = await id(o.label);
      if (login) await setUsername(db, sealer, (await getLogin(db, login))!, `user-${serial()}`);
      return;
    }
    case 'site':
      await stmt(db, 'UPDATE logins SET website = ? WHERE account_id = ? AND label = ?').run(SITES[o.site], accountId, LABELS[o.label]);
      return;
    case 'extra': {
      const login = await id(o.label);
      if (!login) return;
      if (o.remove) await stmt(db, 'DELETE FROM login_extra_sites WHERE login_id = ? AND host = ?').run(login, SITES[o.site]);
      else await stmt(db, 'INSERT OR IGNORE INTO login_extra_sites (login_id, host) VALUES (?, ?)').run(login, SITES[o.site]);
      return;
    }
    case 'card':
      await insertCard(db, sealer, { accountId, number: '4242424242424242', anySite: true, agent: false, limits: null, allow: [], block: [], now: serial() });
      return;
    case 'forget-tokens': {
      const login = await id(o.label);
      if (login) await stmt(db, "DELETE FROM tokens WHERE record_id = ? AND field <> 'password'").run(login);
      return;
    }
    case 'email-token': {
      // A change of one of the logins' tokens alone: its row stays the same.
      const logins = await stmt(db, 'SELECT id FROM logins WHERE account_id = ? ORDER BY id').pluck().all(accountId) as string[];
      if (logins.length > 0) await issueToken(db, { accountId, kind: 'login', recordId: logins[o.nth % logins.length]!, field: 'email' });
      return;
    }
    case 'card-token': {
      // A change of one of the cards' tokens alone: its row stays the same.
      const cards = await stmt(db, 'SELECT id FROM cards WHERE account_id = ? ORDER BY id').pluck().all(accountId) as string[];
      if (cards.length === 0) return;
      const card = cards[o.nth % cards.length]!;
      if ((await stmt(db, "DELETE FROM tokens WHERE record_id = ? AND field = 'securityCode'").run(card)).changes === 0) await issueToken(db, { accountId, kind: 'card', recordId: card, field: 'securityCode' });
      return;
    }
    case 'many':
      await transaction(db, async (tx) => {
        for (let i = 0; i < o.count; i++) await insertLogin(tx, sealer, { accountId, label: `bulk-${serial()}`, website: 'bulk.com', extraWebsites: [], password: 'pw-Secret-1', now: 3 });
      });
      return;
    case 'other-account':
      await insertLogin(db, sealer, { accountId: otherId, label: `other-${serial()}`, website: 'acme.com', extraWebsites: [], password: 'pw-Secret-1', now: 0 });
      return;
  }
}

/** What of the kept data the catalog reads from the logins and tokens parts. */
async function keptParts(db: Db, accountId: string) {
  const { tokens, logins, byId, extra, loginDomains, siteNames } = await accountData(db, accountId);
  return { tokens, logins, byId, extra, loginDomains, siteNames };
}

describe('kept catalog parts', () => {
  it('when any sequence of writes, in this process or another, is followed by a read, then the kept logins and tokens equal the parts read whole, the catalog is the one built from nothing kept, and the answer made of kept entries is its JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        const accountId = (await openAccount(a, { plan: 'Free', name: 'one', now: 0 })).id;
        const otherId = (await openAccount(a, { plan: 'Free', name: 'two', now: 0 })).id;
        let n = 0;
        const serial = () => ++n;
        await keptParts(a, accountId);
        for (const o of ops) {
          await apply({ a, b }, accountId, otherId, o, serial);
          // Reads now and then, so that several writes come between two reads.
          if (o.op !== 'read') continue;
          beginRequestReads(a);
          expect(await keptParts(a, accountId)).toEqual(await readWhole(a, accountId));
          // The entries kept across reads are the entries of the parts read whole, and the answer's
          // text made of them is the catalog's JSON.
          const whole = await readWhole(a, accountId);
          const built = whole.logins.map((l) => loginEntry(l, whole.extra.get(l.id) ?? [], whole.tokens.get(l.id) ?? {}));
          expect((await buildCatalog(a, { id: '', account_id: accountId, scoped: 0 }, undefined)).logins).toEqual(built);
          for (const page of [undefined, 'https://www.acme.com/cart', 'acme.co.uk']) {
            const key = { id: '', account_id: accountId, scoped: 0 };
            const catalog = await buildCatalog(a, key, page);
            expect(catalogJson(catalog).join().toString('utf8')).toBe(JSON.stringify(catalog));
            // Inside a transaction nothing kept is read: the catalog built from the data as it is.
            expect(catalog).toEqual(await transaction(a, (tx) => buildCatalog(tx, key, page)));
          }
        }
        beginRequestReads(a);
        expect(await keptParts(a, accountId)).toEqual(await readWhole(a, accountId));
        expect(await keptParts(a, otherId)).toEqual(await readWhole(a, otherId));
      }),
      { numRuns: 150 },
    );
  });

  it('when two logins of the same time are added one after the other, then they are in the order SQLite gives them, UTF-8 bytes', async () => {
    const accountId = (await openAccount(a, { plan: 'Free', name: 'one', now: 0 })).id;
    const add = (db: Db, l: string) => insertLogin(db, sealer, { accountId, label: l, website: 'acme.com', extraWebsites: [], password: 'pw-Secret-1', now: 0 });
    await add(a, '😀');
    await keptParts(a, accountId);
    await add(b, '\uff5e');
    beginRequestReads(a);
    expect((await keptParts(a, accountId)).logins.map((l) => l.label)).toEqual(['\uff5e', '😀']);
    expect(await keptParts(a, accountId)).toEqual(await readWhole(a, accountId));
  });

  it('when a login gains an extra site while another login is added, then both changes are in the kept part', async () => {
    const accountId = (await openAccount(a, { plan: 'Free', name: 'one', now: 0 })).id;
    const add = (db: Db, l: string) => insertLogin(db, sealer, { accountId, label: l, website: 'acme.com', extraWebsites: [], password: 'pw-Secret-1', now: 0 });
    const first = await add(a, 'a');
    await keptParts(a, accountId);
    await stmt(b, "INSERT INTO login_extra_sites (login_id, host) VALUES (?, 'other.org')").run(first);
    await add(b, 'b');
    beginRequestReads(a);
    expect((await keptParts(a, accountId)).extra.get(first)).toEqual(['other.org']);
    expect(await keptParts(a, accountId)).toEqual(await readWhole(a, accountId));
  });

  it("when a login's tokens change and its row does not, then its entry is built again", async () => {
    const accountId = (await openAccount(a, { plan: 'Free', name: 'one', now: 0 })).id;
    const key = { id: '', account_id: accountId, scoped: 0 };
    const id = await insertLogin(a, sealer, { accountId, label: 'acme', website: 'acme.com', extraWebsites: [], username: 'me', password: 'pw-Secret-1', now: 0 });
    expect(Object.keys((await buildCatalog(a, key, undefined)).logins[0]!.tokens)).toEqual(['password', 'username']);
    await stmt(b, "DELETE FROM tokens WHERE record_id = ? AND field = 'username'").run(id);
    beginRequestReads(a);
    expect(Object.keys((await buildCatalog(a, key, undefined)).logins[0]!.tokens)).toEqual(['password']);
  });

  it("when a card's tokens change and its row does not, then the card list is built again; a change to a login's leaves it as it was", async () => {
    const accountId = (await openAccount(a, { plan: 'Free', name: 'one', now: 0 })).id;
    const key = { id: '', account_id: accountId, scoped: 0 };
    const card = await insertCard(a, sealer, { accountId, number: '4242424242424242', anySite: true, agent: false, limits: null, allow: [], block: [], now: 0 });
    const login = await insertLogin(a, sealer, { accountId, label: 'acme', website: 'acme.com', extraWebsites: [], password: 'pw-Secret-1', now: 0 });
    const cards = (await buildCatalog(a, key, undefined)).cards;
    expect(Object.keys(cards[0]!.tokens)).toEqual(['number', 'securityCode']);
    await issueToken(b, { accountId, kind: 'login', recordId: login, field: 'email' });
    beginRequestReads(a);
    expect((await buildCatalog(a, key, undefined)).cards).toBe(cards);
    await stmt(b, "DELETE FROM tokens WHERE record_id = ? AND field = 'securityCode'").run(card);
    beginRequestReads(a);
    expect(Object.keys((await buildCatalog(a, key, undefined)).cards[0]!.tokens)).toEqual(['number']);
  });

  it('when one login is added, then the other logins are kept as they were, not read again', async () => {
    const accountId = (await openAccount(a, { plan: 'Free', name: 'one', now: 0 })).id;
    for (const l of ['a', 'c']) await insertLogin(a, sealer, { accountId, label: l, website: 'acme.com', extraWebsites: [], password: 'pw-Secret-1', now: 0 });
    const before = await keptParts(a, accountId);
    const [a1, c1] = before.logins;
    const tokensOfA = before.tokens.get(a1!.id);
    await insertLogin(b, sealer, { accountId, label: 'b', website: 'acme.com', extraWebsites: ['shop.acme.com'], password: 'pw-Secret-1', now: 0 });
    beginRequestReads(a);
    const after = await keptParts(a, accountId);
    expect(after.logins.map((l) => l.label)).toEqual(['a', 'b', 'c']);
    expect(after.logins[0]).toBe(a1);
    expect(after.logins[2]).toBe(c1);
    expect(after.tokens.get(a1!.id)).toBe(tokensOfA);
    expect(after).toEqual(await readWhole(a, accountId));
  });
});
