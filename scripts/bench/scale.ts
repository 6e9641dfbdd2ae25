// The bench's scale section: two reference servers, one on the demo data and the shipped release,
// one with an account at the sizes the specification allows and a release of 10,000 recipes. The
// same operations run on both, interleaved round by round, so the ratios between sizes come from
// one run. Loads are measured as server CPU per answer; reads right after a write are timed one at
// a time on a kept-alive connection.
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { defaultReleaseFile } from '../../server/domain/registry.js';
import { startBenchServer, treeCpuMicros, type Running } from './processes.js';
import { LARGE, WRITTEN_LOGIN, writeLargeRelease } from './scale-data.js';
import { LOADS, SEQUENCES, SIZES, type LoadId, type ScaleMeasured, type Size } from './scale-report.js';

// Limits stay on; only their values are raised, so that a load is never refused.
const LIMITS = [
  'catalog-per-key',
  'catalog-per-account',
  'login-writes-per-key',
  'credential-changes-per-account',
  'pending-signup-requests',
]
  .map((id) => `${id}=1000000000`)
  .join(',');
/** Starts of each size whose median is its start-up. */
const STARTS = 3;
const PAGE = `/v1/recipes?url=${encodeURIComponent('https://www.acme.com/checkout/cart')}`;

export interface ScaleSettings {
  duration: number;
  rounds: number;
  connections: number;
  /** Reads timed one at a time per sequence, size and round. */
  reads: number;
}

export async function runScale(work: string, settings: ScaleSettings, started: (s: Running) => void, log: (line: string) => void): Promise<ScaleMeasured> {
  const largeRelease = join(work, 'release-large.json');
  writeLargeRelease(defaultReleaseFile(), largeRelease);
  const servers = {} as Record<Size, Running>;
  const adminToken = `adm_${randomBytes(18).toString('base64url')}`;
  const start = (size: Size) =>
    startBenchServer(`reference, ${size}`, 'reference', {
      VAULT_LIMITS: LIMITS,
      BENCH_VALIDATE_RESPONSES: '1',
      BENCH_SCALE: size,
      BENCH_ADMIN_TOKEN: adminToken,
      ...(size === 'large' ? { BENCH_REGISTRY_FILE: largeRelease } : {}),
    });
  const startupMs: Record<Size, number[]> = { small: [], large: [] };
  // One at a time, so each start-up has the server core to itself. One start is one sample of a
  // busy machine: the servers measured are started first, then each size again, order alternating.
  for (const size of SIZES) {
    const s = await start(size);
    started(s);
    servers[size] = s;
    startupMs[size].push(s.ready!.startMs!);
  }
  for (let i = 1; i < STARTS; i++) {
    for (const size of i % 2 === 1 ? [...SIZES].reverse() : SIZES) {
      const s = await start(size);
      startupMs[size].push(s.ready!.startMs!);
      await s.stop();
    }
  }
  const measured: ScaleMeasured = {
    describe: {
      small: 'the demo account (2 cards, 4 logins, 1 address) and the shipped release (15 recipes)',
      large: `an account at ${LARGE.logins} logins, ${LARGE.cards} cards and ${LARGE.addresses} addresses, and a release of ${LARGE.recipes.toLocaleString('en')} recipes`,
    },
    startupMs,
    loads: { small: {}, large: {} },
    sequences: { small: emptySequences(), large: emptySequences() },
  };
  const plan: [Size, LoadId][] = SIZES.flatMap((size) => LOADS.filter((id) => id !== 'filing' || size === 'small').map((id) => [size, id] as [Size, LoadId]));
  for (const [size, id] of plan) await load(servers[size], id, 1, undefined);
  for (let round = 0; round < settings.rounds; round++) {
    const shift = round % plan.length;
    for (const [size, id] of [...plan.slice(shift), ...plan.slice(0, shift)]) {
      const rounds = (measured.loads[size][id] ??= []);
      rounds.push(await load(servers[size], id, settings.duration, settings.connections));
    }
    for (const size of round % 2 === 0 ? SIZES : [...SIZES].reverse()) await sequences(servers[size], adminToken, settings.reads, measured.sequences[size]);
    log(`scale round ${round + 1}/${settings.rounds} done`);
  }
  return measured;
}

function emptySequences() {
  return Object.fromEntries(SEQUENCES.map((id) => [id, [] as number[]])) as ScaleMeasured['sequences']['small'];
}

function requestOf(s: Running, id: LoadId): { path: string; method: string; headers: Record<string, string>; body?: string } {
  const keys = s.ready!.scale!;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  switch (id) {
    case 'lookup':
      return { path: PAGE, method: 'GET', headers: bearer(keys.agent) };
    case 'index':
      return { path: '/v1/recipes', method: 'GET', headers: bearer(keys.agent) };
    case 'catalog':
      return { path: '/v1/tokens', method: 'GET', headers: bearer(keys.agent) };
    case 'filing':
      return {
        path: '/v1/logins/requests',
        method: 'POST',
        headers: { ...bearer(keys.signup), 'content-type': 'application/json' },
        body: JSON.stringify({ website: 'acme.com', email: 'jane@example.com' }),
      };
  }
}

async function load(s: Running, id: LoadId, seconds: number, connections = 10): Promise<{ requests: number; cpuMicros: number }> {
  const r = requestOf(s, id);
  const before = treeCpuMicros(s.pid);
  const result = await autocannon({ url: `${s.base}${r.path}`, method: r.method as 'GET', headers: r.headers, body: r.body, connections, duration: seconds, timeout: 10 });
  const cpuMicros = treeCpuMicros(s.pid) - before;
  const refused = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2'));
  if (refused.length > 0 || result.errors > 0) {
    throw new Error(`${s.name}, ${id}: answers that were not 2xx (${refused.map(([c, st]) => `${st.count} x ${c}`).join(', ')}), ${result.errors} errors`);
  }
  return { requests: result.requests.total, cpuMicros };
}

/**
 * Reads timed one at a time: each after a read, after a password rotation in another account, after
 * one in its own, and after a login added to its own account or removed from it, in turn.
 */
async function sequences(s: Running, adminToken: string, reads: number, into: ScaleMeasured['sequences']['small']): Promise<void> {
  const keys = s.ready!.scale!;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const catalog = requestOf(s, 'catalog');
  const read = () => call(s.base, agent, 'GET', catalog.path, catalog.headers);
  const rotate = (key: string) =>
    call(s.base, agent, 'POST', '/v1/logins/password', { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, JSON.stringify({ label: WRITTEN_LOGIN }));
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const logins = `/_fixtures/accounts/${keys.accountId}/logins`;
  let added: string | undefined;
  const change = async () => {
    if (added === undefined) {
      const body = await call(s.base, agent, 'POST', logins, admin, JSON.stringify({ website: 'bench-toggle.com', password: 'bench toggled login password' }));
      added = (JSON.parse(body) as { label: string }).label;
    } else {
      await call(s.base, agent, 'DELETE', `${logins}/${encodeURIComponent(added)}`, admin);
      added = undefined;
    }
  };
  try {
    await read();
    for (let i = 0; i < reads; i++) {
      for (const id of SEQUENCES) {
        if (id === 'steady') await read();
        else if (id === 'after-own-change') await change();
        else await rotate(id === 'after-own-write' ? keys.signup : keys.otherSignup);
        const startedAt = performance.now();
        await read();
        into[id].push(performance.now() - startedAt);
      }
    }
  } finally {
    if (added !== undefined) await change();
    agent.destroy();
  }
}

/** A request on the kept-alive connection: its body's text (kept only for a write), or an error when it was not 2xx. */
function call(base: string, agent: Agent, method: string, path: string, headers: Record<string, string>, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      if (method === 'GET') res.resume();
      else res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        res.statusCode !== undefined && res.statusCode < 300 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${method} ${path} answered ${res.statusCode}`)),
      );
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}
