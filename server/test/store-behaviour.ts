import { describe, expect, it, onTestFinished } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { beginRequestReads, knownVersion, openDb, stmt, transaction, type Db } from '../store/db.js';
import { openPostgres, type PostgresDb } from '../store/postgres.js';
import { Sealer, verifyMasterKey, WrongMasterKeyError } from '../store/secrets.js';
import { cachedRead, scopes } from '../store/read-cache.js';
import { writeInGroupCommit } from '../store/group-commit.js';
import { openAccount } from '../domain/accounts.js';
import { accountData, readWhole } from '../domain/catalog-parts.js';
import { Limiter } from '../domain/limiter.js';
import { ManualClock } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import { insertLogin, setUsername, getLogin } from '../store/logins.js';
import { loadContract } from '../contract.js';
import { createTestDatabase } from './postgres.js';
import { storePlainSecrets } from './plain-secrets.js';

// The store's behaviour on both dialects, with two handles on one database where two server
// processes would share it: the same tests, declared here, run on SQLite in stores.test.ts (in
// process) and on PostgreSQL in stores.e2e.test.ts (on the tests' cluster).

const contract = loadContract();
const sealer = new Sealer(randomBytes(32));

export type Kind = 'sqlite' | 'postgres';

/** Two handles on one new database, closed (and the database removed) when the test ends. */
async function twoHandles(kind: Kind): Promise<{ a: Db; b: Db; url?: string }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'vault-stores-'));
    const a = openDb(join(dir, 'v.db'));
    const b = openDb(join(dir, 'v.db'));
    onTestFinished(async () => {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return { a, b };
  }
  const database = await createTestDatabase();
  // Opened at once, as replicas starting together: the migrations are applied once.
  const [a, b] = await Promise.all([openPostgres({ url: database.url }), openPostgres({ url: database.url })]);
  onTestFinished(async () => {
    await a.close();
    await b.close();
    await database.drop();
  });
  return { a, b, url: database.url };
}

/** Declares the store's tests on one dialect, in the test file that calls it. */
export function describeStore(kind: Kind): void {
  describe(`the ${kind} store`, () => {
    it('when two handles open a new database at once, then it is migrated once, to the version this server knows', async () => {
      const { a, url } = await twoHandles(kind);
      if (url) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const rows = (await client.query('SELECT version FROM schema_migrations ORDER BY version')).rows as { version: number }[];
        await client.end();
        // Each migration once (PostgreSQL's start at 10, its schema in one step), the last this server's.
        const versions = rows.map((r) => r.version);
        expect(new Set(versions).size).toBe(versions.length);
        expect(versions.at(-1)).toBe(knownVersion());
      } else {
        expect((a as unknown as { sqlite: { pragma(s: string, o: object): unknown } }).sqlite.pragma('user_version', { simple: true })).toBe(knownVersion());
      }
    });

    it('when the key check was written under one master key, then another is refused', async () => {
      const { a, b } = await twoHandles(kind);
      await verifyMasterKey(a, sealer);
      await verifyMasterKey(b, sealer);
      await expect(verifyMasterKey(b, new Sealer(randomBytes(32)))).rejects.toThrow(WrongMasterKeyError);
    });

    it('when secrets are stored, then no column holds one in plain text, and the store opens them again', async () => {
      const { a, b } = await twoHandles(kind);
      const { plain } = await storePlainSecrets(a, b, sealer);
      const stored: string[] = [];
      for (const table of ['logins', 'cards', 'api_keys', 'tokens', 'meta']) {
        for (const row of (await stmt(b, `SELECT * FROM ${table}`).all()) as Record<string, unknown>[]) {
          for (const value of Object.values(row)) stored.push(Buffer.isBuffer(value) ? value.toString('latin1') : String(value));
        }
      }
      const text = stored.join('\n');
      for (const s of plain) {
        expect(text.includes(s), s).toBe(false);
      }
    });

    it('when the other handle writes an account, then a kept read of it is read again once a request begins, and another account\'s is not', async () => {
      const { a, b } = await twoHandles(kind);
      const one = await openAccount(a, { plan: 'Free', name: 'one', now: 0 });
      const two = await openAccount(a, { plan: 'Free', name: 'two', now: 0 });
      let builds = { one: 0, two: 0 };
      const read = (id: string, which: 'one' | 'two') => cachedRead(a, which, async () => ++builds[which], scopes.account(id));
      beginRequestReads(a);
      await read(one.id, 'one');
      await read(two.id, 'two');
      await insertLogin(b, sealer, { accountId: one.id, label: 'acme', website: 'acme.com', extraWebsites: [], password: 'pw-Secret-1', now: 1 });
      beginRequestReads(a);
      await read(one.id, 'one');
      await read(two.id, 'two');
      expect(builds).toEqual({ one: 2, two: 1 });
      builds = { one: 0, two: 0 };
    });

    it('when logins change through either handle, then the kept catalog parts are the parts read whole', async () => {
      const { a, b } = await twoHandles(kind);
      const accountId = (await openAccount(a, { plan: 'Free', name: 'one', now: 0 })).id;
      const ids: string[] = [];
      for (const [i, db] of [a, b, a, b, a].entries()) {
        ids.push(await insertLogin(db, sealer, { accountId, label: `l${i}`, website: `site${i}.com`, extraWebsites: i % 2 ? ['shop.acme.com'] : [], password: 'pw-Secret-1', now: i % 3 }));
        beginRequestReads(a);
        const { tokens, logins } = await accountData(a, accountId);
        const whole = await readWhole(a, accountId);
        expect({ tokens, logins }).toEqual({ tokens: whole.tokens, logins: whole.logins });
      }
      await setUsername(b, sealer, (await getLogin(b, ids[1]!))!, 'me');
      await stmt(b, 'DELETE FROM logins WHERE id = ?').run(ids[2]);
      beginRequestReads(a);
      const { tokens, logins, extra } = await accountData(a, accountId);
      const whole = await readWhole(a, accountId);
      expect({ tokens, logins, extra }).toEqual({ tokens: whole.tokens, logins: whole.logins, extra: whole.extra });
    });

    it('when a write throws inside a transaction, then nothing of it is kept', async () => {
      const { a, b } = await twoHandles(kind);
      await expect(
        transaction(a, async (tx) => {
          await openAccount(tx, { plan: 'Free', name: 'gone', now: 0 });
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await stmt(b, 'SELECT COUNT(*) FROM accounts').pluck().get()).toBe(0);
    });

    it('when steps share a commit and one is refused, then it alone rolls back and each settles after the commit', async () => {
      const { a, b } = await twoHandles(kind);
      const put = (key: string) => async (tx: Db) => {
        await stmt(tx, 'INSERT INTO meta (key, value) VALUES (?, ?)').run(key, Buffer.from(key));
        return key;
      };
      const seen = async () => ((await stmt(b, "SELECT key FROM meta WHERE key LIKE 'w%' ORDER BY key").pluck().all()) as string[]).join(',');
      const settled = await Promise.all(
        [
          put('w1'),
          async (tx: Db) => {
            await put('w2')(tx);
            throw new Error('refused');
          },
          put('w3'),
        ].map((w) => writeInGroupCommit(a, w).then(async (v) => `${v} seen:${await seen()}`, async (e: Error) => `${e.message} seen:${await seen()}`)),
      );
      expect(settled).toEqual(['w1 seen:w1,w3', 'refused seen:w1,w3', 'w3 seen:w1,w3']);
    });

    it('when two handles charge one limit at once, then exactly the limit is counted and every other charge is refused', async () => {
      const { a, b } = await twoHandles(kind);
      const clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 10));
      const limit = contract.limit('login-writes-per-key');
      const max = limit.value!;
      const check = [{ limit, subject: 'k1', plan: 'Free' as const }];
      const limiters = [new Limiter(a, clock, contract, { overrides: {} }), new Limiter(b, clock, contract, { overrides: {} })];
      const outcomes = await Promise.all(
        Array.from({ length: max + 10 }, (_, i) =>
          limiters[i % 2]!.consume(check).then(
            () => 'counted',
            (e: unknown) => (e instanceof ApiError ? e.code : String(e)),
          ),
        ),
      );
      expect(outcomes.filter((o) => o === 'counted')).toHaveLength(max);
      expect(outcomes.filter((o) => o !== 'counted')).toEqual(Array(10).fill('rate_limited'));
      expect(await stmt(a, "SELECT count FROM counters WHERE limit_id = 'login-writes-per-key' AND subject = 'k1'").pluck().get()).toBe(max);
    });

    it('when two transactions read and write the same row at once, then both complete, one after the other', async () => {
      const { a, b } = await twoHandles(kind);
      await stmt(a, "INSERT INTO meta (key, value) VALUES ('n', ?)").run(Buffer.from('0'));
      const increment = (db: Db) =>
        transaction(db, async (tx) => {
          const n = Number(((await stmt(tx, "SELECT value FROM meta WHERE key = 'n'").pluck().get()) as Buffer).toString());
          await stmt(tx, "UPDATE meta SET value = ? WHERE key = 'n'").run(Buffer.from(String(n + 1)));
        });
      // Two SQLite connections of one process would wait for each other's write lock inside one
      // event loop; a process has one, whose transactions queue. PostgreSQL's conflict runs one again.
      await Promise.all(Array.from({ length: 20 }, (_, i) => increment(i % 2 && kind === 'postgres' ? b : a)));
      if (kind === 'postgres') expect((b as PostgresDb).retries + (a as PostgresDb).retries).toBeGreaterThan(0);
      expect(((await stmt(a, "SELECT value FROM meta WHERE key = 'n'").pluck().get()) as Buffer).toString()).toBe('20');
    });
  });
}
