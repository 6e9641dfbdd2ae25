import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { spawnServer, runFailingServer, type ServerProcess, type SpawnOptions } from './process.js';
import { openDb } from '../store/db.js';

const started: ServerProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop('SIGKILL')));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'vault-test-'));
  dirs.push(d);
  return d;
}

async function start(env: Record<string, string>, args: string[] = ['--demo'], options: SpawnOptions = {}) {
  const s = await spawnServer(env, args, options);
  started.push(s);
  return s;
}

/** Every file of a directory with its mode and bytes, to show that a failed start changed nothing. */
function snapshot(dir: string) {
  return readdirSync(dir)
    .sort()
    .map((name) => ({ name, mode: statSync(join(dir, name)).mode, bytes: readFileSync(join(dir, name)).toString('base64') }));
}

const mode = (path: string) => statSync(path).mode & 0o777;

/** A data directory with a database that holds the demo account, written and cleanly stopped. */
async function writtenDataDir(): Promise<string> {
  const dir = dataDir();
  const s = await start({ VAULT_DATA_DIR: dir });
  await s.stop();
  expect(existsSync(join(dir, 'vault.db-wal'))).toBe(false);
  return dir;
}

/** Eight clients send `request` in a loop for 1.5 s; then the server is killed with SIGKILL, and each client stops at its first failure. */
/**
 * Loads the server until `enough` holds (a count of acknowledged requests, so that a busy machine
 * only makes the load last longer), then kills it while the load goes on.
 */
async function loadThenKill(server: Awaited<ReturnType<typeof start>>, request: () => Promise<void>, enough: () => boolean): Promise<void> {
  let stop = false;
  const worker = async () => {
    while (!stop) {
      try {
        await request();
      } catch {
        return;
      }
    }
  };
  const workers = Array.from({ length: 8 }, worker);
  for (const until = Date.now() + 60_000; !enough() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
  server.child.kill('SIGKILL');
  stop = true;
  await Promise.all(workers);
  await server.stop();
}

function localConfig(dir: string) {
  return JSON.parse(readFileSync(join(dir, 'local.json'), 'utf8')) as { keys: { agent: string; signup: string }; accountId: string; adminToken: string };
}

describe('server process', () => {
  it('when started with --demo, then it serves the demo account and keeps its data across restarts', async () => {
    const dir = dataDir();
    const first = await start({ VAULT_DATA_DIR: dir });
    const { keys } = localConfig(dir);
    const before = await (await fetch(`${first.base}/v1/tokens`, { headers: { authorization: `Bearer ${keys.agent}` } })).json();
    expect(before.logins.length).toBeGreaterThan(0);
    expect(statSync(join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'vault.db')).includes(Buffer.from('4111111111111111'))).toBe(false);
    await first.stop();
    const second = await start({ VAULT_DATA_DIR: dir });
    expect(localConfig(dir).keys).toEqual(keys);
    const after = await (await fetch(`${second.base}/v1/tokens`, { headers: { authorization: `Bearer ${keys.agent}` } })).json();
    expect(after).toEqual(before);
  });

  it('when requests are served, then each has one JSON line on stdout, without the key, all written by the time the process stops', async () => {
    const dir = dataDir();
    const server = await start({ VAULT_DATA_DIR: dir });
    const { keys } = localConfig(dir);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${server.base}/v1/tokens`, { headers: { authorization: `Bearer ${i % 2 ? keys.agent : 'wrong'}` } }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    await server.stop('SIGTERM');
    // The start-up banner prints the demo keys on purpose; the request log lines never do.
    const logLines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.join('\n')).not.toContain(keys.agent);
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.operation === 'getTokenCatalog');
    expect(lines).toHaveLength(20);
    expect(lines.filter((l) => l.status === 200 && typeof l.key === 'string')).toHaveLength(10);
    expect(lines.filter((l) => l.status === 401 && l.key === undefined)).toHaveLength(10);
  });

  it('when started with --reset, then it starts over with a new demo account', async () => {
    const dir = dataDir();
    const first = await start({ VAULT_DATA_DIR: dir });
    const { accountId } = localConfig(dir);
    await first.stop();
    await start({ VAULT_DATA_DIR: dir }, ['--demo', '--reset']);
    expect(localConfig(dir).accountId).not.toBe(accountId);
  });

  it('when killed with SIGKILL under a write load, then no acknowledged write is lost and the next start opens cleanly', async () => {
    const dir = dataDir();
    // A manual clock pins every request into one fixed window, so the counter must equal the acknowledged requests.
    const env = { VAULT_DATA_DIR: dir, VAULT_CLOCK: 'manual:2026-01-05T12:00:10Z', VAULT_LIMITS: 'catalog-per-key=1000000,catalog-per-account=1000000' };
    const server = await start(env);
    const { keys } = localConfig(dir);
    let acknowledged = 0;
    await loadThenKill(server, async () => {
      const res = await fetch(`${server.base}/v1/tokens`, { headers: { authorization: `Bearer ${keys.agent}` } });
      await res.arrayBuffer();
      if (res.status === 200) acknowledged++;
    }, () => acknowledged > 50);
    expect(acknowledged).toBeGreaterThan(50);

    const db = openDb(join(dir, 'vault.db'));
    expect(db.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    const counted = db.sqlite.prepare("SELECT SUM(count) AS n FROM counters WHERE limit_id = 'catalog-per-key'").get() as { n: number };
    await db.close();
    // Each acknowledged request committed its counter before answering; a request in flight may also have committed.
    expect(counted.n).toBeGreaterThanOrEqual(acknowledged);
    expect(counted.n).toBeLessThanOrEqual(acknowledged + 8);
    const again = await start(env);
    expect((await fetch(`${again.base}/v1/tokens`, { headers: { authorization: `Bearer ${keys.agent}` } })).status).toBe(200);
  });

  it('when two processes share the database file, then the per-key limit holds across both', async () => {
    const dir = dataDir();
    const env = { VAULT_DATA_DIR: dir, VAULT_CLOCK: 'manual:2026-01-05T12:00:10Z' };
    const a = await start(env);
    const b = await start(env);
    const { keys } = localConfig(dir);
    // The demo account is on Plus: 300 catalog requests per key per minute.
    const statuses = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).base}/v1/tokens`, { headers: { authorization: `Bearer ${keys.agent}` } }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
  });

  it('when filings arrive at two processes at once, then exactly the pending ceiling is filed across both and the rest are refused', async () => {
    const dir = dataDir();
    const env = { VAULT_DATA_DIR: dir, VAULT_CLOCK: 'manual:2026-01-05T12:00:10Z', VAULT_LIMITS: 'pending-signup-requests=5,login-writes-per-key=1000' };
    const a = await start(env);
    const b = await start(env);
    const { keys, accountId, adminToken } = localConfig(dir);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).base}/v1/logins/requests`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keys.signup}`, 'content-type': 'application/json' },
          body: JSON.stringify({ website: 'shared-commit.example', email: `agent${i}@example.com` }),
        }).then(async (r) => `${r.status} ${((await r.json()) as { code?: string }).code ?? ''}`.trim()),
      ),
    );
    expect(answers.filter((s) => s === '202')).toHaveLength(5);
    expect(answers.filter((s) => s === '429 too_many_pending')).toHaveLength(25);
    const db = new Database(join(dir, 'vault.db'), { readonly: true });
    const pending = db.prepare("SELECT COUNT(*) FROM signup_requests WHERE account_id = ? AND status = 'pending'").pluck().get(accountId);
    db.close();
    expect(pending).toBe(5);
    // Each filed request has its link, and either process reads every one of them.
    for (const server of [a, b]) {
      const listed = await fetch(`${server.base}/_fixtures/accounts/${accountId}/links`, { headers: { authorization: `Bearer ${adminToken}` } });
      const links = ((await listed.json()) as { links: { kind: string; status: string; token: string }[] }).links.filter((l) => l.kind === 'signup');
      expect(links.map((l) => l.status)).toEqual(Array(5).fill('pending'));
      for (const link of links) expect((await fetch(`${server.base}/v1/signup-requests/${link.token}`)).status).toBe(200);
    }
  });

  it('when killed with SIGKILL under a filing load, then every acknowledged filing is stored', async () => {
    const dir = dataDir();
    const env = { VAULT_DATA_DIR: dir, VAULT_CLOCK: 'manual:2026-01-05T12:00:10Z', VAULT_LIMITS: 'pending-signup-requests=1000000,login-writes-per-key=1000000' };
    const server = await start(env);
    const { keys } = localConfig(dir);
    const acknowledged: string[] = [];
    await loadThenKill(server, async () => {
      const res = await fetch(`${server.base}/v1/logins/requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.signup}`, 'content-type': 'application/json' },
        body: JSON.stringify({ website: 'shared-commit.example', email: 'agent@example.com' }),
      });
      const body = (await res.json()) as { requestId?: string };
      if (res.status === 202 && body.requestId) acknowledged.push(body.requestId);
    }, () => acknowledged.length > 20);
    expect(acknowledged.length).toBeGreaterThan(20);
    const db = openDb(join(dir, 'vault.db'));
    expect(db.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    const stored = new Set(db.sqlite.prepare('SELECT id FROM signup_requests').pluck().all() as string[]);
    await db.close();
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });

  it('when one process changes account data, then the catalog of the other shows it on its next fetch', async () => {
    const dir = dataDir();
    const env = { VAULT_DATA_DIR: dir, VAULT_CLOCK: 'manual:2026-01-05T12:00:10Z' };
    const a = await start(env);
    const b = await start(env);
    const { keys, accountId, adminToken } = localConfig(dir);
    const catalogOf = async (base: string) =>
      (await (await fetch(`${base}/v1/tokens`, { headers: { authorization: `Bearer ${keys.agent}` } })).json()) as { logins: { label: string }[] };
    const before = (await catalogOf(b.base)).logins.map((l) => l.label);
    expect(before.length).toBeGreaterThan(0);
    const removed = await fetch(`${a.base}/_fixtures/accounts/${accountId}/logins/${before[0]}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(removed.status).toBe(204);
    expect((await catalogOf(b.base)).logins.map((l) => l.label)).toEqual(before.slice(1));
  });
});

describe('start-up errors', () => {
  it('when the port is in use, then one line and a non-zero exit', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, output } = await runFailingServer({ VAULT_DATA_DIR: dataDir(), PORT: String(port) });
      expect(code).not.toBe(0);
      expect(output.trim().split('\n')).toEqual([`credential-vault: port ${port} on 127.0.0.1 is in use; set PORT to another port`]);
    } finally {
      blocker.close();
    }
  });

  it('when VAULT_COUNT_REFUSED_REQUESTS is neither 0 nor 1, then one line and a non-zero exit', async () => {
    const { code, output } = await runFailingServer({ VAULT_DATA_DIR: dataDir(), VAULT_COUNT_REFUSED_REQUESTS: 'yes' });
    expect(code).not.toBe(0);
    expect(output.trim().split('\n')).toEqual(['credential-vault: VAULT_COUNT_REFUSED_REQUESTS must be "0" or "1", got "yes"']);
  });

  it('when --reset is given with a PostgreSQL URL, then one line, a non-zero exit and the data directory unchanged', async () => {
    const dir = await writtenDataDir();
    const before = snapshot(dir);
    const { code, output } = await runFailingServer({ VAULT_DATA_DIR: dir, VAULT_DATABASE_URL: 'postgres://127.0.0.1:1/vault' }, ['--demo', '--reset']);
    expect(code).not.toBe(0);
    expect(output.trim().split('\n')).toEqual(['credential-vault: --reset starts the embedded store afresh; on PostgreSQL, drop and create the database instead (docs/postgres.md)']);
    expect(snapshot(dir)).toEqual(before);
  });

  it('when the database has a newer schema, then one line, a non-zero exit and the file unchanged', async () => {
    const dir = dataDir();
    const file = join(dir, 'vault.db');
    const raw = new Database(file);
    raw.pragma('user_version = 9999');
    raw.close();
    const before = readFileSync(file);
    const { code, output } = await runFailingServer({ VAULT_DATA_DIR: dir });
    expect(code).not.toBe(0);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/schema version 9999 is newer/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('when the database cannot be opened, then one line and a non-zero exit', async () => {
    const dir = dataDir();
    const file = join(dir, 'vault.db');
    writeFileSync(file, 'this is not a database file, just text that is long enough to have a header');
    const { code, output } = await runFailingServer({ VAULT_DATA_DIR: dir });
    expect(code).not.toBe(0);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/cannot open the database/);
  });

  it('when the master key does not decrypt the data, then one line, a non-zero exit and no data changed', async () => {
    const dir = dataDir();
    const first = await start({ VAULT_DATA_DIR: dir });
    await first.stop();
    const file = join(dir, 'vault.db');
    const before = readFileSync(file);
    const { code, output } = await runFailingServer({ VAULT_DATA_DIR: dir, VAULT_MASTER_KEY: 'ab'.repeat(32) });
    expect(code).not.toBe(0);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/master key does not decrypt/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('when the port is in use, then nothing is created or changed in the data directory', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = String((blocker.address() as { port: number }).port);
    try {
      const written = await writtenDataDir();
      const before = snapshot(written);
      expect((await runFailingServer({ VAULT_DATA_DIR: written, PORT: port })).code).not.toBe(0);
      expect(snapshot(written)).toEqual(before);
      const fresh = join(dataDir(), 'not-yet');
      expect((await runFailingServer({ VAULT_DATA_DIR: fresh, PORT: port }, ['--demo', '--reset'])).code).not.toBe(0);
      expect(existsSync(fresh)).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('when the key file is missing but the database holds data, then one line says so and nothing is created or changed', async () => {
    const dir = await writtenDataDir();
    rmSync(join(dir, 'master.key'));
    const before = snapshot(dir);
    const { code, output } = await runFailingServer({ VAULT_DATA_DIR: dir });
    expect(code).not.toBe(0);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/master key is missing: .*master\.key does not exist and VAULT_MASTER_KEY is not set/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('when the database file is read-only, then one line and a non-zero exit, and the file unchanged', async () => {
    const dir = await writtenDataDir();
    chmodSync(join(dir, 'vault.db'), 0o400);
    const before = readFileSync(join(dir, 'vault.db'));
    const { code, output } = await runFailingServer({ VAULT_DATA_DIR: dir }, [], { boundByPermissions: true });
    expect(code).not.toBe(0);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/the database .*vault\.db cannot be written/);
    expect(readFileSync(join(dir, 'vault.db')).equals(before)).toBe(true);
  });

  it('when the data directory cannot be made, then one line and a non-zero exit, no stack trace', async () => {
    const { code, output } = await runFailingServer({ VAULT_DATA_DIR: '/dev/null/x' });
    expect(code).not.toBe(0);
    expect(output.trim().split('\n')).toEqual([expect.stringMatching(/^credential-vault: cannot create the data directory \/dev\/null\/x: /)]);
  });

  it('when the data directory is read-only, then one line and a non-zero exit', async () => {
    const dir = await writtenDataDir();
    chmodSync(dir, 0o500);
    try {
      const { code, output } = await runFailingServer({ VAULT_DATA_DIR: dir }, [], { boundByPermissions: true });
      expect(code).not.toBe(0);
      expect(output.trim().split('\n')).toHaveLength(1);
      expect(output).toMatch(/vault\.db/);
    } finally {
      chmodSync(dir, 0o700);
    }
  });
});

describe('files at rest', () => {
  it('when the server starts under a permissive umask, then the data directory is 0700 and the database, its WAL files and the key 0600', async () => {
    const dir = join(dataDir(), 'data');
    await start({ VAULT_DATA_DIR: dir }, ['--demo'], { umask: '000' });
    expect(mode(dir)).toBe(0o700);
    for (const f of ['vault.db', 'vault.db-wal', 'vault.db-shm', 'master.key', 'local.json']) expect(mode(join(dir, f)), f).toBe(0o600);
  });
});
