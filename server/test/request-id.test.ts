import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenAccount, startServer, type TestServer } from './support.js';

/**
 * Every answer carries `X-Request-Id` and the server logs it: the app's answers (success, error,
 * unknown path, docs, fixture surface) and the HTTP layer's own (431, 408, 400, CONNECT). A usable id
 * the caller sent is kept; anything else is replaced, so a raw header value never reaches a header
 * or a log.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ADMIN = 'adm_request_id';

/** Writes `request` on a new connection and returns everything read until the server closes it. */
function raw(base: string, request: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
  });
}

function headerOf(answer: string, name: string): string | undefined {
  const head = answer.slice(0, answer.indexOf('\r\n\r\n')).split('\r\n');
  const line = head.find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(line.indexOf(':') + 1).trim();
}

describe('the request id of the app', () => {
  let t: TestServer;
  let key: string;
  beforeAll(async () => {
    t = await startServer({ config: { adminToken: ADMIN } });
    ({ key } = await givenAccount(t));
  });
  afterAll(() => t.close());

  const loggedIds = () => t.logs.map((l) => l.requestId);

  it('when a request sends no id, then every kind of answer carries a new one, and the log line has it', async () => {
    const calls: Array<[string, RequestInit & { key?: string }, number]> = [
      ['/v1/recipes', {}, 200],
      ['/v1/tokens', { key }, 200],
      ['/v1/tokens', {}, 401],
      ['/v1/recipes', { method: 'DELETE' }, 405],
      ['/v1/nothing-here', {}, 404],
      ['/docs/fixtures', {}, 200],
      ['/_fixtures/clock', { headers: { authorization: `Bearer ${ADMIN}` } }, 200],
    ];
    const ids = new Set<string>();
    for (const [path, init, status] of calls) {
      const headers = new Headers(init.headers);
      if (init.key) headers.set('authorization', `Bearer ${init.key}`);
      const res = await fetch(`${t.base}${path}`, { ...init, headers });
      await res.arrayBuffer();
      expect(res.status, path).toBe(status);
      const id = res.headers.get('x-request-id');
      expect(id, path).toMatch(UUID);
      ids.add(id!);
      await expect.poll(loggedIds).toContain(id);
    }
    expect(ids.size).toBe(calls.length);
  });

  it('when a request sends a usable id, then the answer and the log line carry that id', async () => {
    for (const sent of ['a1b2c3', 'req_01HV7Z9Q4N3K2J1M0P9R8S7T6U', '4bf92f3577b34da6a3ce929d0e0e4736:00f067aa0ba902b7', 'x'.repeat(128), 'dGVzdC9pZA==']) {
      const res = await fetch(`${t.base}/v1/recipes`, { headers: { 'x-request-id': sent } });
      await res.arrayBuffer();
      expect(res.headers.get('x-request-id')).toBe(sent);
      await expect.poll(loggedIds).toContain(sent);
    }
  });

  it('when a request sends an unusable id, then it is replaced, and the value reaches neither the answer nor the log', async () => {
    for (const sent of ['x'.repeat(129), 'two words', '<script>alert(1)</script>', 'id;drop', 'a,b', '"quoted"', '']) {
      const before = t.logs.length;
      const res = await fetch(`${t.base}/v1/tokens`, { headers: { 'x-request-id': sent } });
      await res.arrayBuffer();
      const id = res.headers.get('x-request-id');
      expect(id, JSON.stringify(sent)).toMatch(UUID);
      await expect.poll(() => t.logs.length).toBeGreaterThan(before);
      expect(t.logs.at(-1)!.requestId).toBe(id);
      if (sent !== '') expect(JSON.stringify(t.logs)).not.toContain(sent);
    }
    // A header sent twice arrives as one value joined by ", ": not an id.
    const twice = await raw(t.base, 'GET /v1/recipes HTTP/1.1\r\nHost: x\r\nX-Request-Id: aaa\r\nX-Request-Id: bbb\r\nConnection: close\r\n\r\n');
    expect(headerOf(twice, 'x-request-id')).toMatch(UUID);
  });
});

describe('the request id of the HTTP layer', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer({ config: { limitOverrides: { 'request-headers-timeout': 1, 'request-timeout': 2 } } });
  });
  afterAll(() => t.close());

  /** The id of the answer, which must also be in the HTTP layer's log line for `status`. */
  async function expectLogged(answer: string, status: number): Promise<string> {
    expect(Number(answer.split(' ')[1]), answer).toBe(status);
    const id = headerOf(answer, 'x-request-id');
    expect(id, answer).toMatch(UUID);
    await expect.poll(() => t.logs.filter((l) => l.msg === 'refused by the HTTP layer' && l.status === status).map((l) => l.requestId)).toContain(id);
    return id!;
  }

  it('when the headers are over the cap, the request is not HTTP or is a CONNECT, then the 431 or 400 carries a logged id', async () => {
    await expectLogged(await raw(t.base, `GET /v1/recipes HTTP/1.1\r\nHost: x\r\nX-Request-Id: mine\r\nX-Pad: ${'a'.repeat(16_384)}\r\n\r\n`), 431);
    await expectLogged(await raw(t.base, 'this is not http\r\n\r\n'), 400);
    await expectLogged(await raw(t.base, 'CONNECT vault.test:443 HTTP/1.1\r\nHost: vault.test:443\r\n\r\n'), 400);
  });

  it('when the headers or the body do not arrive in time, then the 408 carries a logged id', async () => {
    await expectLogged(await raw(t.base, 'GET /v1/recipes HTTP/1.1\r\nHost: x\r\n'), 408);
    // Headers complete, body late: the id is the one the app gave the request.
    const { key } = await givenAccount(t);
    const late = await raw(t.base, `POST /v1/recipes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Request-Id: late-body-1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{`);
    expect(Number(late.split(' ')[1]), late).toBe(408);
    expect(headerOf(late, 'x-request-id')).toBe('late-body-1');
  }, 20_000);

  it('when an HTTP/1.1 request has no Host, then the 400 carries the id it sent, or a new one', async () => {
    expect(headerOf(await raw(t.base, 'GET /v1/recipes HTTP/1.1\r\nX-Request-Id: no-host-1\r\n\r\n'), 'x-request-id')).toBe('no-host-1');
    expect(headerOf(await raw(t.base, 'GET /v1/recipes HTTP/1.1\r\nX-Request-Id: no host\r\n\r\n'), 'x-request-id')).toMatch(UUID);
  });
});

describe('the request id of an unexpected error', () => {
  it('when a request fails unexpectedly, then its "unexpected error" log line carries its request id', async () => {
    const t = await startServer();
    try {
      const { key } = await givenAccount(t);
      // A closed database makes the key lookup throw: no answer the document describes but the 500.
      await t.db.close();
      const res = await fetch(`${t.base}/v1/tokens`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': 'failing-1' } });
      expect(res.status).toBe(500);
      expect(res.headers.get('x-request-id')).toBe('failing-1');
      expect(t.logs.filter((l) => l.msg === 'unexpected error')).toEqual([expect.objectContaining({ requestId: 'failing-1' })]);
    } finally {
      await t.close();
    }
  });
});
