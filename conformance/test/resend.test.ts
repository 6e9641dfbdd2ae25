import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, DIRECT } from '../runner/http.js';
import { busy, sleep } from './support/scripted.js';

/**
 * Which requests the runner sends again, and on which connection: a read whose kept-alive
 * connection the deployment closed unannounced is sent again once on a connection of its own; a
 * write is sent on a connection of its own and never again, so it reaches the deployment once.
 */

/**
 * A deployment that closes a kept-alive connection once it has been idle for 100 to 300 ms after an
 * answer, with a FIN or a reset, announcing nothing (no `Keep-Alive`, no `Connection: close`; RFC 9112 §9.3 lets
 * it). It runs in a process of its own, so that it closes on time while the runner is busy.
 * `GET /counts` tells how many times each request target arrived.
 */
const IDLE_CLOSING = `
const net = require('node:net');
const counts = {};
const server = net.createServer((socket) => {
  let data = '';
  let timer;
  const idle = () => {
    clearTimeout(timer);
    timer = setTimeout(() => (Math.random() < 0.5 ? socket.end() : socket.resetAndDestroy()), 100 + Math.random() * 200);
  };
  socket.on('data', (chunk) => {
    data += chunk.toString('latin1');
    for (let end; (end = data.indexOf('\\r\\n\\r\\n')) >= 0; ) {
      const target = data.slice(0, end).split(' ')[1];
      data = data.slice(end + 4);
      const body = target === '/counts' ? JSON.stringify(counts) : '{}';
      if (target !== '/counts') counts[target] = (counts[target] || 0) + 1;
      socket.write('HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body);
    }
    idle();
  });
  socket.on('error', () => {});
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

describe('a deployment that closes idle connections unannounced', () => {
  let child: ChildProcess;
  let origin = '';
  beforeAll(async () => {
    child = spawn(process.execPath, ['-e', IDLE_CLOSING], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<string>((resolve) => child.stdout!.once('data', (c: Buffer) => resolve(c.toString().trim())));
    origin = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  });

  it('when many reads are queued on the pool, round after round, while the runner is busy, then every one is answered, none sent more than twice', async () => {
    const c = new Connection(DIRECT, [origin]);
    const outcomes: (number | string)[] = [];
    let n = 0;
    try {
      for (let round = 0; round < 25; round++) {
        // More than the pool's connections, so some requests wait and are handed a connection
        // straight from the request before: one the deployment may have closed meanwhile.
        const sends = Array.from({ length: 48 }, () =>
          c.send(c.request({ method: n % 7 === 0 ? 'HEAD' : 'GET', url: `${origin}/v1/recipes?n=${n++}`, headers: {} }), 10_000).then(
            (r) => r.status,
            (e: Error) => e.message,
          ),
        );
        await sleep(Math.random() * 5);
        // Busy while the answers and the deployment's closes arrive: they are read together, late.
        busy(Math.random() * 400);
        outcomes.push(...(await Promise.all(sends)));
        // Idle about as long as the deployment keeps an idle connection: the next round meets its closes.
        await sleep(100 + Math.random() * 200);
      }
    } finally {
      c.close();
    }
    expect(outcomes.filter((o) => o !== 200)).toEqual([]);
    const counts = (await fetch(`${origin}/counts`).then((r) => r.json())) as Record<string, number>;
    const arrivals = Array.from({ length: n }, (_, i) => counts[`/v1/recipes?n=${i}`] ?? 0);
    expect(arrivals.filter((a) => a < 1 || a > 2)).toEqual([]);
    // The closes did meet reused connections: some requests reached the deployment before its close, and again after.
    expect(arrivals.filter((a) => a === 2).length).toBeGreaterThan(0);
  }, 60_000);
});

/**
 * A deployment that applies every write and counts it, behind a proxy that resets the client's
 * connection in place of every other answer: the write was applied, and its answer never came.
 */
async function resettingProxy() {
  const applied = new Map<string, number>();
  const upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = req.method === 'GET' ? (req.url ?? '') : (JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id;
      applied.set(id, (applied.get(id) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  const agent = new http.Agent({ keepAlive: true });
  let answers = 0;
  const reset = new Set<string>();
  const writeSockets: Socket[] = [];
  const proxy = http.createServer((req, res) => {
    if (req.method !== 'GET') writeSockets.push(req.socket);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = http.request({ port: (upstream.address() as AddressInfo).port, host: '127.0.0.1', method: req.method, path: req.url, headers: { 'content-type': 'application/json' }, agent }, (answer) => {
        answer.resume();
        answer.on('end', () => {
          if (answers++ % 2 === 1) {
            reset.add(req.method === 'GET' ? (req.url ?? '') : (JSON.parse(body.toString()) as { id: string }).id);
            req.socket.resetAndDestroy();
          } else {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end('{}');
          }
        });
      });
      forward.end(body);
    });
  });
  for (const server of [upstream, proxy]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    applied,
    reset,
    writeSockets,
    stop: async () => {
      agent.destroy();
      for (const server of [proxy, upstream]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

describe('a write whose connection is reset after the deployment applied it', () => {
  it('when writes and reads go through a proxy that resets every other answer, then each write arrives exactly once and a reset write is its own network error', async () => {
    const front = await resettingProxy();
    const c = new Connection(DIRECT, [front.origin]);
    const write = (id: string) =>
      c.send(c.request({ method: 'POST', url: `${front.origin}/v1/logins/requests`, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ id })) }), 5000).then(
        (r) => [id, r.status] as const,
        (e: Error) => [id, e.message] as const,
      );
    const read = (i: number) => c.send(c.request({ method: 'GET', url: `${front.origin}/v1/recipes?i=${i}`, headers: {} }), 5000).then((r) => r.status, (e: Error) => e.message);
    const writes: (readonly [string, number | string])[] = [];
    try {
      for (let i = 0; i < 30; i++) {
        writes.push(await write(`one-${i}`));
        await read(i);
      }
      const mixed = await Promise.all(Array.from({ length: 30 }, (_, i) => Promise.all([write(`many-${i}`), read(100 + i)])));
      writes.push(...mixed.map(([w]) => w));
    } finally {
      c.close();
      await front.stop();
    }
    const ids = writes.map(([id]) => id);
    expect(ids.filter((id) => front.applied.get(id) !== 1)).toEqual([]);
    const failed = writes.filter(([, outcome]) => outcome !== 200);
    expect(failed.map(([id]) => id).sort()).toEqual(ids.filter((id) => front.reset.has(id)).sort());
    expect(failed.length).toBeGreaterThan(0);
    for (const [, outcome] of failed) expect(outcome).toMatch(/^POST \/v1\/logins\/requests failed: ECONNRESET/);
    // Each write on a connection of its own.
    expect(new Set(front.writeSockets).size).toBe(ids.length);
    // A read is sent at most twice: once, and again on a connection of its own when a reused one was reset.
    const reads = [...front.applied].filter(([id]) => id.startsWith('/v1/recipes'));
    expect(reads.filter(([, count]) => count > 2)).toEqual([]);
  }, 60_000);
});
