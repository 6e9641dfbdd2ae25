import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { openDb, type SqliteStore } from '../store/db.js';
import { ManualClock } from '../domain/clock.js';
import { contract, givenAccount } from './support.js';

// createApp().ready() compiles every validator: before the server serves (the tests' servers, the
// bench), or while it serves (main.ts). Its speed is measured by `npm run bench`, never asserted
// here; these tests pin down that warming has no side effect and changes no answer, and that a
// server warming while it serves answers between the stages of warming.

let db: SqliteStore;
let server: Server;
let base: string;
let logs: Record<string, unknown>[];
let ready: () => Promise<void>;
let countersAfterReady: number;
const clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 0));

beforeAll(async () => {
  db = openDb(':memory:');
  logs = [];
  const app = createApp({ db, clock, masterKey: randomBytes(32), contract: contract(), log: (l) => logs.push(l) });
  ready = app.ready;
  await app.ready();
  countersAfterReady = (db.sqlite.prepare('SELECT COUNT(*) AS n FROM counters').get() as { n: number }).n;
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

describe('getTokenCatalog', () => {
  describe('warming the validators before listening', () => {
    it('when ready() has resolved, then nothing was logged or counted, and calling it again warms nothing twice', async () => {
      expect(logs).toEqual([]);
      expect(countersAfterReady).toBe(0);
      expect(ready()).toBe(ready());
      await ready();
      expect(logs).toEqual([]);
    });

    it('when warmed, then the catalog is answered and a body the document forbids is still refused', async () => {
      const { key } = await givenAccount({ db, clock });
      const ok = await fetch(`${base}/v1/tokens`, { headers: { authorization: `Bearer ${key}` } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ cards: [], logins: [] });
      const refused = await fetch(`${base}/v1/recipes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'acme.com', kind: 'not-a-kind', status: 'unverified' }),
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'invalid_recipe', errors: [expect.objectContaining({ path: '/kind' })] });
    });
  });
});

describe('getTokenCatalog, while the validators compile', () => {
  it('when the document is loaded and warming runs while the server serves, then a request sent at once is answered before warming ends, and answered right', async () => {
    const fresh = openDb(':memory:');
    const app = createApp({ db: fresh, clock, masterKey: randomBytes(32), contract: contract(), log: () => {} });
    const listening: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const { key } = await givenAccount({ db: fresh, clock });
      // As main.ts does: the document is loaded before the server is announced, once.
      expect(app.loaded()).toBe(app.loaded());
      await app.loaded();
      let warmed = false;
      const warming = app.ready('while-serving').then(() => (warmed = true));
      const answer = await fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/v1/tokens`, { headers: { authorization: `Bearer ${key}` } });
      const warmedWhenAnswered = warmed;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ cards: [], logins: [] });
      expect(warmedWhenAnswered).toBe(false);
      await warming;
      expect(app.ready()).toBe(app.ready('while-serving'));
    } finally {
      listening.closeAllConnections();
      await new Promise((resolve) => listening.close(resolve));
      await fresh.close();
    }
  });
});
