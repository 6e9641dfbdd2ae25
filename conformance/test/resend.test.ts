import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Connection, DIRECT } from '../runner/http.js';

/**
 * Which requests the runner sends again, and on which connection: a read whose kept-alive
 * connection the deployment closed unannounced is sent again once on a connection of its own; a
 * write is sent on a connection of its own and never again, so it reaches the deployment once.
 * The read, against a deployment in a process of its own, is in resend.e2e.test.ts.
 */

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
