import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_CAP } from '../runner/bounds.js';
import { RunnerError } from '../runner/errors.js';
import { Connection, DIRECT, type HttpRequest } from '../runner/http.js';
import { UsageError } from '../runner/options.js';
import { conform } from './support/run.js';
import { scripted } from './support/scripted.js';

/**
 * What one exchange may cost the runner against a hostile deployment: one deadline for the whole
 * exchange, however slowly the answer comes, and a cap on what is read of it, however much comes.
 * No timed assertion beyond "it ended, and not after a few times its deadline".
 */

type Target = Awaited<ReturnType<typeof scripted>>;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function deployment(answer: (head: string, socket: Socket) => void): Promise<Target> {
  const target = await scripted(answer);
  stops.push(() => target.stop());
  return target;
}

function connection(target: Target): Connection {
  const c = new Connection(DIRECT, [target.origin]);
  stops.unshift(async () => c.close());
  return c;
}

/** Writes `bytes` one at a time, `everyMs` apart, and then `then` for ever, until the connection closes. */
function drip(socket: Socket, bytes: string, everyMs: number, then = ' '): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    socket.write(at < bytes.length ? bytes[at++]! : then);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

/** Writes `chunk` for ever, as fast as the connection takes it. */
function flood(socket: Socket, chunk: Buffer): void {
  const pump = () => {
    while (!socket.destroyed && socket.write(chunk));
    if (!socket.destroyed) socket.once('drain', pump);
  };
  pump();
}

const HEAD = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n';

/** The requests of both ways of sending: parsed by node:http, and raw bytes read by their framing. */
function both(c: Connection, target: Target): [string, HttpRequest][] {
  return [
    ['parsed', c.request({ method: 'GET', url: `${target.origin}/v1/recipes`, headers: {} })],
    ['raw', c.request({ method: 'GET', url: `${target.origin}/v1/recipes`, headers: {}, raw: Buffer.from('GET /v1/recipes HTTP/1.1\r\nHost: x\r\n\r\n') })],
  ];
}

async function failure(sending: Promise<unknown>): Promise<{ error: RunnerError; ms: number }> {
  const started = performance.now();
  const error = await sending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunnerError);
  return { error: error as RunnerError, ms: performance.now() - started };
}

describe('one deadline for the whole exchange', () => {
  const TIMEOUT = 1500;

  it('when the body drips a byte at a time for ever, then the request ends at its deadline as a timeout, parsed or raw', async () => {
    const target = await deployment((_head, socket) => {
      socket.write(`${HEAD}Content-Length: 1000000\r\n\r\n`);
      drip(socket, '', 100);
    });
    const c = connection(target);
    for (const [way, request] of both(c, target)) {
      const { error, ms } = await failure(c.send(request, TIMEOUT));
      expect([way, error.kind]).toEqual([way, 'timeout']);
      expect(error.message).toMatch(/^the answer to GET \/v1\/recipes did not arrive whole within 1500 ms \(\d+ bytes of it by then\)$/);
      expect(ms).toBeLessThan(3 * TIMEOUT);
    }
  }, 20_000);

  it('when the head comes a byte at a time, then the request ends at its deadline as a timeout, parsed or raw', async () => {
    const target = await deployment((_head, socket) => drip(socket, `${HEAD}X-Slow: ${'a'.repeat(1000)}\r\n\r\n{}`, 100));
    const c = connection(target);
    for (const [way, request] of both(c, target)) {
      const { error, ms } = await failure(c.send(request, TIMEOUT));
      expect([way, error.kind]).toEqual([way, 'timeout']);
      expect(error.message).toMatch(/^(no answer to GET \/v1\/recipes within 1500 ms|the answer to GET \/v1\/recipes did not arrive whole within 1500 ms \(\d+ bytes of it by then\))$/);
      expect(ms).toBeLessThan(3 * TIMEOUT);
    }
  }, 20_000);

  it('when a TLS deployment never finishes its handshake, then the request ends at its deadline as a timeout, parsed or raw', async () => {
    const silent = await deployment(() => undefined);
    const c = connection(silent);
    const https = silent.origin.replace('http:', 'https:');
    for (const request of [c.request({ method: 'GET', url: `${https}/v1/recipes`, headers: {} }), c.request({ method: 'GET', url: `${https}/v1/recipes`, headers: {}, raw: Buffer.from('GET /v1/recipes HTTP/1.1\r\n\r\n') })]) {
      const { error, ms } = await failure(c.send(request, TIMEOUT));
      expect([error.kind, error.message]).toEqual(['timeout', 'no answer to GET /v1/recipes within 1500 ms']);
      expect(ms).toBeLessThan(3 * TIMEOUT);
    }
  }, 20_000);

  it('when a read on a reused connection is reset and sent again, then both sendings share the one deadline', async () => {
    let served = 0;
    const target = await deployment((_head, socket) => {
      served++;
      if (served === 1) socket.write(`${HEAD}Content-Length: 2\r\n\r\n{}`);
      else if (served === 2) setTimeout(() => socket.resetAndDestroy(), 1000);
      else drip(socket, `${HEAD}Content-Length: 2\r\n\r\n{}`, 1000);
    });
    const c = connection(target);
    await c.send(c.request({ method: 'GET', url: `${target.origin}/v1/recipes`, headers: {} }), TIMEOUT);
    const { error, ms } = await failure(c.send(c.request({ method: 'GET', url: `${target.origin}/v1/recipes`, headers: {} }), TIMEOUT));
    expect([error.kind, served]).toEqual(['timeout', 3]);
    expect(ms).toBeLessThan(2 * TIMEOUT);
  }, 20_000);
});

describe('a cap on what is read of an answer', () => {
  /** The growth of the heap and of the buffers while `sending` runs; past `bound`, `abort` ends it. */
  async function growth<T>(sending: () => Promise<T>, bound: number, abort: () => Promise<void>): Promise<{ outcome: T; peak: number }> {
    const used = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const before = used();
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, used() - before);
      if (peak > bound) void abort();
    }, 5);
    try {
      return { outcome: await sending(), peak };
    } finally {
      clearInterval(sampler);
    }
  }

  const endless: [string, string, Buffer][] = [
    ['chunked', 'Transfer-Encoding: chunked\r\n', Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x20), Buffer.from('\r\n')])],
    ['unframed, until the close', '', Buffer.alloc(0x10000, 0x20)],
    ['with a Content-Length past the cap', `Content-Length: ${4 * ANSWER_CAP}\r\n`, Buffer.alloc(0x10000, 0x20)],
  ];

  it.each(endless)('when the body comes %s, fast and for ever, then the read stops at the cap, as an error naming it, and memory stays bounded, parsed or raw', async (_name, framing, chunk) => {
    const target = await deployment((_head, socket) => {
      socket.write(`${HEAD}${framing}\r\n`);
      flood(socket, chunk);
    });
    const c = connection(target);
    // Loose: the capped answer, the buffers on their way and garbage not yet collected; an uncapped
    // read grows without end, and is stopped here before it takes the machine.
    const bound = 8 * ANSWER_CAP;
    for (const [way, request] of both(c, target)) {
      const { outcome, peak } = await growth(() => failure(c.send(request, 30_000)), bound, () => target.stop());
      expect([way, outcome.error.kind, outcome.error.message]).toEqual([way, 'network', 'the answer to GET /v1/recipes is longer than 16 MiB, the most the runner reads of one answer; the rest was not read']);
      expect(peak).toBeLessThan(bound);
    }
  }, 60_000);

  it('when a small body decodes past the cap, then the exchange is an error naming the cap, not a body held in memory', async () => {
    const bomb = gzipSync(Buffer.alloc(ANSWER_CAP + 1, 0x20));
    const target = await deployment((_head, socket) => socket.write(Buffer.concat([Buffer.from(`${HEAD}Content-Encoding: gzip\r\nContent-Length: ${bomb.length}\r\n\r\n`), bomb])));
    const c = connection(target);
    for (const [, request] of both(c, target)) {
      const { error } = await failure(c.send(request, 10_000));
      expect([error.kind, error.message]).toEqual(['network', 'the answer to GET /v1/recipes: its body, decoded from gzip, is longer than 16 MiB, the most the runner reads of one answer; the rest was not read']);
    }
    // One byte less decodes.
    const fits = gzipSync(Buffer.alloc(ANSWER_CAP, 0x20));
    const fitting = await deployment((_head, socket) => socket.write(Buffer.concat([Buffer.from(`${HEAD}Content-Encoding: gzip\r\nContent-Length: ${fits.length}\r\n\r\n`), fits])));
    const answer = await connection(fitting).send(c.request({ method: 'GET', url: `${fitting.origin}/v1/recipes`, headers: {} }), 10_000);
    expect(answer.body.length).toBe(ANSWER_CAP);
  }, 30_000);
});

describe('a run against a deployment that never finishes an answer', () => {
  const CASES = ['getRecipes/index-without-bodies', 'getRecipes/full-bundle-with-bodies', 'getRecipes/lookup-has-four-slots'];
  const TIMEOUT = 3000;
  /** The start-up probe and the key checks get the API's answers; every other answer is `hostile`. */
  async function after(hostile: (socket: Socket) => void, checks = true): Promise<Target> {
    let probed = false;
    const recipes = '{"recipes":[]}';
    const refusal = '{"code":"invalid_api_key","error":"The API key is not valid."}';
    return deployment((head, socket) => {
      if (!probed) {
        probed = true;
        socket.write(`${HEAD}Cache-Control: public, max-age=300\r\nContent-Length: ${recipes.length}\r\n\r\n${recipes}`);
      } else if (checks && head.startsWith('GET /v1/tokens ')) socket.write(`HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nContent-Length: ${refusal.length}\r\n\r\n${refusal}`);
      else hostile(socket);
    });
  }

  it.each([
    ['a body that drips for ever', (socket: Socket) => (socket.write(`${HEAD}Transfer-Encoding: chunked\r\n\r\n`), drip(socket, '', 500, '1\r\n \r\n'))],
    ['a head sent a byte a second', (socket: Socket) => drip(socket, `${HEAD}Content-Length: 2\r\n\r\n{}`, 1000)],
  ])('when every answer after the probe is %s, then with --timeout 3000 each case ends in a timeout error, and the run ends with its verdict', async (_name, hostile) => {
    const target = await after(hostile);
    const started = performance.now();
    const run = await conform(['--base-url', target.origin, '--timeout', `${TIMEOUT}ms`, '--max-rate', '0', ...CASES.flatMap((id) => ['--only', id])]);
    const ms = performance.now() - started;
    expect(run.errors, run.output).toEqual([...CASES].sort());
    for (const result of run.results) expect([result.id, result.error?.kind]).toEqual([result.id, 'timeout']);
    expect(run.exitCode).not.toBe(0);
    // The three cases run at once (--jobs 4): each ends at its first request's deadline.
    expect(ms).toBeLessThan(4 * TIMEOUT);
  }, 60_000);

  it('when the key checks meet a body that drips for ever, then the run stops before any case with one line, at the deadline', async () => {
    const target = await after((socket) => (socket.write(`${HEAD}Transfer-Encoding: chunked\r\n\r\n`), drip(socket, '', 500, '1\r\n \r\n')), false);
    const started = performance.now();
    await expect(conform(['--base-url', target.origin, '--timeout', `${TIMEOUT}ms`, '--max-rate', '0', '--only', CASES[0]!])).rejects.toThrow(
      new UsageError(`${target.origin} answered the start-up probe, then not the key checks: the answer to GET /v1/tokens did not arrive whole within 3000 ms (5 bytes of it by then)`),
    );
    expect(performance.now() - started).toBeLessThan(2 * TIMEOUT);
  }, 60_000);
});
