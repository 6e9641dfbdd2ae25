import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, type ServerProcess } from './process.js';
import { answers } from './raw.js';

/**
 * A stop on SIGTERM or SIGINT drains (the document's `shutdown-drain`): no new connection, idle
 * connections closed, every request received answered (writes included) with `Connection: close`,
 * what is still arriving at the end of the drain refused 408, the database closed after the last
 * write, exit 0. A second signal exits at once. Raw sockets, as a hostile client would send.
 */

const started: ServerProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop('SIGKILL')));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(dir: string, drainSeconds: number) {
  const s = await spawnServer({ VAULT_DATA_DIR: dir, VAULT_LIMITS: `shutdown-drain=${drainSeconds}` }, ['--demo']);
  started.push(s);
  return s;
}

function keysOf(dir: string) {
  return (JSON.parse(readFileSync(join(dir, 'local.json'), 'utf8')) as { keys: { agent: string; signup: string } }).keys;
}

/** A connection that records every byte the server sends and when the server closed it. */
function open(base: string): Promise<{ socket: Socket; received: () => string; closed: Promise<string> }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? (text += '<reset>') : undefined));
    const closed = new Promise<string>((done) => socket.on('close', () => done(text)));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

const write = (socket: Socket, text: string) => new Promise<void>((resolve) => socket.write(text, () => resolve()));

function filing(key: string, website: string) {
  const body = JSON.stringify({ website, email: 'agent@example.com' });
  return { head: `POST /v1/logins/requests HTTP/1.1\r\nHost: vault.test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`, body };
}
const read = (key: string, path = '/v1/recipes') => `GET ${path} HTTP/1.1\r\nHost: vault.test\r\nAuthorization: Bearer ${key}\r\n\r\n`;

describe('stopping on a signal', () => {
  it('when SIGTERM comes right after a burst, then every request received is answered, and the writes are kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-stop-'));
    dirs.push(dir);
    const s = await start(dir, 2);
    const keys = keysOf(dir);

    // An idle keep-alive connection, answered once before the stop.
    const idle = await open(s.base);
    await write(idle.socket, read(keys.agent));
    while (answers(idle.received()).length < 1) await new Promise((r) => setTimeout(r, 10));
    const idleBefore = idle.received();

    // A filing whose body is half sent at the stop and finished after it, and one never finished.
    const finishing = filing(keys.signup, 'finishing.com');
    const late = await open(s.base);
    await write(late.socket, finishing.head + finishing.body.slice(0, 10));
    const stalled = filing(keys.signup, 'stalled.com');
    const never = await open(s.base);
    await write(never.socket, stalled.head + stalled.body.slice(0, 10));

    // The burst: three filings and 27 reads, each complete, each on its own connection.
    const burst = await Promise.all(Array.from({ length: 30 }, () => open(s.base)));
    const sites = ['one.com', 'two.com', 'three.com'];
    await Promise.all(
      burst.map((c, i) => {
        if (i >= sites.length) return write(c.socket, read(keys.agent));
        const f = filing(keys.signup, sites[i]!);
        return write(c.socket, f.head + f.body);
      }),
    );
    const exited = s.stop('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await write(late.socket, finishing.body.slice(10));

    const burstAnswers = (await Promise.all(burst.map((c) => c.closed))).map((raw) => ({ raw, all: answers(raw) }));
    for (const { raw, all } of burstAnswers) {
      expect(all.map((a) => a.status), raw).toHaveLength(1);
      expect([200, 202], raw).toContain(all[0]!.status);
    }
    const filed = burstAnswers.slice(0, sites.length).map(({ all }) => all[0]!.body.requestId as string);
    expect(burstAnswers.slice(0, sites.length).map(({ all }) => all[0]!.status)).toEqual([202, 202, 202]);

    const lateRaw = await late.closed;
    const lateAnswers = answers(lateRaw);
    expect(lateAnswers.map((a) => a.status), lateRaw).toEqual([202]);
    expect(lateAnswers[0]!.headers.connection).toBe('close');
    filed.push(lateAnswers[0]!.body.requestId);

    const neverRaw = await never.closed;
    const refused = answers(neverRaw);
    expect(refused.map((a) => a.status), neverRaw).toEqual([408]);
    expect(refused[0]!.headers.connection).toBe('close');
    expect(refused[0]!.body).toEqual({ code: 'bad_request', error: expect.stringMatching(/stopping/) });

    // Each of these connections was closed after its one answer (the answers written after the
    // signal say so); the idle connection was closed without another byte.
    expect(await idle.closed).toBe(idleBefore);
    expect(await exited).toBe(0);
    await expect(open(s.base)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    // Every acknowledged filing was kept.
    const again = await start(dir, 2);
    for (const id of filed) {
      const res = await fetch(`${again.base}/v1/logins/requests/${id}`, { headers: { authorization: `Bearer ${keys.signup}` } });
      expect(res.status, id).toBe(200);
    }
  }, 120_000);

  it('when a second signal comes during the drain, then the process exits at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-stop-'));
    dirs.push(dir);
    // A drain far longer than the test may take: only the second signal can end it in time.
    const s = await start(dir, 600);
    const keys = keysOf(dir);
    const stalled = filing(keys.signup, 'stalled.com');
    const never = await open(s.base);
    await write(never.socket, stalled.head + stalled.body.slice(0, 10));
    const exited = s.stop('SIGTERM');
    while (!s.output().includes('"msg":"stopping"')) await new Promise((r) => setTimeout(r, 20));
    s.child.kill('SIGINT');
    expect(await exited).toBe(1);
    await never.closed;
  }, 120_000);
});
