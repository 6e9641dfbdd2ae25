// What the client does when the network, not the service, fails: a real server on 127.0.0.1 that
// resets, closes, cuts and stalls connections, or refuses them for a while, on cue. A read is sent
// again after a jittered backoff (GET changes nothing); a write that was sent is never sent again to
// a deployment not known to honour Idempotency-Key (this server echoes none), and throws
// write_outcome_unknown (section 7.2) with its key; one whose connection was refused reached nothing,
// and is sent again as a read is.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, VaultConnectionError, VaultTimeoutError, VaultWriteOutcomeUnknownError, type RetryEvent } from '../index.js';
import { clientFor } from './support/clients.js';
import { closedAfterEachTest, cut, drop, EMPTY_CATALOG, json, reset } from './support/tiny-server.js';

const { tiny } = closedAfterEachTest();
// Short backoffs keep the tests quick; the rules are the defaults'.
const quick = { baseDelayMs: 20, maxDelayMs: 40 };
const filing = { website: 'example.com', email: 'jane@example.com' };
const FILED = { requestId: 'sreq_1', status: 'pending', expiresAt: 1 };

describe('a read that gets no answer', () => {
  it.each([
    ['the connection is reset', reset],
    ['the connection is closed before the answer', drop],
    ['the answer is cut mid-body', (res: Parameters<typeof reset>[0]) => cut(res, 200, EMPTY_CATALOG)],
  ])('when %s twice, then the third attempt gets the catalog, each retry told to onRetry in whole milliseconds', async (_name, fail) => {
    const server = await tiny((_req, res, i) => (i < 2 ? fail(res) : json(res, 200, EMPTY_CATALOG)));
    const retries: RetryEvent[] = [];
    const vault = clientFor(server, 'vk_test', { retry: quick, onRetry: (e) => retries.push(e) });
    expect(await vault.getTokenCatalog()).toEqual(EMPTY_CATALOG);
    expect(server.seen).toHaveLength(3);
    expect(retries.map((r) => [r.attempt, r.reason.constructor])).toEqual([
      [1, VaultConnectionError],
      [2, VaultConnectionError],
    ]);
    expect(retries.map((r) => r.reason.requestId)).toEqual(server.seen.slice(0, 2).map((s) => s.headers['x-request-id']));
    for (const { waitMs } of retries) expect(Number.isInteger(waitMs)).toBe(true);
    // Equal jitter: between half the ceiling and the ceiling, which doubles.
    expect(retries[0]!.waitMs).toBeGreaterThanOrEqual(10);
    expect(retries[0]!.waitMs).toBeLessThanOrEqual(20);
    expect(retries[1]!.waitMs).toBeGreaterThanOrEqual(20);
    expect(retries[1]!.waitMs).toBeLessThanOrEqual(40);
  });

  it('when the port refuses connections for a while, then the read is sent again once it listens', async () => {
    const server = await tiny((_req, res) => json(res, 200, EMPTY_CATALOG));
    await server.refuse();
    const retries: RetryEvent[] = [];
    const vault = clientFor(server, 'vk_test', {
      retry: quick,
      onRetry: (event) => {
        retries.push(event);
        // Back before the second retry is sent: the first retry is refused too.
        if (event.attempt === 2) void server.accept();
      },
    });
    expect(await vault.getTokenCatalog()).toEqual(EMPTY_CATALOG);
    expect(retries).toHaveLength(2);
    expect(retries[0]!.reason).toMatchObject({ status: undefined, sent: false });
    expect(retries[0]!.reason.message).toContain('ECONNREFUSED');
    expect(server.seen).toHaveLength(1);
  });

  it('when every attempt is reset, then it stops after the bounded retries with the connection error of the last attempt', async () => {
    const server = await tiny((_req, res) => reset(res));
    const error = await clientFor(server, 'vk_test', { retry: quick }).getTokenCatalog().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultConnectionError);
    expect(error).toMatchObject({ status: undefined, code: null, sent: true, requestId: server.seen.at(-1)!.headers['x-request-id'] });
    expect((error as Error).message).toContain('ECONNRESET');
    expect(server.seen).toHaveLength(1 + DEFAULT_RETRY.maxRetries);
  });

  it('when a reset is followed by an attempt that stalls, then the deadline ends the call with request_timeout', async () => {
    const server = await tiny((_req, res, i) => (i === 0 ? reset(res) : undefined));
    const error = await clientFor(server, 'vk_test', { retry: quick, requestTimeoutMs: 500 }).getTokenCatalog().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultTimeoutError);
    expect(error).toMatchObject({ code: 'request_timeout', attempts: 2, requestId: server.seen[1]!.headers['x-request-id'] });
    await server.seen[1]!.closed;
  });

  it('when retries are turned off, then the first connection failure is final', async () => {
    const server = await tiny((_req, res) => reset(res));
    await expect(clientFor(server, 'vk_test', { retry: false }).getTokenCatalog()).rejects.toBeInstanceOf(VaultConnectionError);
    expect(server.seen).toHaveLength(1);
  });
});

describe('a write that gets no answer', () => {
  it.each([
    ['the connection is reset after the request arrived', reset, undefined],
    ['the connection is closed before the answer', drop, undefined],
    ['the 202 answer is cut mid-body', (res: Parameters<typeof reset>[0]) => cut(res, 202, FILED), 202],
  ])('when %s, then it is write_outcome_unknown with the request id and the key sent, and it is not sent again', async (_name, fail, status) => {
    const server = await tiny((_req, res) => fail(res));
    const retries: RetryEvent[] = [];
    const error = await clientFor(server, 'vk_test', { retry: quick, onRetry: (e) => retries.push(e) })
      .fileSignupRequest(filing)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultWriteOutcomeUnknownError);
    const sent = server.seen[0]!.headers['x-request-id'];
    expect(error).toMatchObject({ code: 'write_outcome_unknown', operationId: 'fileSignupRequest', requestId: sent });
    const key = server.seen[0]!.headers['idempotency-key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(error).toMatchObject({ idempotencyKey: key, attempts: 1 });
    expect((error as Error).message).toMatch(
      /^fileSignupRequest: write_outcome_unknown: .*; the write may or may not have happened, so it was not sent again \(its Idempotency-Key: [0-9a-f-]{36}\) \(request id [0-9a-f-]{36}\)$/,
    );
    expect((error as Error).message).toContain(`(request id ${sent})`);
    expect((error as Error).message).toContain(`(its Idempotency-Key: ${key})`);
    expect((error as VaultWriteOutcomeUnknownError).cause).toBeInstanceOf(VaultConnectionError);
    expect((error as VaultWriteOutcomeUnknownError).cause).toMatchObject({ status });
    expect(retries).toEqual([]);
    expect(server.seen).toHaveLength(1);
    expect(JSON.parse(server.seen[0]!.body)).toEqual(filing);
  });

  it('when the answer stalls past the deadline, then it is write_outcome_unknown, caused by the timeout, and the connection is closed', async () => {
    const server = await tiny(() => undefined);
    const error = await clientFor(server, 'vk_test', { requestTimeoutMs: 300 })
      .setLoginUsername({ label: 'acme', username: 'shopper.jane' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultWriteOutcomeUnknownError);
    expect(error).toMatchObject({ code: 'write_outcome_unknown', operationId: 'setLoginUsername', requestId: server.seen[0]!.headers['x-request-id'] });
    expect((error as Error).message).toContain('setLoginUsername: write_outcome_unknown: no answer within 300 ms; the write may or may not have happened');
    expect((error as VaultWriteOutcomeUnknownError).cause).toBeInstanceOf(VaultTimeoutError);
    expect((error as VaultWriteOutcomeUnknownError).cause).toMatchObject({ code: 'request_timeout', timeoutMs: 300, attempts: 1 });
    await server.seen[0]!.closed;
    expect(server.seen).toHaveLength(1);
  });

  it('when a write refused with rate_limited is sent again and that attempt stalls, then the deadline makes it write_outcome_unknown', async () => {
    const server = await tiny((_req, res, i) => (i === 0 ? json(res, 429, { code: 'rate_limited', error: 'Too many requests.' }, { 'retry-after': '1' }) : undefined));
    const error = await clientFor(server, 'vk_test', { retry: { retryAfterJitterMs: 0 }, requestTimeoutMs: 1_500 })
      .fileSignupRequest(filing)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultWriteOutcomeUnknownError);
    expect(error).toMatchObject({ requestId: server.seen[1]!.headers['x-request-id'], cause: { attempts: 2 } });
    expect(server.seen).toHaveLength(2);
  });

  it('when the connection is refused, then nothing was sent: it is tried again as a read is, and ends as a VaultConnectionError that says so', async () => {
    const server = await tiny((_req, res) => json(res, 202, FILED));
    await server.refuse();
    const retries: RetryEvent[] = [];
    const error = await clientFor(server, 'vk_test', { retry: quick, onRetry: (e) => retries.push(e) })
      .fileSignupRequest(filing)
      .catch((e: unknown) => e);
    await server.accept();
    expect(error).toBeInstanceOf(VaultConnectionError);
    expect(error).toMatchObject({ sent: false, status: undefined, code: null, operationId: 'fileSignupRequest' });
    expect((error as Error).message).toMatch(/^fileSignupRequest: no answer: fetch failed \(ECONNREFUSED\): nothing was sent \(request id [0-9a-f-]{36}\)$/);
    expect(retries.map((r) => [r.attempt, r.reason.constructor])).toEqual([
      [1, VaultConnectionError],
      [2, VaultConnectionError],
    ]);
    expect(server.seen).toHaveLength(0);
  });

  it('when the connection of a write is refused for a while, then it is sent again once the port listens, and written once', async () => {
    const server = await tiny((_req, res) => json(res, 202, FILED));
    await server.refuse();
    const vault = clientFor(server, 'vk_test', {
      retry: quick,
      onRetry: (event) => {
        if (event.attempt === 1) void server.accept();
      },
    });
    expect(await vault.fileSignupRequest(filing)).toEqual(FILED);
    expect(server.seen).toHaveLength(1);
  });
});

describe('a request that never left this process', () => {
  it('when the port is one fetch itself blocks, then nothing was sent: a write is a VaultConnectionError with sent false, not write_outcome_unknown', async () => {
    // 6000 (X11) is on the Fetch standard's list of bad ports: the runtime refuses it without connecting.
    const error = await clientFor({ base: 'http://127.0.0.1:6000' }, 'vk_test', { retry: false })
      .fileSignupRequest(filing)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultConnectionError);
    expect(error).toMatchObject({ sent: false, status: undefined });
    expect((error as Error).message).toMatch(/^fileSignupRequest: no answer: fetch failed \(bad port\): nothing was sent/);
  });

  it('when TLS fails before the request (https to a plain HTTP port), then nothing was sent and the server saw no request', async () => {
    const server = await tiny((_req, res) => json(res, 202, FILED));
    const error = await clientFor({ base: server.base.replace('http:', 'https:') }, 'vk_test', { retry: false })
      .fileSignupRequest(filing)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultConnectionError);
    expect(error).toMatchObject({ sent: false });
    expect(server.seen).toHaveLength(0);
  });

  it('when a middleware throws before the request is handed to fetch, then nothing was sent', async () => {
    const server = await tiny((_req, res) => json(res, 202, FILED));
    const broken = {
      onRequest: () => {
        throw new Error('the tracing middleware failed');
      },
    };
    const error = await clientFor(server, 'vk_test', { retry: false, middleware: [broken] })
      .fileSignupRequest(filing)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultConnectionError);
    expect(error).toMatchObject({ sent: false });
    expect((error as Error).message).toContain('the tracing middleware failed: nothing was sent');
    expect(server.seen).toHaveLength(0);
  });
});
