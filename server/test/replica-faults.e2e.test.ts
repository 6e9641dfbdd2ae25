import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { spawnServer, type ServerProcess } from './process.js';
import { createTestDatabase } from './postgres.js';
import { pgCtl, startCluster } from '../../scripts/postgres-cluster.js';

// Faults of a replica on PostgreSQL: a replica killed mid-write, and a database that stops and
// starts again under it.

const started: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop('SIGKILL')));
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function replica(url: string): Promise<{ server: ServerProcess; keys: { agent: string; signup: string }; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'vault-faults-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    VAULT_DATA_DIR: dir,
    VAULT_DATABASE_URL: url,
    VAULT_MASTER_KEY: randomBytes(32).toString('hex'),
    VAULT_CLOCK: 'manual:2026-01-05T12:00:10Z',
    VAULT_LIMITS: 'pending-signup-requests=1000000,login-writes-per-key=1000000,catalog-per-key=1000000,catalog-per-account=1000000',
  };
  const server = await spawnServer(env, ['--demo']);
  started.push(server);
  const { keys } = JSON.parse(readFileSync(join(dir, 'local.json'), 'utf8')) as { keys: { agent: string; signup: string } };
  return { server, keys, dir };
}

async function rows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

describe('a replica on PostgreSQL', () => {
  it('when killed with SIGKILL under a filing load, then every acknowledged filing is stored', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const { server, keys } = await replica(database.url);
    const acknowledged: string[] = [];
    let stop = false;
    const worker = async () => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`${server.base}/v1/logins/requests`, {
            method: 'POST',
            headers: { authorization: `Bearer ${keys.signup}`, 'content-type': 'application/json' },
            body: JSON.stringify({ website: `killed${i}.example`, email: 'agent@example.com' }),
          });
          const body = (await res.json()) as { requestId?: string };
          if (res.status === 202 && body.requestId) acknowledged.push(body.requestId);
        } catch {
          return;
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    // Killed once filings are being acknowledged steadily, whatever the machine's speed.
    for (const until = Date.now() + 30_000; acknowledged.length < 40 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    expect(acknowledged.length).toBeGreaterThan(20);
    const stored = new Set((await rows(database.url, 'SELECT id FROM signup_requests')).map((r) => r.id as string));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });

  it('when its database stops, then requests get 503 unavailable with Retry-After, none a 500 or a hung request, and once it starts again the replica serves by itself', async () => {
    // A cluster of this test's own: it is stopped and started under the replica.
    const cluster = await startCluster(join(tmpdir(), `vault-pg-fault-${randomBytes(6).toString('hex')}`));
    cleanups.push(() => cluster.stop());
    const { server, keys } = await replica(cluster.url);
    const catalog = () => fetch(`${server.base}/v1/tokens`, { headers: { authorization: `Bearer ${keys.agent}` }, signal: AbortSignal.timeout(15_000) });
    const filing = () =>
      fetch(`${server.base}/v1/logins/requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.signup}`, 'content-type': 'application/json' },
        body: JSON.stringify({ website: 'fault.example', email: 'agent@example.com' }),
        signal: AbortSignal.timeout(15_000),
      });
    expect((await catalog()).status).toBe(200);
    expect((await fetch(`${server.base}/_health/ready`)).status).toBe(200);

    pgCtl(cluster.dir, 'stop');
    for (const answer of await Promise.all([catalog(), filing(), catalog(), filing()])) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(((await answer.json()) as { code: string }).code).toBe('unavailable');
    }
    const ready = await fetch(`${server.base}/_health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ ready: false, reason: 'database' });

    pgCtl(cluster.dir, 'start');
    expect((await catalog()).status).toBe(200);
    expect((await filing()).status).toBe(202);
    expect((await fetch(`${server.base}/_health/ready`)).status).toBe(200);
    expect(server.output()).not.toMatch(/"status":500/);
  });

  it('when asked for its health while it serves, then live and ready', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const { server } = await replica(database.url);
    expect(await (await fetch(`${server.base}/_health/live`)).json()).toEqual({ live: true });
    expect(await (await fetch(`${server.base}/_health/ready`)).json()).toEqual({ ready: true });
  });
});
