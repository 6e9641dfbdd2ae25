import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, DIRECT } from '../runner/http.js';
import { busy, sleep } from './support/scripted.js';

/**
 * A read whose kept-alive connection the deployment closed unannounced is sent again once, on a
 * connection of its own (the writes are in resend.test.ts).
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
