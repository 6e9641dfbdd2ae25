import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, type ServerProcess } from './process.js';
import { openDb, type SqliteStore } from '../store/db.js';
import { Sealer, verifyMasterKey } from '../store/secrets.js';
import { openAccount } from '../domain/accounts.js';
import { createKey } from '../store/keys.js';
import { realClock, type Clock } from '../domain/clock.js';
import { IdempotentWrites, keyCredential } from '../domain/idempotency.js';
import { loadContract } from '../contract.js';
import { openPostgres } from '../store/postgres.js';
import { findLiveKey } from '../store/keys.js';
import { createTestDatabase } from './postgres.js';
import pg from 'pg';

/**
 * The `Idempotency-Key` header across two server processes on one database file, and across two
 * replicas on one PostgreSQL database: a key is claimed inside a transaction, so two requests with
 * one key at two processes never both write, and what one process kept the other replays.
 */

const seconds = (id: string) => loadContract().limit(id).value! * 1000;
const IN_FLIGHT_MS = seconds('idempotency-key-in-flight');
const WINDOW_MS = seconds('idempotency-key-window');
let dir: string;
let db: SqliteStore;
let sealer: Sealer;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vault-idempotency-'));
  const masterKey = randomBytes(32);
  sealer = new Sealer(masterKey);
  db = openDb(join(dir, 'vault.db'));
  await verifyMasterKey(db, sealer);
  const env = { VAULT_DATA_DIR: dir, VAULT_MASTER_KEY: masterKey.toString('hex'), VAULT_LIMITS: 'pending-signup-requests=100' };
  servers = await Promise.all([spawnServer(env), spawnServer(env)]);
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function account() {
  const now = Date.now();
  const a = await openAccount(db, { plan: 'Free', name: 'Idempotency account', now });
  const { row, secret } = await createKey(db, { accountId: a.id, name: 'signup key', signupEnabled: true, scoped: false, now });
  return { accountId: a.id, keyId: row.id, key: secret };
}

const filing = (website: string) => JSON.stringify({ website, email: 'agent@example.com' });

async function file(server: ServerProcess, key: string, idempotencyKey: string, body: string) {
  const res = await fetch(`${server.base}/v1/logins/requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

function requestsOf(accountId: string): number {
  return (db.sqlite.prepare('SELECT COUNT(*) AS n FROM signup_requests WHERE account_id = ?').get(accountId) as { n: number }).n;
}

/** The test's own connection claims a key through the same rules, as a third process would. */
async function holdKey(a: { keyId: string }, idempotencyKey: string, body: string, clock: Clock = realClock) {
  const writes = new IdempotentWrites({ db, sealer, clock }, { windowMs: WINDOW_MS, inFlightMs: IN_FLIGHT_MS });
  const decision = await writes.begin({ credential: keyCredential(a.keyId), key: idempotencyKey, method: 'POST', path: '/v1/logins/requests', body: Buffer.from(body) });
  if (decision.kind !== 'claimed') throw new Error(`the key was ${decision.kind}`);
  return { writes, claim: decision.claim };
}

describe('fileSignupRequest with an Idempotency-Key across two processes', () => {
  it('when requests with one key reach both processes at once, then one filing is made and every other answer is its replay or 409', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await account();
      const keys = Array.from({ length: 6 }, (_, i) => `round-${round}-key-${i}`);
      const answers = await Promise.all(
        keys.flatMap((k, i) => [0, 1, 2, 3].map((n) => file(servers[n % 2]!, a.key, k, filing(`site${i}.com`)).then((answer) => ({ k, answer })))),
      );
      for (const k of keys) {
        const mine = answers.filter((x) => x.k === k).map((x) => x.answer);
        const carried = mine.filter((x) => x.status === 202 && x.headers.get('idempotent-replayed') === null);
        expect(carried, JSON.stringify(mine.map((x) => x.status))).toHaveLength(1);
        for (const x of mine) {
          expect(x.headers.get('idempotency-key')).toBe(k);
          if (x === carried[0]) continue;
          if (x.status === 409) expect(x.headers.get('retry-after')).toBe('1');
          else expect({ status: x.status, text: x.text, replayed: x.headers.get('idempotent-replayed') }).toEqual({ status: 202, text: carried[0]!.text, replayed: 'true' });
        }
      }
      expect(requestsOf(a.accountId)).toBe(keys.length);
    }
  }, 60_000);

  it('when one process answered, then the other replays that answer', async () => {
    const a = await account();
    const body = filing('acme.com');
    const first = await file(servers[0]!, a.key, 'kept-across', body);
    expect(first.status).toBe(202);
    const replay = await file(servers[1]!, a.key, 'kept-across', body);
    expect({ status: replay.status, text: replay.text, replayed: replay.headers.get('idempotent-replayed') }).toEqual({ status: 202, text: first.text, replayed: 'true' });
    expect((await file(servers[1]!, a.key, 'kept-across', filing('globex.com'))).status).toBe(422);
    expect(requestsOf(a.accountId)).toBe(1);
  }, 30_000);

  it('when another process holds the key, then both answer 409 until it gives the key up, and then one filing is made', async () => {
    const a = await account();
    const body = filing('acme.com');
    const held = await holdKey(a, 'held-elsewhere', body);
    for (const server of servers) {
      const busy = await file(server, a.key, 'held-elsewhere', body);
      expect(busy.status).toBe(409);
      expect(JSON.parse(busy.text).code).toBe('idempotency_key_in_use');
      expect(busy.headers.get('retry-after')).toBe('1');
    }
    await held.writes.release(held.claim);
    const carried = await file(servers[1]!, a.key, 'held-elsewhere', body);
    expect(carried.status).toBe(202);
    expect((await file(servers[0]!, a.key, 'held-elsewhere', body)).text).toBe(carried.text);
    expect(requestsOf(a.accountId)).toBe(1);
  }, 30_000);

  it('when a process stopped while it held a key, then the key is free once the in-flight bound has passed', async () => {
    const a = await account();
    const body = filing('acme.com');
    // What a process killed mid-request leaves behind: a claim that is never answered nor given up.
    await holdKey(a, 'left-behind', body, { now: () => Date.now() - IN_FLIGHT_MS });
    const carried = await file(servers[0]!, a.key, 'left-behind', body);
    expect(carried.status).toBe(202);
    expect(carried.headers.get('idempotent-replayed')).toBeNull();
    expect(requestsOf(a.accountId)).toBe(1);
  }, 30_000);
});

describe('fileSignupRequest with an Idempotency-Key across two replicas on PostgreSQL', () => {
  const replicas: ServerProcess[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  let key: string;
  let keyId: string;
  let url: string;
  let masterKey: Buffer;
  const count = async (idempotencyKey?: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const sql = idempotencyKey === undefined ? 'SELECT COUNT(*) AS n FROM signup_requests' : 'SELECT COUNT(*) AS n FROM idempotency_keys WHERE idempotency_key = $1';
      return Number((await client.query(sql, idempotencyKey === undefined ? [] : [idempotencyKey])).rows[0].n);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    url = database.url;
    const data = mkdtempSync(join(tmpdir(), 'vault-idempotency-pg-'));
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    masterKey = randomBytes(32);
    const env = { VAULT_DATA_DIR: data, VAULT_DATABASE_URL: url, VAULT_MASTER_KEY: masterKey.toString('hex'), VAULT_LIMITS: 'pending-signup-requests=100,login-writes-per-key=1000' };
    // The first seeds the demo account; the second finds it in the data directory's settings.
    replicas.push(await spawnServer(env, ['--demo']));
    replicas.push(await spawnServer(env, ['--demo']));
    key = (JSON.parse(readFileSync(join(data, 'local.json'), 'utf8')) as { keys: { signup: string } }).keys.signup;
    const store = await openPostgres({ url });
    cleanups.push(() => store.close());
    keyId = (await findLiveKey(store, key))!.id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((s) => s.stop()));
    for (const c of cleanups.reverse()) await c();
  });

  it('when requests with one key reach both replicas at once, then one filing is made and every other answer is its replay or 409', async () => {
    const before = await count();
    const keys = Array.from({ length: 6 }, (_, i) => `pg-key-${i}`);
    const answers = await Promise.all(keys.flatMap((k, i) => [0, 1, 2, 3].map((n) => file(replicas[n % 2]!, key, k, filing(`pg${i}.com`)).then((answer) => ({ k, answer })))));
    for (const k of keys) {
      const mine = answers.filter((x) => x.k === k).map((x) => x.answer);
      const carried = mine.filter((x) => x.status === 202 && x.headers.get('idempotent-replayed') === null);
      expect(carried, JSON.stringify(mine.map((x) => x.status))).toHaveLength(1);
      for (const x of mine) {
        if (x === carried[0]) continue;
        if (x.status === 409) expect(x.headers.get('retry-after')).toBe('1');
        else expect({ status: x.status, text: x.text, replayed: x.headers.get('idempotent-replayed') }).toEqual({ status: 202, text: carried[0]!.text, replayed: 'true' });
      }
      expect(await count(k)).toBe(1);
    }
    expect((await count()) - before).toBe(keys.length);
  }, 60_000);

  it('when a third connection holds the key, then both replicas answer 409 until it is given up; one replica\'s answer is the other\'s replay', async () => {
    const store = await openPostgres({ url });
    try {
      const writes = new IdempotentWrites({ db: store, sealer: new Sealer(masterKey), clock: realClock }, { windowMs: WINDOW_MS, inFlightMs: IN_FLIGHT_MS });
      const body = filing('held.com');
      const decision = await writes.begin({ credential: keyCredential(keyId), key: 'pg-held', method: 'POST', path: '/v1/logins/requests', body: Buffer.from(body) });
      if (decision.kind !== 'claimed') throw new Error(`the key was ${decision.kind}`);
      for (const replica of replicas) expect((await file(replica, key, 'pg-held', body)).status).toBe(409);
      await writes.release(decision.claim);
      const carried = await file(replicas[0]!, key, 'pg-held', body);
      expect(carried.status).toBe(202);
      const replay = await file(replicas[1]!, key, 'pg-held', body);
      expect({ text: replay.text, replayed: replay.headers.get('idempotent-replayed') }).toEqual({ text: carried.text, replayed: 'true' });
    } finally {
      await store.close();
    }
  }, 60_000);
});
