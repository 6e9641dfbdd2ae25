// The bench's PostgreSQL section (docs/postgres.md): the reference server on SQLite and on
// PostgreSQL, in the same run, round by round: the catalog read, the recipe lookup and a filing,
// as server CPU per answer and p99; the catalog read on one replica against two on one database;
// and what invalidation across replicas costs: a read right after a write, on the replica that
// wrote and on the other, timed one at a time. Loopback only; the cluster is removed at the end.
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { startCluster } from '../postgres-cluster.js';
import { startBenchServer, treeCpuMicros, type Running } from './processes.js';

const LIMITS = ['catalog-per-key', 'catalog-per-account', 'login-writes-per-key', 'pending-signup-requests', 'credential-changes-per-account']
  .map((id) => `${id}=1000000000`)
  .join(',');
const LOOKUP = `/v1/recipes?url=${encodeURIComponent('https://www.acme.com/checkout/cart')}`;

export interface PostgresSettings {
  duration: number;
  rounds: number;
  reads: number;
}

type LoadId = 'catalog' | 'lookup' | 'filing';
const LOADS: LoadId[] = ['catalog', 'lookup', 'filing'];
type Store = 'sqlite' | 'postgres';

interface Sample {
  requests: number;
  cpuMicros: number;
  p99: number;
}

export interface PostgresMeasured {
  loads: Record<Store, Record<LoadId, Sample[]>>;
  /** The catalog read on one replica, and on two (the same load split between them). */
  replicas: { one: Sample[]; two: Sample[] };
  /** Milliseconds of a catalog read right after a login was added: on the replica that wrote it, and on the other. */
  afterWrite: { same: number[]; other: number[] };
}

function request(s: Running, id: LoadId) {
  const key = s.ready!.demo!.keys;
  if (id === 'catalog') return { url: `${s.base}/v1/tokens`, method: 'GET' as const, headers: { authorization: `Bearer ${key.agent}` } };
  if (id === 'lookup') return { url: `${s.base}${LOOKUP}`, method: 'GET' as const, headers: { authorization: `Bearer ${key.agent}` } };
  return {
    url: `${s.base}/v1/logins/requests`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${key.signup}`, 'content-type': 'application/json' },
    body: JSON.stringify({ website: 'bench-filing.example', email: 'agent@example.com' }),
  };
}

async function load(servers: Running[], id: LoadId, seconds: number, connections = 10): Promise<Sample> {
  const before = servers.map((s) => treeCpuMicros(s.pid));
  const results = await Promise.all(servers.map((s) => autocannon({ ...request(s, id), connections: Math.max(1, Math.round(connections / servers.length)), duration: seconds, timeout: 10 })));
  const cpuMicros = servers.reduce((sum, s, i) => sum + treeCpuMicros(s.pid) - before[i]!, 0);
  for (const r of results) if (r.non2xx > 0 || r.errors > 0) throw new Error(`${id}: ${r.non2xx} non-2xx answers and ${r.errors} errors`);
  return { requests: results.reduce((n, r) => n + r.requests.total, 0), cpuMicros, p99: Math.max(...results.map((r) => r.latency.p99)) };
}

async function timedRead(s: Running): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${s.base}/v1/tokens`, { headers: { authorization: `Bearer ${s.ready!.demo!.keys.agent}` } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`catalog read after a write: ${res.status}`);
  return performance.now() - start;
}

export async function runPostgres(work: string, settings: PostgresSettings, started: (s: Running) => void, log: (line: string) => void): Promise<PostgresMeasured> {
  // Beside the run's directory, not in it: PostgreSQL runs as its own user, who cannot enter it.
  const cluster = await startCluster(join(dirname(work), `vault-bench-pg-${randomBytes(4).toString('hex')}`));
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query("CREATE DATABASE bench TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = '/bench';
    const adminToken = `adm_${randomBytes(18).toString('base64url')}`;
    const masterKey = randomBytes(32).toString('hex');
    const common = { VAULT_LIMITS: LIMITS, BENCH_VALIDATE_RESPONSES: '1', BENCH_ADMIN_TOKEN: adminToken, BENCH_MASTER_KEY: masterKey };
    const sqlite = await startBenchServer('reference on SQLite', 'reference', common);
    started(sqlite);
    const first = await startBenchServer('reference on PostgreSQL', 'reference', { ...common, BENCH_DATABASE_URL: url.toString() });
    started(first);
    const second = await startBenchServer('reference on PostgreSQL, second replica', 'reference', {
      ...common,
      BENCH_DATABASE_URL: url.toString(),
      BENCH_DEMO: JSON.stringify(first.ready!.demo),
    });
    started(second);
    const on: Record<Store, Running> = { sqlite, postgres: first };
    const measured: PostgresMeasured = {
      loads: { sqlite: { catalog: [], lookup: [], filing: [] }, postgres: { catalog: [], lookup: [], filing: [] } },
      replicas: { one: [], two: [] },
      afterWrite: { same: [], other: [] },
    };
    for (const s of [sqlite, first, second]) await load([s], 'catalog', 1);
    for (let round = 0; round < settings.rounds; round++) {
      // Stores alternate, so drift on a busy machine touches both alike.
      const order: Store[] = round % 2 ? ['postgres', 'sqlite'] : ['sqlite', 'postgres'];
      for (const id of LOADS) for (const store of order) measured.loads[store][id].push(await load([on[store]], id, settings.duration));
      const replicaOrder = round % 2 ? (['two', 'one'] as const) : (['one', 'two'] as const);
      for (const n of replicaOrder) measured.replicas[n].push(await load(n === 'one' ? [first] : [first, second], 'catalog', settings.duration));
      log(`postgres: round ${round + 1}/${settings.rounds} done`);
    }
    // A login added through one replica's back office, then the catalog read on it or on the other.
    const accountId = first.ready!.demo!.accountId;
    for (let i = 0; i < settings.reads; i++) {
      for (const where of i % 2 ? (['other', 'same'] as const) : (['same', 'other'] as const)) {
        const added = await fetch(`${first.base}/_fixtures/accounts/${accountId}/logins`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ website: `after-write-${i}-${where}.example`, password: 'bench-password-after-write' }),
        });
        if (added.status !== 201) throw new Error(`adding a login: ${added.status}`);
        measured.afterWrite[where].push(await timedRead(where === 'same' ? first : second));
      }
    }
    for (const s of [sqlite, first, second]) await s.stop();
    return measured;
  } finally {
    cluster.stop();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)]!;
};
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const cpuPer = (samples: Sample[]) => median(samples.map((s) => s.cpuMicros / Math.max(1, s.requests)));
const rate = (samples: Sample[], seconds: number) => median(samples.map((s) => s.requests / seconds));
const p99 = (samples: Sample[]) => median(samples.map((s) => s.p99));

export function formatPostgres(m: PostgresMeasured, settings: PostgresSettings): string[] {
  const lines = [
    '## PostgreSQL',
    '',
    `The reference server on SQLite and on PostgreSQL (one database on 127.0.0.1), in the same run, ${settings.rounds} rounds of ${settings.duration} s per load, stores alternating; medians of the rounds. CPU is the server process's, per answer; the database's own is not counted.`,
    '',
    '| load | SQLite CPU µs/answer | PostgreSQL CPU µs/answer | PostgreSQL / SQLite | SQLite p99 ms | PostgreSQL p99 ms |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const id of LOADS) {
    const s = m.loads.sqlite[id];
    const p = m.loads.postgres[id];
    lines.push(`| ${id} | ${cpuPer(s).toFixed(0)} | ${cpuPer(p).toFixed(0)} | ${(cpuPer(p) / cpuPer(s)).toFixed(2)}x | ${p99(s)} | ${p99(p)} |`);
  }
  const one = m.replicas.one;
  const two = m.replicas.two;
  lines.push(
    '',
    'The catalog read on one replica, and on two replicas of one database with the same load split between them (both replicas share this machine, so two show what a second replica costs here, not what it adds on a machine of its own):',
    '',
    '| replicas | req/s | CPU µs/answer (all replicas) | p99 ms |',
    '| --- | --- | --- | --- |',
    `| one | ${rate(one, settings.duration).toFixed(0)} | ${cpuPer(one).toFixed(0)} | ${p99(one)} |`,
    `| two | ${rate(two, settings.duration).toFixed(0)} | ${cpuPer(two).toFixed(0)} | ${p99(two)} |`,
    `| two / one | ${(rate(two, settings.duration) / rate(one, settings.duration)).toFixed(2)}x | ${(cpuPer(two) / cpuPer(one)).toFixed(2)}x | |`,
    '',
    `Invalidation across replicas: each request reads the versions of the scopes its kept answers depend on (docs/postgres.md). A catalog read right after a login was added through one replica, timed one at a time (${m.afterWrite.same.length} each):`,
    '',
    '| read on | median ms | p99 ms |',
    '| --- | --- | --- |',
    `| the replica that wrote | ${median(m.afterWrite.same).toFixed(2)} | ${quantile(m.afterWrite.same, 0.99).toFixed(2)} |`,
    `| the other replica | ${median(m.afterWrite.other).toFixed(2)} | ${quantile(m.afterWrite.other, 0.99).toFixed(2)} |`,
    `| other / same | ${(median(m.afterWrite.other) / median(m.afterWrite.same)).toFixed(2)}x | |`,
  );
  return lines;
}
