import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { contract, givenAccount, startServer, type TestServer } from './support.js';
import { fixture, startSignupServer } from './signup-support.js';
import { loadBackOfficeContract } from '../http/back-office/document.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { docsRouter } from '../http/docs.js';
import { answers, exchange, type RawAnswer } from './raw.js';

const ROOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The answers of the server's HTTP layer (the document's "Answers of the HTTP layer"): requests
 * Node's parser refuses, headers over the cap, requests that arrive too slowly, CONNECT, a missing
 * Host and unknown expectations. Each is a JSON `{code, error}` with `Cache-Control: no-store`,
 * or, for an idle connection, a close without an answer. Sent over raw sockets, since no HTTP
 * client sends these.
 */

async function only(base: string, parts: (string | Buffer | number)[]): Promise<RawAnswer> {
  const raw = await exchange(base, parts);
  const all = answers(raw);
  expect(all, raw).toHaveLength(1);
  return all[0]!;
}

function expectRefusal(answer: RawAnswer, status: number, error: RegExp) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers.connection).toBe('close');
  expect(answer.body).toEqual({ code: 'bad_request', error: expect.stringMatching(error) });
}

describe('answers of the HTTP layer', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer();
  });
  afterAll(() => t.close());

  it('when the headers are over the document cap, then 431 bad_request as JSON', async () => {
    const size = contract().limit('request-header-size').value!;
    expect(size).toBe(16384);
    const answer = await only(t.base, [`GET /v1/recipes HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(size)}\r\n\r\n`]);
    expectRefusal(answer, 431, /larger than 16384 bytes/);
  });

  it('when the request is not valid HTTP, then 400 bad_request as JSON', async () => {
    const malformed = [
      'this is not http\r\n\r\n',
      'GET /v1/recipes HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      'GET /v1/recipes HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
      'POST /v1/logins HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'GET /v1/recipes HTTP/9.9\r\nHost: x\r\n\r\n',
    ];
    for (const request of malformed) expectRefusal(await only(t.base, [request]), 400, /not valid HTTP|method/);
  });

  it('when the method is unknown or CONNECT, then 400 bad_request as JSON', async () => {
    expectRefusal(await only(t.base, ['FROB /v1/recipes HTTP/1.1\r\nHost: x\r\n\r\n']), 400, /method is not one this server knows/);
    expectRefusal(await only(t.base, ['CONNECT vault.test:443 HTTP/1.1\r\nHost: vault.test:443\r\n\r\n']), 400, /CONNECT is not supported/);
  });

  it('when an HTTP/1.1 request has no Host header, then 400 bad_request as JSON', async () => {
    expectRefusal(await only(t.base, ['GET /v1/recipes HTTP/1.1\r\n\r\n']), 400, /Host header/);
  });

  it('when an Expect header names an expectation the server does not know, then it is ignored', async () => {
    const answer = await only(t.base, ['GET /v1/recipes HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nConnection: close\r\n\r\n']);
    expect(answer.status).toBe(200);
    expect(answer.body.recipes.length).toBeGreaterThan(0);
  });

  it('when every operation is read, of the API and of the fixture surface, then each documents the 408 and 431 of the HTTP layer', () => {
    for (const doc of [contract(), loadBackOfficeContract()]) {
      for (const op of doc.operations.values()) {
        for (const status of ['408', '431']) {
          const response = doc.resolve(op.raw.responses[status]);
          expect(response, `${op.operationId} ${status}`).toBeDefined();
          expect(response.headers['Cache-Control'], `${op.operationId} ${status}`).toBeDefined();
        }
      }
    }
  });
});

describe('the HTTP edge before the body', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer();
  });
  afterAll(() => t.close());

  /** Writes `head`, waits for the first bytes of the answer, then (if `body` is given) sends it and reads to the close. */
  function headFirst(head: string, body?: string): Promise<{ first: string; raw: string }> {
    const { hostname, port } = new URL(t.base);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let raw = '';
      let first: string | undefined;
      socket.on('data', (c: Buffer) => {
        raw += c.toString('latin1');
        if (first === undefined) {
          first = raw;
          if (body !== undefined && raw.startsWith('HTTP/1.1 100 ')) socket.write(body);
        }
      });
      socket.on('close', () => resolve({ first: first ?? '', raw }));
      socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
      socket.on('connect', () => socket.write(head));
    });
  }

  const post = (path: string, headers: string[], length = 60) =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;

  it('when a request that expects 100-continue is refused before its body, then the refusal comes in place of 100 Continue', async () => {
    const plain = await givenAccount(t);
    const refusals: [string, string, number, string][] = [
      ['no key', post('/v1/recipes', []), 401, 'unauthorized'],
      ['an unknown key', post('/v1/recipes', ['Authorization: Bearer vk_unknown']), 401, 'invalid_api_key'],
      ['a key without signup permission', post('/v1/logins/requests', [`Authorization: Bearer ${plain.key}`]), 403, 'signup_not_enabled'],
      ['an unknown link', post('/v1/signup-requests/lnk_unknown', []), 404, 'not_found'],
      ['a declared body over the cap', post('/v1/logins/requests', [`Authorization: Bearer ${(await givenAccount(t, { signup: true })).key}`], 5000), 413, 'bad_request'],
    ];
    for (const [what, head, status, code] of refusals) {
      const { first, raw } = await headFirst(head);
      expect(first.startsWith(`HTTP/1.1 ${status} `), `${what}: ${first.slice(0, 40)}`).toBe(true);
      expect(raw, what).not.toMatch(/100 Continue/);
      const [answer] = answers(raw);
      expect(answer!.body.code, what).toBe(code);
      expect(answer!.headers.connection, what).toBe('close');
    }
  });

  it('when a request that expects 100-continue passes every check, then 100 Continue, and the answer after its body', async () => {
    const a = await givenAccount(t);
    const body = JSON.stringify({ key: `continue${Date.now()}.com`, kind: 'merchant', status: 'partial' });
    const { first, raw } = await headFirst(post('/v1/recipes', [`Authorization: Bearer ${a.key}`, 'Connection: close'], Buffer.byteLength(body)), body);
    expect(first).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    const rest = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expect(answers(rest).map((x) => [x.status, x.body.status])).toEqual([[202, 'pending']]);
  });

  it('when a transfer coding other than chunked is sent, then 501 bad_request as JSON and the body is never read', async () => {
    const a = await givenAccount(t);
    const gzip = Buffer.from('1f8b', 'hex').toString('latin1');
    for (const coding of ['gzip, chunked', 'deflate,chunked', 'x-custom, chunked', 'identity, chunked']) {
      const answer = await only(t.base, [`POST /v1/recipes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: ${coding}\r\n\r\n2\r\n${gzip}\r\n0\r\n\r\n`]);
      expectRefusal(answer, 501, /transfer coding .* implements only chunked/);
    }
    const get = await only(t.base, ['GET /v1/recipes HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n']);
    expectRefusal(get, 501, /transfer coding/);
    // chunked twice is not HTTP/1.1 at all (RFC 9112 section 6.1): Node's parser refuses it first.
    expectRefusal(await only(t.base, ['POST /v1/recipes HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n']), 400, /not valid HTTP/);
    // The scheme of the one coding implemented is case-insensitive.
    const body = JSON.stringify({ key: `chunked${Date.now()}.com`, kind: 'merchant', status: 'partial' });
    const chunked = await only(t.base, [`POST /v1/recipes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`]);
    expect(chunked.status).toBe(202);
  });

  it('when two Authorization headers are sent, in either order or the same twice, then 401 unauthorized', async () => {
    const a = await givenAccount(t);
    const pairs = [
      [`Bearer ${a.key}`, 'Bearer vk_unknown'],
      ['Bearer vk_unknown', `Bearer ${a.key}`],
      [`Bearer ${a.key}`, `Bearer ${a.key}`],
    ];
    for (const [one, two] of pairs) {
      const answer = await only(t.base, [`GET /v1/tokens HTTP/1.1\r\nHost: x\r\nAuthorization: ${one}\r\nauthorization: ${two}\r\nConnection: close\r\n\r\n`]);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ code: 'unauthorized', error: expect.stringMatching(/one Authorization header/) });
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    const once = await only(t.base, [`GET /v1/tokens HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.key}\r\nConnection: close\r\n\r\n`]);
    expect(once.status).toBe(200);
  });

  it('when two Content-Type headers are sent, in either order or the same twice, then the operation\'s 400', async () => {
    const a = await givenAccount(t, { signup: true });
    const body = JSON.stringify({ website: 'types.com', email: 'agent@example.com' });
    for (const [first, second] of [['application/json', 'text/plain'], ['text/plain', 'application/json'], ['application/json', 'application/json']]) {
      const answer = await only(t.base, [
        `POST /v1/logins/requests HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.key}\r\nContent-Type: ${first}\r\nContent-Type: ${second}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      ]);
      expect(answer.status, `${first}, ${second}`).toBe(400);
      expect(answer.body).toEqual({ code: 'bad_request', error: expect.stringMatching(/one Content-Type header/) });
    }
    const recipe = await only(t.base, [
      `POST /v1/recipes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.key}\r\nContent-Type: application/json\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    ]);
    expect(recipe.status).toBe(400);
    expect(recipe.body).toMatchObject({ code: 'invalid_recipe', errors: [expect.objectContaining({ path: '' })] });
  });

  it('when the scheme is bearer in any case, then the key is read (RFC 9110 section 11.1)', async () => {
    const a = await givenAccount(t);
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      const res = await fetch(`${t.base}/v1/tokens`, { headers: { authorization: `${scheme} ${a.key}` } });
      expect(res.status, scheme).toBe(200);
    }
    const res = await fetch(`${t.base}/v1/tokens`, { headers: { authorization: `bearer vk_unknown` } });
    expect(((await res.json()) as { code: string }).code).toBe('invalid_api_key');
  });
});

describe('answers outside an operation, and to HEAD', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer();
  });
  afterAll(() => t.close());

  it('when the path is unknown or the method is not the path\'s, then 404 or 405 JSON with Cache-Control: no-store', async () => {
    for (const [method, path, status] of [['GET', '/nope', 404], ['HEAD', '/v1/nope', 404], ['POST', '/v1/tokens', 405], ['DELETE', '/v1/recipes', 405]] as const) {
      const res = await fetch(`${t.base}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(res.headers.get('cache-control'), `${method} ${path}`).toBe('no-store');
      if (method !== 'HEAD') expect(((await res.json()) as { code: string }).code).toBe(status === 404 ? 'not_found' : 'bad_request');
    }
  });

  it('when an error answers HEAD, then it carries the Content-Length the GET answer has', async () => {
    for (const [path, headers] of [['/v1/tokens', {}], ['/v1/tokens', { authorization: 'Bearer vk_unknown' }], ['/v1/nope', {}], ['/v1/logins/requests/sreq_x', {}]] as const) {
      const get = await fetch(`${t.base}${path}`, { headers });
      const text = await get.text();
      const head = await fetch(`${t.base}${path}`, { method: 'HEAD', headers });
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get('content-length'), path).toBe(String(Buffer.byteLength(text)));
      expect(await head.text()).toBe('');
    }
  });
});

describe('the docs routes', () => {
  let server: Server;
  let base: string;
  const empty = mkdtempSync(join(tmpdir(), 'vault-docs-'));
  beforeAll(async () => {
    const app = express();
    app.use(docsRouter(empty));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(empty, { recursive: true, force: true });
  });

  it('when the docs are not built, then /docs answers the API\'s JSON 404, not text', async () => {
    for (const path of ['/docs', '/docs/fixtures']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ code: 'not_found', error: expect.stringMatching(/npm run docs/) });
    }
  });

  it('when the changelog is asked for, then it is served as plain text: the contract\'s public release notes', async () => {
    const res = await fetch(`${base}/CHANGELOG.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(readFileSync(join(ROOT_DIR, 'CHANGELOG.md'), 'utf8'));
  });
});

describe('timeouts', () => {
  // The deployment settings of the document, made short so the test waits seconds, not the defaults.
  let t: TestServer;
  beforeAll(async () => {
    t = await startSignupServer({ limitOverrides: { 'request-headers-timeout': 1, 'request-timeout': 2, 'keep-alive-timeout': 1 } });
  });
  afterAll(() => t.close());

  it('when the document is read, then the defaults are 10 s for headers, 30 s for the request and 5 s idle', () => {
    expect(['request-headers-timeout', 'request-timeout', 'keep-alive-timeout'].map((id) => contract().limit(id).value)).toEqual([10, 30, 5]);
  });

  it('when the headers do not arrive in time, then 408 bad_request as JSON and the connection closes', async () => {
    const answer = await only(t.base, ['GET /v1/recipes HTTP/1.1\r\nHost: x\r\n']);
    expectRefusal(answer, 408, /headers did not arrive within 1 seconds/);
  });

  it('when the body of a live link decision does not arrive in time, then 408, a documented answer of the operation', async () => {
    const { accountId } = await givenAccount(t);
    const { token } = (await (await fixture(t, 'POST', `/accounts/${accountId}/purchase-approvals`, {})).json()) as { token: string };
    const answer = await only(t.base, [`POST /v1/approvals/${token}/decide HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"decision":`]);
    expectRefusal(answer, 408, /request did not arrive within 2 seconds/);
    expect(contract().operations.get('decidePurchaseApproval')!.raw.responses['408']).toBeDefined();
  });

  it('when an answered request is still sending its body at the timeout, then the connection closes with no second answer', async () => {
    const raw = await exchange(t.base, ['GET /v1/recipes HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{']);
    const all = answers(raw);
    expect(all.map((a) => a.status)).toEqual([200]);
  });

  it('when a connection is idle after an answer, then it is closed without another answer', async () => {
    const a = await givenAccount(t);
    const raw = await exchange(t.base, [`GET /v1/tokens HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.key}\r\n\r\n`]);
    expect(answers(raw).map((x) => x.status)).toEqual([200]);
  });
});
