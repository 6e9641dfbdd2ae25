import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, stmt, type Db, type SqliteStore } from '../store/db.js';
import { writeInGroupCommit } from '../store/group-commit.js';
import { loadContract } from '../contract.js';
import { ManualClock } from '../domain/clock.js';
import { Limiter } from '../domain/limiter.js';
import { givenAccount, rawAnswer, startServer } from './support.js';

const contract = loadContract();
const dirs: string[] = [];
const dbs: SqliteStore[] = [];

afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Two connections on one file: `a` writes, `b` watches what is committed. */
function twoConnections(): { a: SqliteStore; b: SqliteStore } {
  const dir = mkdtempSync(join(tmpdir(), 'vault-commit-'));
  dirs.push(dir);
  const a = openDb(join(dir, 'v.db'));
  const b = openDb(join(dir, 'v.db'));
  dbs.push(a, b);
  return { a, b };
}

/** Commits by other connections, as `b` sees them. */
const commitsSeen = (b: SqliteStore) => b.sqlite.pragma('data_version', { simple: true }) as number;
const metaKeys = (db: SqliteStore) => (db.sqlite.prepare("SELECT key FROM meta WHERE key LIKE 'w%' ORDER BY key").pluck().all() as string[]).join(',');
/** A write of one row, run in the transaction it is handed. */
const put = (key: string) => async (tx: Db) => {
  await stmt(tx, 'INSERT INTO meta (key, value) VALUES (?, ?)').run(key, Buffer.from(key));
  return key;
};

describe('group commit', () => {
  it('when writes arrive in one turn, then one commit holds them, one that throws rolls back alone, and each settles once committed', async () => {
    const { a, b } = twoConnections();
    const before = commitsSeen(b);
    const failing = async (tx: Db) => {
      await put('w2')(tx);
      throw new Error('refused');
    };
    const settled = [put('w1'), failing, put('w3')].map((w) =>
      // What another connection sees when each write settles: committed already, or never.
      writeInGroupCommit(a, w).then(
        (v) => `${v} seen:${metaKeys(b)}`,
        (err: Error) => `${err.message} seen:${metaKeys(b)}`,
      ),
    );
    expect(await Promise.all(settled)).toEqual(['w1 seen:w1,w3', 'refused seen:w1,w3', 'w3 seen:w1,w3']);
    expect(commitsSeen(b) - before).toBe(1);
  });

  it("when the limiter's charges and writes arrive in the same turn, then they share one commit", async () => {
    const { a, b } = twoConnections();
    const limiter = new Limiter(a, new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 10)), contract, { overrides: {} });
    const check = [{ limit: contract.limit('login-writes-per-key'), subject: 'k1', plan: 'Free' as const }];
    const before = commitsSeen(b);
    await Promise.all([limiter.consume(check), writeInGroupCommit(a, put('w1')), limiter.consume(check), writeInGroupCommit(a, put('w2'))]);
    expect(commitsSeen(b) - before).toBe(1);
    expect(metaKeys(b)).toBe('w1,w2');
    expect(b.sqlite.prepare("SELECT count FROM counters WHERE limit_id = 'login-writes-per-key' AND subject = 'k1'").pluck().get()).toBe(2);
  });

  it('when the shared transaction cannot be had, then every write of the turn fails and none is stored', async () => {
    const { a, b } = twoConnections();
    a.sqlite.pragma('busy_timeout = 50');
    // Another process holds the write lock past the wait.
    b.sqlite.prepare('BEGIN IMMEDIATE').run();
    const settled = await Promise.all([put('w1'), put('w2')].map((w) => writeInGroupCommit(a, w).then(String, (err: Error) => err.message)));
    b.sqlite.prepare('ROLLBACK').run();
    expect(settled).toEqual(['database is locked', 'database is locked']);
    expect(metaKeys(b)).toBe('');
    // The next turn is a new transaction.
    expect(await writeInGroupCommit(a, put('w3'))).toBe('w3');
    expect(metaKeys(b)).toBe('w3');
  });

  it('when a client sends a filing and closes its side at once, then it still reads the answer, filed or refused', async () => {
    const t = await startServer();
    try {
      const a = await givenAccount(t, { plan: 'Plus', signup: true });
      const file = (body: string) =>
        rawAnswer(t.base, `POST /v1/logins/requests HTTP/1.1\r\nAuthorization: Bearer ${a.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}`, body);
      expect(await file(JSON.stringify({ website: 'acme.com', email: 'jane@example.com' }))).toMatch(/^HTTP\/1\.1 202 [^]*"status":"pending"/);
      expect(await file(JSON.stringify({ website: 'not a domain', email: 'jane@example.com' }))).toMatch(/^HTTP\/1\.1 400 [^]*"code":"invalid_website"/);
    } finally {
      await t.close();
    }
  });
});
