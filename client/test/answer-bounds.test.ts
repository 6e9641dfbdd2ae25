// What one answer may cost the client, against a hostile server on 127.0.0.1: a body that streams for
// ever ends at the call's deadline, and a body larger than the cap ends at the cap, its connection
// closed either way. The deadline must hold even when the signal handed to fetch no longer reaches it:
// undici's Request stops passing its parent's abort on once it is garbage-collected
// (nodejs/node#55428), so one test runs under forced garbage collection and others with a fetch that
// ignores the signal outright, the worst that defect can do.
import type { ServerResponse } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_RESPONSE_BYTES, VaultApiError, VaultSettingsError, VaultTimeoutError, VaultWriteOutcomeUnknownError, type FetchFunction } from '../index.js';
import { clientFor } from './support/clients.js';
import { closedAfterEachTest, EMPTY_CATALOG } from './support/tiny-server.js';

const { tiny } = closedAfterEachTest();

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** A fetch that never passes the call's signal on: what the client gets once undici drops the link. */
const deaf: FetchFunction = async (request) =>
  globalThis.fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.method === 'GET' ? undefined : await request.text(),
    redirect: 'manual',
  });

/**
 * Starts a JSON body and writes to it for as long as the connection is open, up to `stopAfterMs`, when
 * it finishes the body; `state.finished` tells whether it got there, which a call that honours its
 * deadline or its cap never lets it do. `fast` writes as fast as the client reads (a client that
 * buffers without a cap grows as fast as it can); otherwise 16 KB every 5 ms.
 */
function endless(res: ServerResponse, state: { finished: boolean }, options: { status?: number; stopAfterMs?: number; fast?: boolean } = {}): void {
  res.writeHead(options.status ?? 200, { 'content-type': 'application/json' });
  res.write('{"cards":[],"logins":[],"identity":{"tokens":{},"missing":[]},"addresses":[],"pad":"');
  const chunk = Buffer.alloc(options.fast ? 64 * 1024 : 16 * 1024, 'x');
  let open = true;
  const pump = () => {
    while (open && res.write(chunk));
    if (open) res.once('drain', pump);
  };
  const timer = options.fast ? undefined : setInterval(() => open && res.write(chunk), 5);
  if (options.fast) pump();
  const stop = setTimeout(() => {
    state.finished = true;
    open = false;
    clearInterval(timer);
    res.end('"}');
  }, options.stopAfterMs ?? 5_000);
  res.on('close', () => {
    open = false;
    clearInterval(timer);
    clearTimeout(stop);
  });
}

describe('an answer that never ends', () => {
  it('when a read streams for ever under forced garbage collection, then the call ends at its deadline and closes the connection', async () => {
    const state = { finished: false };
    const server = await tiny((_req, res) => endless(res, state));
    const pressure = setInterval(gc, 10);
    try {
      const error = await clientFor(server, 'vk_test').getTokenCatalog(undefined, { timeoutMs: 1_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VaultTimeoutError);
    } finally {
      clearInterval(pressure);
    }
    await server.seen[0]!.closed;
    expect(state.finished).toBe(false);
  }, 20_000);

  it('when a read streams for ever and the fetch ignores the call signal, then the call still ends at its deadline and closes the connection', async () => {
    const state = { finished: false };
    const server = await tiny((_req, res) => endless(res, state));
    const error = await clientFor(server, 'vk_test', { fetch: deaf }).getTokenCatalog(undefined, { timeoutMs: 500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultTimeoutError);
    await server.seen[0]!.closed;
    expect(state.finished).toBe(false);
  }, 20_000);

  it('when an error answer streams for ever and the fetch ignores the call signal, then the call ends at its deadline too', async () => {
    const state = { finished: false };
    const server = await tiny((_req, res) => endless(res, state, { status: 502 }));
    const error = await clientFor(server, 'vk_test', { fetch: deaf, retry: false }).getTokenCatalog(undefined, { timeoutMs: 500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultTimeoutError);
    await server.seen[0]!.closed;
    expect(state.finished).toBe(false);
  }, 20_000);

  it('when a write is answered with a body that never ends, then it is write_outcome_unknown at the deadline', async () => {
    const state = { finished: false };
    const server = await tiny((_req, res) => endless(res, state, { status: 202 }));
    const error = await clientFor(server, 'vk_test', { fetch: deaf })
      .fileSignupRequest({ website: 'example.com', email: 'jane@example.com' }, { timeoutMs: 500 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultWriteOutcomeUnknownError);
    expect((error as VaultWriteOutcomeUnknownError).cause).toBeInstanceOf(VaultTimeoutError);
    await server.seen[0]!.closed;
    expect(state.finished).toBe(false);
  }, 20_000);

  it('when the answer never begins and the fetch ignores the call signal, then the call still ends at its deadline', async () => {
    const server = await tiny(() => undefined);
    const error = await clientFor(server, 'vk_test', { fetch: deaf }).getTokenCatalog(undefined, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultTimeoutError);
    expect(server.seen).toHaveLength(1);
  }, 20_000);
});

describe('an answer larger than the cap', () => {
  it('when the body goes past maxResponseBytes, then the call ends with a VaultApiError at the cap and the rest is never read', async () => {
    const state = { finished: false };
    const server = await tiny((_req, res) => endless(res, state, { fast: true }));
    const error = await clientFor(server, 'vk_test', { maxResponseBytes: 1024 * 1024 }).getTokenCatalog().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultApiError);
    expect(error).toMatchObject({ status: 200, code: null });
    expect((error as Error).message).toContain("a 200 answer whose body is over the client's cap of 1048576 bytes (maxResponseBytes); it was not read");
    await server.seen[0]!.closed;
    expect(state.finished).toBe(false);
    expect(server.seen).toHaveLength(1);
  }, 20_000);

  it('when the body is under the cap, then it is read and returned as usual', async () => {
    const body = JSON.stringify({ ...EMPTY_CATALOG, pad: 'x'.repeat(1000) });
    const server = await tiny((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    expect(await clientFor(server, 'vk_test', { maxResponseBytes: body.length }).getTokenCatalog()).toEqual(JSON.parse(body));
  });

  it('when Content-Length declares more than the cap, then the body is refused before it is read', async () => {
    const server = await tiny((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024) });
      res.write('{');
    });
    const error = await clientFor(server, 'vk_test', { maxResponseBytes: 1024 }).getTokenCatalog().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultApiError);
    expect((error as Error).message).toContain('over the client\'s cap of 1024 bytes');
    await server.seen[0]!.closed;
  });

  it('when no cap is given, then the default cap, 32 MiB, holds', async () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(32 * 1024 * 1024);
    const state = { finished: false };
    const server = await tiny((_req, res) => endless(res, state, { fast: true, stopAfterMs: 20_000 }));
    const error = await clientFor(server, 'vk_test').getTokenCatalog().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultApiError);
    expect((error as Error).message).toContain(`cap of ${DEFAULT_MAX_RESPONSE_BYTES} bytes`);
    await server.seen[0]!.closed;
    expect(state.finished).toBe(false);
  }, 30_000);

  it('when maxResponseBytes is not a positive whole number, then the client is not made', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => clientFor({ base: 'http://127.0.0.1:1' }, 'vk_test', { maxResponseBytes: bad }), String(bad)).toThrow(VaultSettingsError);
    }
  });
});
