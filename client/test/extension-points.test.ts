// What an integrator can add to a request: a call's own headers, and openapi-fetch middleware that
// observes and changes every attempt's request and answer. Against a real server on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { createVaultClient, VaultSettingsError, type VaultMiddleware } from '../index.js';
import { apiError, clientFor } from './support/clients.js';
import { closedAfterEachTest, EMPTY_CATALOG, json } from './support/tiny-server.js';

const { tiny } = closedAfterEachTest();
const rateLimited = { code: 'rate_limited', error: 'Too many requests.' };

describe("a call's headers", () => {
  it('when a call gives headers, then every attempt of that call sends them, and later calls do not', async () => {
    const server = await tiny((_req, res, i) => (i === 0 ? json(res, 429, rateLimited, { 'retry-after': '0' }) : json(res, 200, EMPTY_CATALOG)));
    const vault = clientFor(server, 'vk_test', { retry: { retryAfterJitterMs: 0 } });
    await vault.getTokenCatalog(undefined, { headers: { Prefer: 'code=200', traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } });
    await vault.getTokenCatalog();
    expect(server.seen.map((s) => [s.headers.prefer, s.headers.traceparent])).toEqual([
      ['code=200', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
      ['code=200', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
      [undefined, undefined],
    ]);
  });

  it("when a call's headers name the client's own, then the client's are sent: the key, the request id, the user agent", async () => {
    const server = await tiny((_req, res) => json(res, 200, EMPTY_CATALOG));
    await clientFor(server, 'vk_test').getTokenCatalog(undefined, {
      headers: { Authorization: 'Bearer vk_other', 'X-Request-Id': 'mine', 'user-agent': 'agent/1', accept: 'text/html' },
    });
    const [seen] = server.seen;
    expect(seen!.headers.authorization).toBe('Bearer vk_test');
    expect(seen!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen!.headers['user-agent']).toMatch(/^credential-vault-client\//);
    expect(seen!.headers.accept).toBe('application/json');
  });

  it('when a header cannot be carried by HTTP (a pasted newline), then the call throws VaultSettingsError and sends nothing', async () => {
    const server = await tiny((_req, res) => json(res, 202, { requestId: 'sreq_1', status: 'pending', expiresAt: 1 }));
    const error = await clientFor(server, 'vk_test')
      .fileSignupRequest({ website: 'example.com', email: 'jane@example.com' }, { headers: { traceparent: 'abc\nx-evil: 1' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultSettingsError);
    expect(error).toMatchObject({ variable: 'headers', operationId: 'fileSignupRequest' });
    expect(server.seen).toHaveLength(0);
  });
});

describe('middleware', () => {
  it('when a middleware adds a header and reads the answer, then it runs on every attempt, seeing each request id and status', async () => {
    const server = await tiny((_req, res, i) => (i === 0 ? json(res, 429, rateLimited, { 'retry-after': '0' }) : json(res, 200, EMPTY_CATALOG)));
    const log: string[] = [];
    const tracing: VaultMiddleware = {
      onRequest: ({ request }) => {
        request.headers.set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
        log.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('x-request-id')}`);
      },
      onResponse: ({ request, response }) => {
        log.push(`${response.status} ${request.headers.get('x-request-id')}`);
      },
      onError: undefined,
    };
    const vault = clientFor(server, 'vk_test', { retry: { retryAfterJitterMs: 0 }, middleware: [tracing] });
    expect(await vault.getTokenCatalog()).toEqual(EMPTY_CATALOG);
    const ids = server.seen.map((s) => s.headers['x-request-id']);
    expect(server.seen.map((s) => s.headers.traceparent)).toEqual([
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    ]);
    expect(log).toEqual([`GET /v1/tokens ${ids[0]}`, `429 ${ids[0]}`, `GET /v1/tokens ${ids[1]}`, `200 ${ids[1]}`]);
  });

  it('when a middleware replaces the answer, then the client reads the replacement as the answer', async () => {
    const server = await tiny((_req, res) => json(res, 200, EMPTY_CATALOG));
    const refuse: VaultMiddleware = {
      onResponse: () =>
        new Response(JSON.stringify({ code: 'invalid_api_key', error: 'Unknown key.' }), { status: 401, headers: { 'content-type': 'application/json' } }),
    };
    const error = await apiError(clientFor(server, 'vk_test', { middleware: [refuse] }).getTokenCatalog());
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', operationId: 'getTokenCatalog' });
    expect(server.seen).toHaveLength(1);
  });

  it('when middlewares are given in order, then each sees the request as the one before left it', async () => {
    const server = await tiny((_req, res) => json(res, 200, EMPTY_CATALOG));
    const first: VaultMiddleware = { onRequest: ({ request }) => request.headers.set('x-trace', 'a') };
    const second: VaultMiddleware = { onRequest: ({ request }) => request.headers.set('x-trace', `${request.headers.get('x-trace')}b`) };
    await clientFor(server, 'vk_test', { middleware: [first, second] }).getTokenCatalog();
    expect(server.seen[0]!.headers['x-trace']).toBe('ab');
  });

  it('when a middleware answers the request itself, then nothing is sent and its answer is the result', async () => {
    const server = await tiny((_req, res) => json(res, 200, EMPTY_CATALOG));
    const cached: VaultMiddleware = { onRequest: () => new Response(JSON.stringify({ recipes: [] }), { status: 200, headers: { 'content-type': 'application/json' } }) };
    expect(await clientFor(server, undefined, { middleware: [cached] }).getRecipes()).toEqual({ recipes: [] });
    expect(server.seen).toHaveLength(0);
  });

  it('when a middleware has no hook at all, then the client is not made', () => {
    expect(() => createVaultClient({ env: {}, middleware: [{ onRequest: undefined }] })).toThrow(/Middleware must be an object with one of/);
  });
});
