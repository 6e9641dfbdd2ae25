import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, givenAccount, rawAnswer, startServer, type TestServer } from './support.js';
import { buildCatalog } from '../domain/catalog.js';
import { findLiveKey, addKeyLogin } from '../store/keys.js';
import { insertCard } from '../store/cards.js';
import { deleteLogin, insertLogin } from '../store/logins.js';
import { insertAddress, setIdentityFields } from '../store/profile.js';
import { tokenFieldsOfIdentityField } from '../domain/profile-fields.js';
import { RecipeRegistry } from '../domain/recipes.js';
import { loadRelease } from '../domain/registry.js';
import { openDb, stmt } from '../store/db.js';
import { ManualClock } from '../domain/clock.js';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { kept, sendKept } from '../http/answer-cache.js';

/**
 * The catalog, the recipe index and the full bundle are kept as the bytes of their first answer
 * until the stored data changes (http/answer-cache.ts), so a repeated read is neither built,
 * serialised nor checked against the document again. These cases hold the kept answer to the
 * answer the server gives when it builds and validates one: the same bytes, headers included
 * (apart from Date and the request's own X-Request-Id), and a fresh build after every change. Responses are validated, as always in
 * tests.
 */

let t: TestServer;
let recipes: RecipeRegistry;
beforeAll(async () => {
  const db = openDb(':memory:');
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 0));
  recipes = new RecipeRegistry({ db, clock, contract: contract(), log: () => {} }, loadRelease(contract()));
  t = await startServer({ db, clock, recipes });
});
afterAll(() => t.close());

/** The answer to one request on a new connection (support.ts). */
const raw = (head: string) => rawAnswer(t.base, head);

/** The raw answer's body, decoded. */
const bodyOf = (answer: string) => Buffer.from(answer.slice(answer.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8');

/** A first answer (built, validated) and two more (kept): all the same bytes. */
async function sameEveryTime(head: string): Promise<string> {
  const first = await raw(head);
  expect(await raw(head)).toBe(first);
  expect(await raw(head)).toBe(first);
  return first;
}

async function account() {
  const a = await givenAccount(t, { plan: 'Plus' });
  const base = { accountId: a.accountId, now: t.clock.now() };
  await insertCard(t.db, t.sealer, { ...base, number: '4000056655665556', anySite: true, allow: [], block: [], agent: false, limits: null });
  await insertCard(t.db, t.sealer, { ...base, number: '4242424242424242', anySite: false, allow: ['acme.com'], block: [], agent: false, limits: null });
  await insertLogin(t.db, t.sealer, { ...base, label: 'acme', website: 'acme.com', extraWebsites: ['login.acmeid.net'], email: 'jane@example.com', password: 'acme-secret-pass' });
  await insertLogin(t.db, t.sealer, { ...base, label: 'acme2', website: 'acme.co.uk', extraWebsites: [], username: 'jane_uk', password: 'uk-secret-pass', totpSecret: 'JBSWY3DPEHPK3PXP' });
  return a;
}

const PAGES = ['', '?url=https%3A%2F%2Fwww.acme.co.uk%2Fcheckout', '?host=acme.com', '?url=not%20a%20url', '?url=', '?url=a&url=b'];

describe('getTokenCatalog', () => {
  it('when the catalog is read again with nothing changed, then the same bytes as the first answer, for every page, HEAD and a conditional request', async () => {
    const a = await account();
    for (const page of PAGES) {
      const get = await sameEveryTime(`GET /v1/tokens${page} HTTP/1.1\r\nAuthorization: Bearer ${a.key}`);
      expect(get).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(get).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
      expect(get).toMatch(/\r\nCache-Control: no-store\r\n/);
      const head = await sameEveryTime(`HEAD /v1/tokens${page} HTTP/1.1\r\nAuthorization: Bearer ${a.key}`);
      expect(head).toBe(get.slice(0, get.indexOf('\r\n\r\n') + 4));
      // res.send answers a request that already holds any version with 304, as it did with res.json.
      const conditional = await sameEveryTime(`GET /v1/tokens${page} HTTP/1.1\r\nIf-None-Match: *\r\nAuthorization: Bearer ${a.key}`);
      expect(conditional).toMatch(/^HTTP\/1\.1 304 Not Modified\r\n/);
    }
  });

  it('when the first read of a catalog is a HEAD or a conditional request, then it is answered as a GET\'s headers or 304, and the GET that follows is the catalog, byte for byte', async () => {
    for (const first of ['HEAD', 'If-None-Match']) {
      const a = await account();
      const key = (await findLiveKey(t.db, a.key))!;
      for (const page of ['', '?host=acme.com']) {
        const opening = first === 'HEAD' ? await raw(`HEAD /v1/tokens${page} HTTP/1.1\r\nAuthorization: Bearer ${a.key}`) : await raw(`GET /v1/tokens${page} HTTP/1.1\r\nIf-None-Match: *\r\nAuthorization: Bearer ${a.key}`);
        const get = await raw(`GET /v1/tokens${page} HTTP/1.1\r\nAuthorization: Bearer ${a.key}`);
        expect(bodyOf(get)).toBe(JSON.stringify(await buildCatalog(t.db, key, page === '' ? undefined : 'acme.com')));
        if (first === 'HEAD') expect(opening).toBe(get.slice(0, get.indexOf('\r\n\r\n') + 4));
        else expect(opening).toMatch(/^HTTP\/1\.1 304 Not Modified\r\n/);
      }
    }
  });

  it('when the catalog is read again, then it is the kept answer, not one built again: a change that only a build would see is not seen', async () => {
    const a = await account();
    const read = () => raw(`GET /v1/tokens HTTP/1.1\r\nAuthorization: Bearer ${a.key}`).then(bodyOf);
    const first = await read();
    // With this trigger in place of its own, a change of a login's site raises the logins part's
    // version but not the account's: a build reads the changed login, the kept answer stays.
    const trigger = await stmt(t.db, "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'logins_scope_update'").pluck().get() as string;
    t.db.sqlite.exec(`DROP TRIGGER logins_scope_update;
      CREATE TRIGGER logins_scope_update AFTER UPDATE ON logins BEGIN
        INSERT INTO data_scopes (scope, version) SELECT 'logins:' || NEW.account_id, 1 WHERE true ON CONFLICT (scope) DO UPDATE SET version = version + 1;
        INSERT INTO row_versions (scope, row_id, version) SELECT scope, NEW.id, version FROM data_scopes WHERE scope = 'logins:' || NEW.account_id
          ON CONFLICT (scope, row_id) DO UPDATE SET version = excluded.version;
      END;`);
    try {
      await stmt(t.db, "UPDATE logins SET website = 'changed.example' WHERE account_id = ? AND label = 'acme'").run(a.accountId);
      expect(await read()).toBe(first);
      expect(JSON.stringify(await buildCatalog(t.db, (await findLiveKey(t.db, a.key))!, undefined))).toContain('changed.example');
    } finally {
      t.db.sqlite.exec(`DROP TRIGGER logins_scope_update; ${trigger};`);
    }
    await stmt(t.db, "UPDATE logins SET website = 'acme.com' WHERE account_id = ? AND label = 'acme'").run(a.accountId);
    expect(await read()).toBe(first);
  });

  it('when the catalog was kept and is then built afresh, then both are the catalog the domain builds, byte for byte', async () => {
    const a = await account();
    const key = (await findLiveKey(t.db, a.key))!;
    const expectBuilt = async (page: string, query: string) => {
      const answer = await sameEveryTime(`GET /v1/tokens${query} HTTP/1.1\r\nAuthorization: Bearer ${a.key}`);
      expect(bodyOf(answer)).toBe(JSON.stringify(await buildCatalog(t.db, key, page || undefined)));
    };
    const changes = [
      () => insertCard(t.db, t.sealer, { accountId: a.accountId, now: t.clock.now(), number: '5200828282828210', anySite: false, allow: ['acme.co.uk'], block: [], agent: false, limits: null }),
      () => insertLogin(t.db, t.sealer, { accountId: a.accountId, now: t.clock.now(), label: 'github', website: 'github.com', extraWebsites: [], password: 'gh-secret-pass' }),
      () => setIdentityFields(t.db, t.sealer, a.accountId, { first_name: 'Jane', phone: '+14155550100' }, tokenFieldsOfIdentityField),
      () => insertAddress(t.db, t.sealer, { accountId: a.accountId, label: 'home', fields: { line1: '1 Market St', city: 'San Francisco' }, now: t.clock.now() }),
      () => deleteLogin(t.db, a.accountId, 'acme'),
    ];
    for (const change of [() => {}, ...changes]) {
      change();
      await expectBuilt('', '');
      await expectBuilt('https://www.acme.co.uk/checkout', '?url=https%3A%2F%2Fwww.acme.co.uk%2Fcheckout');
    }
  });

  it('when keys of one account differ in scope, then each reads its own catalog, before and after the other', async () => {
    const a = await account();
    const scoped = await a.addKey({ scopedTo: [] });
    const read = (secret: string) => raw(`GET /v1/tokens HTTP/1.1\r\nAuthorization: Bearer ${secret}`).then(bodyOf);
    const wide = await read(a.key);
    expect(JSON.parse(await read(scoped.key)).logins).toEqual([]);
    expect(await read(a.key)).toBe(wide);
    const login = t.db.sqlite.prepare("SELECT id FROM logins WHERE account_id = ? AND label = 'acme2'").get(a.accountId) as { id: string };
    await addKeyLogin(t.db, scoped.keyId, login.id);
    expect(JSON.parse(await read(scoped.key)).logins.map((l: { label: string }) => l.label)).toEqual(['acme2']);
    expect(await read(a.key)).toBe(wide);
  });

  it('when the catalog breaks the document, then 500 on every read, never a kept answer, and 200 once it is fixed', async () => {
    const a = await account();
    // A label the document forbids (lower-case letters and digits only), written past the domain's rules.
    await stmt(t.db, 'UPDATE logins SET label = ? WHERE account_id = ? AND label = ?').run('Not_A_Label', a.accountId, 'acme');
    for (let i = 0; i < 3; i++) {
      const answer = await raw(`GET /v1/tokens HTTP/1.1\r\nAuthorization: Bearer ${a.key}`);
      expect(answer).toMatch(/^HTTP\/1\.1 500 /);
      expect(JSON.parse(bodyOf(answer))).toEqual({ code: 'internal_error', error: 'Internal error.' });
    }
    await stmt(t.db, 'UPDATE logins SET label = ? WHERE account_id = ? AND label = ?').run('acme', a.accountId, 'Not_A_Label');
    expect(await sameEveryTime(`GET /v1/tokens HTTP/1.1\r\nAuthorization: Bearer ${a.key}`)).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('when an entry changes after its catalog was let through, then the response hook checks the changed entry: 500 for one the document forbids, for a login, a card and an address', async () => {
    const a = await account();
    await insertAddress(t.db, t.sealer, { accountId: a.accountId, label: 'home', fields: { line1: '1 Market St', city: 'San Francisco' }, now: t.clock.now() });
    const read = () => raw(`GET /v1/tokens${page} HTTP/1.1\r\nAuthorization: Bearer ${a.key}`);
    let page = '';
    const card = await stmt(t.db, 'SELECT id FROM cards WHERE account_id = ? AND any_site = 1').pluck().get(a.accountId) as string;
    const address = await stmt(t.db, 'SELECT id FROM addresses WHERE account_id = ?').pluck().get(a.accountId) as string;
    // A token the document forbids (Token: at least one character), and the label of a login.
    const breakToken = async (recordId: string) => {
      const [token, field] = await stmt(t.db, 'SELECT token, field FROM tokens WHERE record_id = ? ORDER BY field LIMIT 1').raw().get(recordId) as [string, string];
      await stmt(t.db, "UPDATE tokens SET token = '' WHERE record_id = ? AND field = ?").run(recordId, field);
      return () => stmt(t.db, 'UPDATE tokens SET token = ? WHERE record_id = ? AND field = ?').run(token, recordId, field);
    };
    const breakLabel = async () => {
      await stmt(t.db, 'UPDATE logins SET label = ? WHERE account_id = ? AND label = ?').run('Not_A_Label', a.accountId, 'acme2');
      return () => stmt(t.db, 'UPDATE logins SET label = ? WHERE account_id = ? AND label = ?').run('acme2', a.accountId, 'Not_A_Label');
    };
    // The whole catalog, and a page that lists acme2 among the related logins.
    for (const query of ['', '?url=https%3A%2F%2Fwww.acme.com%2Fcart']) {
      page = query;
      const first = await read();
      expect(first).toMatch(/^HTTP\/1\.1 200 /);
      if (query !== '') expect(JSON.parse(bodyOf(first)).relatedLogins.map((l: { label: string }) => l.label)).toEqual(['acme2']);
      for (const broken of [breakLabel, () => breakToken(card), () => breakToken(address)]) {
        const fix = await broken();
        // Refused, the entry is not taken for one let through: the next read is refused too.
        for (let i = 0; i < 2; i++) {
          const answer = await read();
          expect(answer).toMatch(/^HTTP\/1\.1 500 /);
          expect(JSON.parse(bodyOf(answer))).toEqual({ code: 'internal_error', error: 'Internal error.' });
        }
        await fix();
        expect(bodyOf(await read())).toBe(bodyOf(first));
      }
    }
  });
});

describe('getRecipes', () => {
  it('when the index or the full bundle is read again, then the same bytes; after a contribution goes live, the index as the registry builds it', async () => {
    for (const query of ['', '?full=1']) {
      const answer = await sameEveryTime(`GET /v1/recipes${query} HTTP/1.1`);
      expect(answer).toMatch(/\r\nCache-Control: public, max-age=300\r\n/);
      expect(bodyOf(answer)).toBe(JSON.stringify({ recipes: await recipes.index(query !== '') }));
    }
    const a = await givenAccount(t);
    const recipe = { key: 'kept-answers.example', kind: 'merchant', platform: 'custom', status: 'partial', match: { hosts: ['www.kept-answers.example'], paths: ['/checkout'] } };
    const submitted = await t.call('/v1/recipes', { method: 'POST', key: a.key, json: recipe });
    expect(submitted.status).toBe(202);
    for (const query of ['', '?full=1']) {
      const answer = await sameEveryTime(`GET /v1/recipes${query} HTTP/1.1`);
      expect(bodyOf(answer)).toBe(JSON.stringify({ recipes: await recipes.index(query !== '') }));
      expect(bodyOf(answer)).toContain('"key":"kept-answers.example"');
    }
  });
});

describe('sendKept', () => {
  it('when the answer is serialised by its own bytes under a type other than JSON, then that type gets its charset as res.send gives it, and the bytes, not a stand-in, are sent and kept', async () => {
    const db = openDb(':memory:');
    const app = express();
    app.get('/', async (_req, res) => {
      res.type('text/plain');
      const pieces = [Buffer.from('{"a"'), Buffer.from(':1}')];
      sendKept(res, await kept(db, 'plain', 'registry'), { a: 1 }, () => ({ pieces, length: 7, join: () => Buffer.concat(pieces) }));
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      for (let i = 0; i < 2; i++) {
        const answer = await fetch(url);
        expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(await answer.text()).toBe('{"a":1}');
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    }
  });
});
