import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { contract, givenAccount, startServer, type TestServer } from './support.js';
import { fixture, startSignupServer } from './signup-support.js';
import { loadFixturesContract } from '../http/fixtures/document.js';

/**
 * The answers of the server's HTTP layer (the document's "Answers of the HTTP layer"): requests
 * Node's parser refuses, headers over the cap, requests that arrive too slowly, CONNECT, a missing
 * Host and unknown expectations. Each is a JSON `{code, error}` with `Cache-Control: no-store`,
 * or, for an idle connection, a close without an answer. Sent over raw sockets, since no HTTP
 * client sends these.
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** Every byte the server sent before it closed the connection. */
  raw: string;
}

/** Writes `parts` (a number is a pause in ms) on a new connection and reads until the server closes it. */
function exchange(base: string, parts: (string | Buffer | number)[]): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
    const next = (i: number) => {
      if (i >= parts.length || socket.destroyed) return;
      const part = parts[i]!;
      if (typeof part === 'number') setTimeout(() => next(i + 1), part);
      else socket.write(part, () => next(i + 1));
    };
    socket.on('connect', () => next(0));
  });
}

/** The answers in `raw`, one per HTTP message. */
function answers(raw: string): RawAnswer[] {
  const out: RawAnswer[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    const text = Buffer.from(rest.slice(headEnd + 4), 'latin1').subarray(0, length).toString('utf8');
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: text ? JSON.parse(text) : undefined, raw: rest });
    rest = rest.slice(headEnd + 4 + Buffer.byteLength(text, 'latin1'));
  }
  return out;
}

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
    for (const doc of [contract(), loadFixturesContract()]) {
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
    const { accountId } = givenAccount(t);
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
    const a = givenAccount(t);
    const raw = await exchange(t.base, [`GET /v1/tokens HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.key}\r\n\r\n`]);
    expect(answers(raw).map((x) => x.status)).toEqual([200]);
  });
});
