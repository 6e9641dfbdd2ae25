import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Connection, DIRECT, type ConnectionSettings } from '../runner/http.js';
import { bypassesProxy, proxySettings } from '../runner/proxy.js';
import { decodeBody, parseAnswer } from '../runner/answer-decoding.js';
import { wireFailure } from '../runner/checks.js';
import { RunnerError } from '../runner/errors.js';
import { UsageError } from '../runner/options.js';
import { startProxy } from './support/front.js';
import { conform } from './support/run.js';
import { scripted } from './support/scripted.js';

/**
 * The connection layer every request goes through: framing, content codings, staging headers,
 * proxies, the start-up probe. Replays, which run in a shell, are in connection.e2e.test.ts.
 */

const JSON_BODY = Buffer.from(JSON.stringify({ recipes: [], note: 'décodé' }));

function chunked(body: Buffer, sizes: number[]): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const size of sizes) {
    const chunk = body.subarray(at, at + size);
    at += size;
    if (chunk.length > 0) parts.push(Buffer.from(`${chunk.length.toString(16)};ext=1\r\n`), chunk, Buffer.from('\r\n'));
  }
  if (at < body.length) parts.push(Buffer.from(`${(body.length - at).toString(16)}\r\n`), body.subarray(at), Buffer.from('\r\n'));
  parts.push(Buffer.from('0\r\nX-Trailer: yes\r\n\r\n'));
  return Buffer.concat(parts);
}

describe('a raw answer, read by its framing', () => {
  const head = (fields: string) => Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${fields}\r\n`);

  it('when the body is chunked with extensions and a trailer, then it is whole only once the last chunk has come', () => {
    const all = Buffer.concat([head('Transfer-Encoding: chunked\r\n'), chunked(JSON_BODY, [5, 7])]);
    for (let cut = 0; cut < all.length; cut++) expect(parseAnswer(all.subarray(0, cut), false, 'GET')).toBeUndefined();
    expect(parseAnswer(all, false, 'GET')!.body.equals(JSON_BODY)).toBe(true);
    expect(() => parseAnswer(all.subarray(0, all.length - 3), true, 'GET')).toThrow(/closed in the middle of a chunked body/);
  });

  it('when the answer has a Content-Length, then the body is that many bytes and a connection closed short of it is a network error', () => {
    const all = Buffer.concat([head(`Content-Length: ${JSON_BODY.length}\r\n`), JSON_BODY, Buffer.from('HTTP/1.1 200 next')]);
    expect(parseAnswer(all, false, 'GET')!.body.equals(JSON_BODY)).toBe(true);
    const short = Buffer.concat([head(`Content-Length: ${JSON_BODY.length}\r\n`), JSON_BODY.subarray(0, 4)]);
    expect(parseAnswer(short, false, 'GET')).toBeUndefined();
    expect(() => parseAnswer(short, true, 'GET')).toThrow(new RunnerError('network', `the connection closed after 4 of the ${JSON_BODY.length} bytes its Content-Length announced`));
  });

  it('when the answer has neither, then its body runs until the server closes; a HEAD or 204 answer has none', () => {
    const all = Buffer.concat([head(''), JSON_BODY]);
    expect(parseAnswer(all, false, 'GET')).toBeUndefined();
    expect(parseAnswer(all, true, 'GET')!.body.equals(JSON_BODY)).toBe(true);
    expect(parseAnswer(head('Content-Length: 10\r\n'), false, 'HEAD')!.body.length).toBe(0);
  });

  it('when an interim 100 Continue comes first, then the final answer is the one read', () => {
    const all = Buffer.concat([Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'), head('Content-Length: 2\r\n'), Buffer.from('{}')]);
    const answer = parseAnswer(all, false, 'POST')!;
    expect([answer.status, answer.body.toString()]).toEqual([200, '{}']);
  });

  it('when the bytes are not HTTP or a chunk size is not hex, then it is a network error', () => {
    expect(() => parseAnswer(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n'), false, 'GET')).toThrow(/not an HTTP answer/);
    expect(() => parseAnswer(Buffer.concat([head('Transfer-Encoding: chunked\r\n'), Buffer.from('zz\r\n')]), false, 'GET')).toThrow(/invalid chunk size/);
  });
});

describe('content codings', () => {
  it.each([
    ['gzip', gzipSync(JSON_BODY)],
    ['deflate', deflateSync(JSON_BODY)],
    ['deflate', deflateRawSync(JSON_BODY)],
    ['br', brotliCompressSync(JSON_BODY)],
    ['gzip, br', brotliCompressSync(gzipSync(JSON_BODY))],
    ['identity', JSON_BODY],
  ])('when the answer says Content-Encoding: %s, then the body is decoded and the wire says what came', (coding, encoded) => {
    const { body, wire } = decodeBody(encoded, { 'content-encoding': coding, 'transfer-encoding': 'chunked' });
    expect(body.equals(JSON_BODY)).toBe(true);
    expect(wire).toEqual({ contentEncoding: coding, transferEncoding: 'chunked', bytes: encoded.length });
  });

  it('when a body does not decode, or its coding was not accepted, then the case fails with a clear line, not a crash', () => {
    const corrupt = decodeBody(Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' });
    expect(corrupt.body.toString()).toBe('not gzip at all');
    expect(corrupt.wire.undecodable).toMatch(/^a body that is not valid gzip \(/);
    const ex = (wire: typeof corrupt.wire) => ({ request: { method: 'GET', url: 'http://x/v1/recipes', headers: {} }, response: { status: 200, statusText: 'OK', headers: {}, body: Buffer.alloc(0), text: '', durationMs: 1, wire } });
    const failure = wireFailure(ex(corrupt.wire))!;
    expect([failure.expected, failure.where]).toEqual(['a body encoded as Content-Encoding: gzip says', { kind: 'http', requirements: ['http-content-coding-as-declared'] }]);
    const zstd = decodeBody(Buffer.from('(\xb5/\xfd'), { 'content-encoding': 'zstd' });
    expect(zstd.wire.undecodable).toBe('Content-Encoding zstd, which the request did not accept (Accept-Encoding: gzip, deflate, br)');
    expect(wireFailure(ex(zstd.wire))!.where).toEqual({ kind: 'http', requirements: ['http-content-coding-accepted'] });
    expect(wireFailure(ex(decodeBody(gzipSync('{}'), { 'content-encoding': 'gzip' }).wire))).toBeUndefined();
  });
});

describe('one connection layer for parsed and raw requests', () => {
  let target: Awaited<ReturnType<typeof scripted>>;
  const connections: Connection[] = [];
  const open = (settings: Partial<ConnectionSettings> = {}) => {
    const c = new Connection({ ...DIRECT, ...settings }, [target.origin]);
    connections.push(c);
    return c;
  };
  beforeAll(async () => {
    // Every answer gzip-compressed and chunked, and the connection kept open after it.
    const gz = gzipSync(JSON_BODY);
    target = await scripted((_head, socket) => socket.write(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n'), chunked(gz, [3, 10])])));
  });
  afterEach(() => connections.splice(0).forEach((c) => c.close()));
  afterAll(() => new Promise<void>((resolve) => target.server.close(() => resolve())));

  it('when a parsed and a raw request get a compressed chunked answer, then both read it decoded, and the raw one does not wait for the connection to close', async () => {
    const c = open();
    const parsed = await c.send(c.request({ method: 'GET', url: `${target.origin}/v1/recipes`, headers: { accept: 'application/json' } }), 5000);
    const raw = await c.send(c.request({ method: 'GET', url: `${target.origin}/v1/recipes`, headers: {}, raw: Buffer.from(`GET /v1/recipes HTTP/1.1\r\nHost: x\r\n\r\n`) }), 5000);
    // The server never closes: a raw request that waited for the close would end in its timeout instead.
    for (const res of [parsed, raw]) {
      expect(res.json).toEqual({ recipes: [], note: 'décodé' });
      expect(res.wire).toEqual({ contentEncoding: 'gzip', transferEncoding: 'chunked', bytes: gzipSync(JSON_BODY).length });
    }
  });

  it('when staging headers are given, then they go on every request to the deployment, parsed or raw, under the headers a request sets itself', async () => {
    const c = open({ headers: { 'X-Tenant': 'acme', 'X-Gateway-Key': 'gw-secret-1' } });
    const request = c.request({ method: 'GET', url: `${target.origin}/v1/tokens`, headers: { accept: 'application/json', 'x-tenant': 'the-case-own' } });
    expect(request.headers).toEqual({ accept: 'application/json', 'x-tenant': 'the-case-own', 'X-Gateway-Key': 'gw-secret-1', 'accept-encoding': 'gzip, deflate, br' });
    const elsewhere = c.request({ method: 'GET', url: 'https://back-office.example.com/accounts', headers: {} });
    expect(elsewhere.headers).toEqual({ 'accept-encoding': 'gzip, deflate, br' });
    const raw = c.request({ method: 'GET', url: `${target.origin}/v1/tokens`, headers: {}, raw: Buffer.from('GET /v1/tokens HTTP/1.1\r\nHost: h\r\nX-Tenant: raw-own\r\nX-Padding: aaa') });
    expect(raw.raw!.toString()).toBe('GET /v1/tokens HTTP/1.1\r\nX-Gateway-Key: gw-secret-1\r\naccept-encoding: gzip, deflate, br\r\nHost: h\r\nX-Tenant: raw-own\r\nX-Padding: aaa');
    await c.send(request, 5000);
    expect(target.heads.at(-1)).toMatch(/\r\nX-Gateway-Key: gw-secret-1\r\n/);
    expect(c.secrets()).toEqual([
      ['acme', 'header X-Tenant'],
      ['gw-secret-1', 'header X-Gateway-Key'],
    ]);
  });

  it('when HTTP_PROXY names a proxy, then parsed and raw requests to an http deployment go to it with the whole URL, and NO_PROXY sends them direct', async () => {
    const proxy = await startProxy();
    try {
      const c = open({ proxy: proxySettings({ HTTP_PROXY: proxy.url }) });
      const parsed = await c.send(c.request({ method: 'GET', url: `${target.origin}/v1/recipes?full=1`, headers: {} }), 5000);
      const request = c.request({ method: 'GET', url: `${target.origin}/v1/tokens`, headers: {}, raw: Buffer.from(`GET /v1/tokens HTTP/1.1\r\nHost: ${new URL(target.origin).host}\r\nConnection: close\r\n\r\n`) });
      expect(request.raw!.toString()).toMatch(new RegExp(`^GET ${target.origin}/v1/tokens HTTP/1\\.1\\r\\n`));
      const raw = await c.send(request, 5000);
      expect([parsed.json, raw.json]).toEqual([{ recipes: [], note: 'décodé' }, { recipes: [], note: 'décodé' }]);
      expect(proxy.forwarded).toEqual([`${target.origin}/v1/recipes?full=1`, `${target.origin}/v1/tokens`]);
      expect(request.route).toEqual({ proxy: proxy.url });
      const direct = open({ proxy: proxySettings({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }) });
      await direct.send(direct.request({ method: 'GET', url: `${target.origin}/v1/recipes`, headers: {} }), 5000);
      expect(proxy.forwarded).toHaveLength(2);
    } finally {
      await proxy.stop();
    }
  });

  it('when the proxy cannot be reached, then the request fails as a network error that names it', async () => {
    const c = open({ proxy: proxySettings({ https_proxy: 'http://127.0.0.1:9' }) });
    await expect(c.send(c.request({ method: 'GET', url: 'https://vault.example.com/v1/recipes', headers: {} }), 5000)).rejects.toThrow(
      'GET /v1/recipes failed: the proxy http://127.0.0.1:9 failed: ECONNREFUSED',
    );
  });
});

describe('an answer before the whole body is sent', () => {
  it('when the server answers 413 and then resets the connection while the body is still being sent, then the whole answer counts; a reset before any answer is a network error', async () => {
    const refusal = '{"code":"bad_request","error":"too large"}';
    for (const answerFirst of [true, false]) {
      const target = await scripted((_head, socket) => {
        if (answerFirst) {
          socket.write(`HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\nContent-Length: ${refusal.length}\r\nConnection: close\r\n\r\n${refusal}`);
        }
        // Closed with unread body bytes: the kernel answers the rest of the body with a reset (RFC 9112 §9.6).
        socket.resetAndDestroy();
      });
      const c = new Connection(DIRECT, [target.origin]);
      try {
        // Larger than the socket buffers, so the client is still writing when the reset comes.
        const request = c.request({ method: 'POST', url: `${target.origin}/v1/logins/requests`, headers: { 'content-type': 'application/json' }, body: Buffer.alloc(16 * 1024 * 1024, 0x20) });
        if (answerFirst) {
          const answer = await c.send(request, 5000);
          expect([answer.status, answer.text]).toEqual([413, refusal]);
        } else {
          await expect(c.send(request, 5000)).rejects.toThrow(/ECONNRESET|EPIPE/);
        }
      } finally {
        c.close();
        await new Promise<void>((resolve) => target.server.close(() => resolve()));
      }
    }
  });
});

describe('the environment\'s proxy', () => {
  it('when both spellings are set, then the lowercase one wins; a proxy without a scheme is http://; another scheme is a usage error', () => {
    expect(proxySettings({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', HTTP_PROXY: 'proxy.example.com:3128', NO_PROXY: '.internal' })).toEqual({
      https: 'http://lower:2/',
      http: 'http://proxy.example.com:3128/',
      noProxy: '.internal',
    });
    expect(() => proxySettings({ HTTPS_PROXY: 'socks5://127.0.0.1:1080' })).toThrow(new UsageError('HTTPS_PROXY is a socks5 proxy; the runner goes through an http:// proxy (CONNECT for https targets)'));
  });

  it.each([
    ['*', 'https://vault.example.com', true],
    ['example.com', 'https://vault.example.com', true],
    ['.example.com', 'https://example.com', true],
    ['*.example.com', 'https://a.b.example.com/x', true],
    ['example.com', 'https://notexample.com', false],
    ['vault.example.com:8443', 'https://vault.example.com:8443', true],
    ['vault.example.com:8443', 'https://vault.example.com', false],
    ['localhost, 127.0.0.1', 'http://127.0.0.1:3000', true],
    ['[::1]:80', 'http://[::1]/', true],
    ['::1', 'http://[::1]:3000/', true],
    ['', 'http://127.0.0.1', false],
  ])('when NO_PROXY is "%s", then %s goes direct: %s', (noProxy, url, direct) => {
    expect(bypassesProxy(new URL(url), noProxy)).toBe(direct);
  });
});

describe('the start-up probe', () => {
  let server: http.Server;
  let base = '';
  let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = () => undefined;
  let probes = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/v1/recipes') probes++;
      answer(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => void (probes = 0));

  it('when a catch-all server answers 200 HTML to everything, then the run stops before any case with one line', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome</body></html>');
    };
    const error = await conform(['--base-url', base]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`${base} does not answer like the credential-vault API: GET /v1/recipes answered 200 with text/html, not a JSON object with a recipes array; check --base-url`);
    expect(probes).toBe(1);
  });

  it('when the deployment answers 503 a few times first, then --wait-for-ready waits until it answers like the API and the run goes on', async () => {
    answer = (req, res) => {
      if (probes <= 2) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        return res.end('starting');
      }
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=300' });
      res.end(JSON.stringify({ recipes: [] }));
    };
    const run = await conform(['--base-url', base, '--wait-for-ready', '20', '--only', 'getRecipes/index-without-bodies', '--max-rate', '0']);
    expect(run.output).toMatch(new RegExp(`^waiting up to 20 s for ${base} to answer like the API \\(${base} does not answer like the API yet: GET /v1/recipes answered 503 Service Unavailable\\)\\n${base} answered like the API after \\d+\\.\\d s\\n`));
    expect(run.results.map((r) => r.id)).toEqual(['getRecipes/index-without-bodies']);
    expect(probes).toBeGreaterThanOrEqual(3);
  });

  it('when the deployment never answers like the API, then --wait-for-ready gives up at its deadline with one line', async () => {
    answer = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    };
    const started = Date.now();
    await expect(conform(['--base-url', base, '--wait-for-ready', '2'])).rejects.toThrow(
      new UsageError(`not ready within 2 s (--wait-for-ready): ${base} does not answer like the API yet: GET /v1/recipes answered 502 Bad Gateway`),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(probes).toBeGreaterThanOrEqual(2);
  });
});

describe('a kept-alive connection reset as it is reused', () => {
  /** A server that answers each connection's first `answered` requests and resets the connection on the next one. */
  async function resetting(answered: number) {
    let connections = 0;
    const target = await scripted((_head, socket) => {
      const served = ((socket as Socket & { served?: number }).served ??= 0);
      if (served >= answered) return void socket.resetAndDestroy();
      (socket as Socket & { served?: number }).served = served + 1;
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    });
    target.server.on('connection', () => connections++);
    return { ...target, connections: () => connections };
  }

  it('when a read on a reused connection is reset before any answer, then it is sent once more on a new connection, not another pooled one, and its answer counts', async () => {
    const target = await resetting(1);
    const c = new Connection(DIRECT, [target.origin]);
    try {
      const get = () => c.send(c.request({ method: 'GET', url: `${target.origin}/v1/recipes`, headers: {} }), 5000);
      // Two connections in the pool, both of which reset their next request, as two connections
      // the server closed while the runner was busy do.
      expect((await Promise.all([get(), get()])).map((a) => a.status)).toEqual([200, 200]);
      expect(target.connections()).toBe(2);
      expect((await get()).status).toBe(200);
      expect(target.heads).toHaveLength(4);
      expect(target.connections()).toBe(3);
    } finally {
      c.close();
      await target.stop();
    }
  });

  it('when writes follow one another, then each goes on a connection opened for it, so none is ever reset as a reused one', async () => {
    const target = await resetting(1);
    const c = new Connection(DIRECT, [target.origin]);
    try {
      for (const method of ['POST', 'PATCH', 'DELETE', 'PUT']) {
        const answer = await c.send(c.request({ method, url: `${target.origin}/v1/logins/requests`, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') }), 5000);
        expect(answer.status).toBe(200);
      }
      expect([target.heads.length, target.connections()]).toEqual([4, 4]);
      // Said to the deployment too, so that it keeps nothing open for a connection the runner will not reuse.
      expect(target.heads.filter((h) => !/\r\nConnection: close\r\n/i.test(h))).toEqual([]);
    } finally {
      c.close();
      await target.stop();
    }
  });

  it('when the server announces Keep-Alive: timeout=2, then a connection idle for more than a second is not reused', async () => {
    const target = await scripted((_head, socket) => void socket.write('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=2\r\nContent-Length: 2\r\n\r\n{}'));
    let connections = 0;
    target.server.on('connection', () => connections++);
    const c = new Connection(DIRECT, [target.origin]);
    try {
      const get = () => c.send(c.request({ method: 'GET', url: `${target.origin}/v1/tokens`, headers: {} }), 5000);
      await get();
      await get();
      expect(connections).toBe(1);
      await new Promise((r) => setTimeout(r, 1_300));
      await get();
      expect(connections).toBe(2);
    } finally {
      c.close();
      await new Promise<void>((resolve) => target.server.close(() => resolve()));
    }
  });

  it("when a kept-alive connection is reused with a timeout equal to the pool's idle time, then the request waits its own timeout, not the server's idle hint", async () => {
    let served = 0;
    const target = await scripted((_head, socket) => {
      // The second answer comes after 1.5 s: longer than the 1 s the Keep-Alive hint leaves an idle socket.
      const answer = () => socket.write('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=2\r\nContent-Length: 2\r\n\r\n{}');
      if (served++ === 0) answer();
      else setTimeout(answer, 1_500);
    });
    const c = new Connection(DIRECT, [target.origin]);
    try {
      const get = () => c.send(c.request({ method: 'GET', url: `${target.origin}/v1/tokens`, headers: {} }), 30_000);
      expect((await get()).status).toBe(200);
      expect((await get()).status).toBe(200);
      expect(target.heads).toHaveLength(2);
    } finally {
      c.close();
      await new Promise<void>((resolve) => target.server.close(() => resolve()));
    }
  });

  it('when a request on a new connection is reset, then it is not sent again and the case sees a network error', async () => {
    const target = await resetting(0);
    const c = new Connection(DIRECT, [target.origin]);
    try {
      await expect(c.send(c.request({ method: 'POST', url: `${target.origin}/v1/logins/requests`, headers: {}, body: Buffer.from('{}') }), 5000)).rejects.toThrow(/ECONNRESET/);
      expect(target.heads).toHaveLength(1);
    } finally {
      c.close();
      await new Promise<void>((resolve) => target.server.close(() => resolve()));
    }
  });
});
