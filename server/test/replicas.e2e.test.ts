import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createServer as createHttp } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawnServer, type ServerProcess } from './process.js';
import { createTestDatabase } from './postgres.js';
import type { TestServer } from './support.js';
import { ADMIN as ADMIN_TOKEN, decide, fileOk, links, poll, signupToken } from './signup-support.js';

// Every count and every once-only thing of the specification, raced across two server processes
// on one PostgreSQL database, as replicas behind a load balancer share it: each holds exactly as
// on one process. A few limits are set lower (VAULT_LIMITS) so a race needs few requests; the code
// that counts them is the same.

const started: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Replicas {
  servers: [ServerProcess, ServerProcess];
  accountId: string;
  keys: { agent: string; signup: string };
  adminToken: string;
  url: string;
  /** A test server stand-in that sends request `i` to replica i % 2, for the signup helpers. */
  via(i: number): TestServer;
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
}

/** Two replicas on a new database with the demo account, at a fixed manual time. */
async function replicas(limits = ''): Promise<Replicas> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const dir = mkdtempSync(join(tmpdir(), 'vault-replicas-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    VAULT_DATA_DIR: dir,
    VAULT_DATABASE_URL: database.url,
    VAULT_MASTER_KEY: randomBytes(32).toString('hex'),
    VAULT_CLOCK: 'manual:2026-01-05T12:00:10Z',
    // The fixture surface's token the signup helpers send.
    VAULT_ADMIN_TOKEN: ADMIN_TOKEN,
    ...(limits ? { VAULT_LIMITS: limits } : {}),
  };
  // The first seeds the demo account; the second finds it in the data directory's settings.
  const a = await spawnServer(env, ['--demo']);
  started.push(a);
  const b = await spawnServer(env, ['--demo']);
  started.push(b);
  const local = JSON.parse(readFileSync(join(dir, 'local.json'), 'utf8')) as { accountId: string; keys: { agent: string; signup: string }; adminToken: string };
  const servers: [ServerProcess, ServerProcess] = [a, b];
  const call = (base: string): TestServer['call'] => async (path, init = {}) => {
    const { key, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
    if (json !== undefined) headers.set('content-type', 'application/json');
    return fetch(`${base}${path}`, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
  };
  return {
    servers,
    ...local,
    url: database.url,
    via: (i) => ({ base: servers[i % 2]!.base, call: call(servers[i % 2]!.base) }) as TestServer,
    async sql<T>(text: string, values: unknown[] = []) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return (await client.query(text, values)).rows as T[];
      } finally {
        await client.end();
      }
    },
  };
}

const ADMIN = (r: Replicas) => ({ authorization: `Bearer ${r.adminToken}`, 'content-type': 'application/json' });

/** Answers of `n` requests sent at once, request i to replica i % 2, as "status code". */
async function race(r: Replicas, n: number, request: (base: string, i: number) => Promise<Response>): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await request(r.servers[i % 2]!.base, i);
      const text = await res.text();
      let code = '';
      try {
        code = (JSON.parse(text) as { code?: string }).code ?? '';
      } catch {
        // A page or an empty body: the status says enough.
      }
      return `${res.status} ${code}`.trim();
    }),
  );
}

const count = (answers: string[], answer: string) => answers.filter((a) => a === answer).length;

/** A login the signup key created, through a request the account holder approved. */
async function agentLogin(r: Replicas, website: string): Promise<string> {
  const t = r.via(0);
  const filed = await fileOk(t, r.keys.signup, { website, email: 'agent@example.com' });
  expect((await decide(t, await signupToken(t, r.accountId, filed.requestId), 'approve')).status).toBe(200);
  return (await poll(t, r.keys.signup, filed.requestId)).body.login.label as string;
}

describe('limits across two replicas on one PostgreSQL database', () => {
  it('when catalog reads race on both replicas, then exactly the per-key limit is answered and a refused read counts nothing', async () => {
    const r = await replicas();
    // The demo account is on Plus: 300 catalog reads per key per minute.
    const answers = await race(r, 400, (base) => fetch(`${base}/v1/tokens`, { headers: { authorization: `Bearer ${r.keys.agent}` } }));
    expect(count(answers, '200')).toBe(300);
    expect(count(answers, '429 rate_limited')).toBe(100);
    const counted = await r.sql<{ count: number }>("SELECT count::int FROM counters WHERE limit_id = 'catalog-per-key'");
    expect(counted.map((c) => c.count)).toEqual([300]);
  });

  it('when filings race on both replicas, then exactly the pending ceiling is filed', async () => {
    const r = await replicas('login-writes-per-key=1000');
    const answers = await race(r, 30, (base, i) =>
      fetch(`${base}/v1/logins/requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.keys.signup}`, 'content-type': 'application/json' },
        body: JSON.stringify({ website: `race${i}.example`, email: `agent${i}@example.com` }),
      }),
    );
    expect(count(answers, '202')).toBe(5);
    expect(count(answers, '429 too_many_pending')).toBe(25);
    expect(await r.sql("SELECT id FROM signup_requests WHERE status = 'pending'")).toHaveLength(5);
  });

  it('when recipe submissions race on both replicas, then exactly the submission budget is accepted and the refused ones record nothing', async () => {
    const r = await replicas('recipe-submissions-per-account=7');
    const answers = await race(r, 20, (base, i) =>
      fetch(`${base}/v1/recipes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.keys.agent}`, 'content-type': 'application/json' },
        body: JSON.stringify({ key: `race${i}.example`, kind: 'merchant', status: 'partial' }),
      }),
    );
    expect(count(answers, '202')).toBe(7);
    expect(count(answers, '429 rate_limited')).toBe(13);
    expect(await r.sql('SELECT id FROM recipe_submissions')).toHaveLength(7);
  });

  it('when username sets race on both replicas, then exactly the credential-change budget is spent', async () => {
    // Six approvals spend six of the eight changes; the six username sets race for the other two.
    const r = await replicas('login-writes-per-key=1000,pending-signup-requests=100,credential-changes-per-account=8');
    const labels: string[] = [];
    for (let i = 0; i < 6; i++) labels.push(await agentLogin(r, `budget${i}.example`));
    const answers = await race(r, 6, (base, i) =>
      fetch(`${base}/v1/logins/username`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.keys.signup}`, 'content-type': 'application/json' },
        body: JSON.stringify({ label: labels[i], username: `user${i}` }),
      }),
    );
    expect(count(answers, '200')).toBe(2);
    expect(count(answers, '429 daily_limit')).toBe(4);
    expect(await r.sql('SELECT id FROM logins WHERE created_by_key IS NOT NULL AND username IS NOT NULL')).toHaveLength(2);
  });

  it('when a username is set for one login on both replicas at once, then one is recorded and the other is refused', async () => {
    const r = await replicas('login-writes-per-key=1000');
    const label = await agentLogin(r, 'once.example');
    const answers = await race(r, 2, (base, i) =>
      fetch(`${base}/v1/logins/username`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.keys.signup}`, 'content-type': 'application/json' },
        body: JSON.stringify({ label, username: `user${i}` }),
      }),
    );
    expect(answers.sort()).toEqual(['200', '409 username_already_set']);
  });

  it('when approvals race for the last login the account may hold, then exactly one login is created', async () => {
    // The demo account holds three logins; the limit is set to four.
    const r = await replicas('login-writes-per-key=1000,pending-signup-requests=100,logins-per-account=4');
    const holds = (await r.sql<{ n: number }>('SELECT COUNT(*)::int AS n FROM logins'))[0]!.n;
    expect(holds).toBe(3);
    const t = r.via(0);
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) {
      const filed = await fileOk(t, r.keys.signup, { website: `last${i}.example`, email: 'agent@example.com' });
      tokens.push(await signupToken(t, r.accountId, filed.requestId));
    }
    const answers = await race(r, 6, (base, i) => fetch(`${base}/v1/signup-requests/${tokens[i]}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'approve' }) }));
    expect(count(answers, '200')).toBe(6);
    expect((await r.sql<{ n: number }>('SELECT COUNT(*)::int AS n FROM logins'))[0]!.n).toBe(holds + 1);
    expect(await r.sql("SELECT id FROM signup_requests WHERE status = 'approved'")).toHaveLength(1);
  });

  it("when approvals race for a scoped key's last addition, then exactly one login joins its list", async () => {
    const r = await replicas('login-writes-per-key=1000,pending-signup-requests=100,scoped-key-login-list=1');
    const created = await fetch(`${r.servers[0].base}/_fixtures/accounts/${r.accountId}/keys`, {
      method: 'POST',
      headers: ADMIN(r),
      body: JSON.stringify({ name: 'scoped', signup: true, scope: [] }),
    });
    expect(created.status).toBe(201);
    const scoped = ((await created.json()) as { key: string }).key;
    const t = r.via(0);
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) {
      const filed = await fileOk(t, scoped, { website: `scoped${i}.example`, email: 'agent@example.com' });
      tokens.push(await signupToken(t, r.accountId, filed.requestId));
    }
    await race(r, 4, (base, i) => fetch(`${base}/v1/signup-requests/${tokens[i]}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'approve' }) }));
    expect(await r.sql('SELECT kl.login_id FROM key_logins kl JOIN api_keys k ON k.id = kl.key_id WHERE k.scoped = 1')).toHaveLength(1);
  });
});

describe('once-only things across two replicas', () => {
  it('when one purchase approval is decided on both replicas at once, then one decision stands and the other link is gone', async () => {
    const r = await replicas();
    const held = await fetch(`${r.servers[0].base}/_fixtures/accounts/${r.accountId}/purchase-approvals`, { method: 'POST', headers: ADMIN(r), body: '{}' });
    expect(held.status).toBe(201);
    const { token } = (await held.json()) as { token: string };
    const answers = await race(r, 2, (base) => fetch(`${base}/v1/approvals/${token}/decide`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'approve' }) }));
    expect(answers.sort()).toEqual(['200', '404 not_found']);
  });

  it('when one security-code prompt is opened on both replicas at once, then it opens once', async () => {
    const r = await replicas();
    const made = await fetch(`${r.servers[0].base}/_fixtures/accounts/${r.accountId}/cvv-requests`, { method: 'POST', headers: ADMIN(r), body: '{}' });
    expect(made.status).toBe(201);
    const { token } = (await made.json()) as { token: string };
    const answers = await race(r, 4, (base) => fetch(`${base}/v1/cvv-requests/${token}`));
    expect(answers.sort()).toEqual(['200', '404 not_found', '404 not_found', '404 not_found']);
  });

  it('when one signup link is approved on both replicas at once, then one login is created', async () => {
    const r = await replicas('login-writes-per-key=1000');
    const t = r.via(0);
    const filed = await fileOk(t, r.keys.signup, { website: 'twice.example', email: 'agent@example.com' });
    const token = await signupToken(t, r.accountId, filed.requestId);
    const before = (await r.sql<{ n: number }>('SELECT COUNT(*)::int AS n FROM logins'))[0]!.n;
    const answers = await race(r, 2, (base) => fetch(`${base}/v1/signup-requests/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'approve' }) }));
    expect(answers.sort()).toEqual(['200', '404 not_found']);
    expect((await r.sql<{ n: number }>('SELECT COUNT(*)::int AS n FROM logins'))[0]!.n).toBe(before + 1);
    expect((await links(t, r.accountId)).find((l) => l.requestId === filed.requestId)?.status).toBe('approved');
  });
});

describe('kept answers across two replicas', () => {
  it('when one replica changes account data, then the next catalog read on the other shows it', async () => {
    const r = await replicas();
    const catalogOf = async (base: string) =>
      ((await (await fetch(`${base}/v1/tokens`, { headers: { authorization: `Bearer ${r.keys.agent}` } })).json()) as { logins: { label: string }[] }).logins.map((l) => l.label);
    const before = await catalogOf(r.servers[1].base);
    expect(before.length).toBeGreaterThan(0);
    for (const label of before) {
      const removed = await fetch(`${r.servers[0].base}/_fixtures/accounts/${r.accountId}/logins/${label}`, { method: 'DELETE', headers: ADMIN(r) });
      expect(removed.status).toBe(204);
      expect(await catalogOf(r.servers[1].base)).toEqual(before.slice(before.indexOf(label) + 1));
    }
  });

  it('when a recipe is submitted on one replica, then the index of the other lists it', async () => {
    const r = await replicas();
    const index = async (base: string) => ((await (await fetch(`${base}/v1/recipes`)).json()) as { recipes: { key: string }[] }).recipes.map((x) => x.key);
    expect(await index(r.servers[1].base)).not.toContain('kept.example');
    const submitted = await fetch(`${r.servers[0].base}/v1/recipes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.keys.agent}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'kept.example', kind: 'merchant', status: 'partial' }),
    });
    expect(submitted.status).toBe(202);
    expect(await index(r.servers[1].base)).toContain('kept.example');
  });
});

describe('webhook test deliveries across two replicas', () => {
  it('when test deliveries are asked of both replicas at once, then each is sent once and its one attempt is listed on both', async () => {
    const r = await replicas();
    const arrived: string[] = [];
    const receiver = createHttp((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        arrived.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const admin = (base: string, method: string, path: string, json?: unknown) =>
      fetch(`${base}/_fixtures${path}`, { method, headers: ADMIN(r), ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
    const base = r.servers[0].base;
    const account = ((await (await admin(base, 'POST', '/accounts', { plan: 'Plus' })).json()) as { accountId: string }).accountId;
    const card = ((await (await admin(base, 'POST', `/accounts/${account}/cards`, { number: '5555555555554444', anySite: true, agent: true })).json()) as { cardId: string }).cardId;
    const hook = `/accounts/${account}/cards/${card}/webhook`;
    expect((await admin(base, 'PUT', hook, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` })).status).toBe(200);

    const answers = await race(r, 6, (b) => admin(b, 'POST', `${hook}/test`));
    expect(answers.filter((a) => !a.startsWith('2'))).toEqual([]);
    for (const until = Date.now() + 30_000; arrived.length < 6 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 50));
    // A moment more, in which a delivery sent twice would arrive twice.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(arrived).toHaveLength(6);
    expect(new Set(arrived).size).toBe(6);
    type Listed = { eventId: string; status: string; attempts: unknown[] };
    const listing = async (b: string) => ((await (await admin(b, 'GET', `${hook}/deliveries`)).json()) as { deliveries: Listed[] }).deliveries;
    // An attempt's outcome is recorded once its answer has been read whole, a moment after it arrived.
    for (const until = Date.now() + 30_000; (await listing(base)).some((d) => d.status === 'pending') && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const server of r.servers) {
      const listed = await listing(server.base);
      expect(listed.map((d) => d.eventId).sort()).toEqual([...arrived].sort());
      expect(listed.map((d) => `${d.status} ${d.attempts.length}`)).toEqual(Array(6).fill('delivered 1'));
    }
  });
});
