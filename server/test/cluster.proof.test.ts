import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { replaceReplica, startServices, stopServices, type ClusterState } from '../../scripts/cluster.js';
import { conform } from '../../conformance/test/support/run.js';

// The cluster a team starts (npm run cluster): three replicas on one PostgreSQL behind nginx. The
// whole catalogue passes through the balancer under the reference judgement, a limit holds
// exactly across the replicas, a rolling restart drains each replica while the others serve, and
// a replica killed mid-write loses nothing it acknowledged.

let cluster: ClusterState;
let keys: { agent: string; signup: string };

beforeAll(async () => {
  cluster = await startServices({ dir: join(tmpdir(), `vault-cluster-${randomBytes(6).toString('hex')}`), replicas: 3, manualClock: true });
  keys = (JSON.parse(readFileSync(join(cluster.env.VAULT_DATA_DIR!, 'local.json'), 'utf8')) as { keys: typeof keys }).keys;
}, 180_000);
afterAll(async () => {
  if (cluster) await stopServices(cluster.dir);
}, 120_000);

async function sql(text: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** A write no limit caps: a new account, through the fixture surface. */
const write = (i: number) =>
  fetch(`${cluster.balancer}/_fixtures/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${cluster.env.VAULT_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'Free', name: `written ${i}` }),
  });

describe('three replicas behind nginx on one PostgreSQL database', () => {
  it('when the whole catalogue runs through the balancer, then every case passes under the reference judgement and the contract is covered', async () => {
    const run = await conform(['--jobs', '4', '--seed', '1'], { VAULT_DATA_DIR: cluster.env.VAULT_DATA_DIR! });
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.notRun, run.output).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.coverage.filter((row) => !row.exercised && !row.ineligible)).toEqual([]);
  }, 900_000);

  it('when catalog reads race through the balancer, then exactly the per-key limit is answered', async () => {
    // The next minute's window, on the replicas' shared clock.
    const moved = await fetch(`${cluster.balancer}/_fixtures/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cluster.env.VAULT_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 60_000 }),
    });
    expect(moved.status).toBe(200);
    const statuses = await Promise.all(
      Array.from({ length: 400 }, async () => {
        const res = await fetch(`${cluster.balancer}/v1/tokens`, { headers: { authorization: `Bearer ${keys.agent}` } });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
  }, 120_000);

  it('when the replicas are replaced one at a time under load, then every request is answered, none refused by the restart', async () => {
    let stop = false;
    const answers: number[] = [];
    const failures: string[] = [];
    // A kept-alive connection the draining replica closes while idle may cross a request the client
    // sends on it; no answer was begun, and an HTTP client sends such an idempotent request again
    // (RFC 9112 section 9.3.1), once. Anything else is a failure.
    const read = async () => {
      const res = await fetch(`${cluster.balancer}/v1/tokens`, { headers: { authorization: `Bearer ${keys.agent}` } });
      await res.arrayBuffer();
      return res.status;
    };
    const client = async () => {
      while (!stop) {
        try {
          answers.push(await read().catch((e: Error) => (/other side closed/.test(String(e.cause)) ? read() : Promise.reject(e))));
        } catch (e) {
          failures.push(String((e as Error).cause ?? e));
        }
      }
    };
    const clients = Array.from({ length: 6 }, client);
    for (let i = 0; i < cluster.replicas.length; i++) await replaceReplica(cluster, i);
    stop = true;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(answers.length).toBeGreaterThan(100);
    // The catalog read is counted: past the per-key limit of the minute it is 429, which is an answer too.
    expect(answers.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  }, 300_000);

  it('when a replica is killed with SIGKILL under a write load, then every acknowledged write is stored and the others go on serving', async () => {
    const before = new Set((await sql('SELECT id FROM accounts')).map((r) => r.id as string));
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    const worker = async () => {
      while (!stop) {
        try {
          const res = await write(n++);
          const body = (await res.json()) as { accountId?: string };
          if (res.status === 201 && body.accountId) acknowledged.push(body.accountId);
        } catch {
          // A connection to the killed replica breaks: its request was not acknowledged.
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    for (const until = Date.now() + 30_000; acknowledged.length < 40 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    process.kill(cluster.replicas[0]!.pid, 'SIGKILL');
    const killedAt = acknowledged.length;
    for (const until = Date.now() + 30_000; acknowledged.length < killedAt + 20 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    stop = true;
    await Promise.all(workers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(killedAt + 20);
    const stored = new Set((await sql('SELECT id FROM accounts')).map((r) => r.id as string));
    expect(acknowledged.filter((id) => !stored.has(id) || before.has(id))).toEqual([]);
  }, 180_000);
});
