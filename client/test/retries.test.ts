// Retries and deadlines: a request refused with rate_limited (which records nothing) or storage_full
// (which keeps nothing) is tried again after Retry-After, a read also after a jittered backoff when
// the header was stripped, within bounded attempts and one deadline for the whole call; every other
// refusal is final; an AbortSignal cancels everything. What the network does (no answer) is in
// network-failures.test.ts, and the keys of writes in idempotency.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/domain/clock.js';
import { DEFAULT_RETRY, isVaultApiError, SETTING_RULES, VaultApiError, VaultTimeoutError, type RetryEvent } from '../index.js';
import { retryDelay, parseRetryAfter } from '../retry.js';
import { apiError, approvedLogin, clientFor } from './support/clients.js';
import { startSandbox, type Sandbox } from './support/sandbox.js';
import { closedAfterEachTest, EMPTY_CATALOG, json } from './support/tiny-server.js';

const { tiny, closeAfterTest } = closedAfterEachTest();
async function sandboxWith(limitOverrides: Record<string, number>, clock?: ManualClock): Promise<Sandbox> {
  const sandbox = await startSandbox({ config: { limitOverrides }, clock });
  closeAfterTest(() => sandbox.close());
  return sandbox;
}
const count = (server: { logs: Record<string, unknown>[] }, operation: string) => server.logs.filter((l) => l.operation === operation).length;
const rateLimited = { code: 'rate_limited', error: 'Too many requests.' };

// A clock that runs with real time; once set, it stands `leadMs` before a fixed one-minute window ends,
// so the server's Retry-After is a second or two and the retry lands in the next window, as it would live.
class RealTimeClock extends ManualClock {
  private offset = 0;
  override now(): number {
    return Date.now() + this.offset;
  }
  standBeforeMinuteEnds(leadMs: number): void {
    const now = Date.now();
    this.offset = Math.ceil(now / 60_000) * 60_000 + 60_000 - leadMs - now;
  }
}

describe('a read refused with rate_limited', () => {
  it('when the reference server answers 429 with Retry-After, then the client waits that long and the retry succeeds', async () => {
    const clock = new RealTimeClock();
    const sandbox = await sandboxWith({ 'catalog-per-key': 1 }, clock);
    const { key } = await sandbox.holder.account();
    clock.standBeforeMinuteEnds(1_500);
    const answers: Array<{ status: number; retryAfter: string | null; at: number; requestId: string | null }> = [];
    const retries: RetryEvent[] = [];
    const vault = clientFor(sandbox, key, {
      fetch: async (request) => {
        const response = await fetch(request);
        answers.push({ status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now(), requestId: response.headers.get('x-request-id') });
        return response;
      },
      onRetry: (event) => retries.push(event),
    });
    await vault.getTokenCatalog();
    const catalog = await vault.getTokenCatalog();
    expect(catalog.cards).toEqual(expect.any(Array));
    expect(answers.map((a) => a.status)).toEqual([200, 429, 200]);
    const retryAfter = Number(answers[1]!.retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(answers[2]!.at - answers[1]!.at).toBeGreaterThanOrEqual(retryAfter * 1000 - 20);
    // The retry was told to onRetry, with the refusal the server logged.
    expect(retries).toEqual([{ operationId: 'getTokenCatalog', attempt: 1, waitMs: expect.any(Number), reason: expect.any(VaultApiError) }]);
    const [{ waitMs, reason }] = retries as [RetryEvent];
    expect(waitMs).toBeGreaterThanOrEqual(retryAfter * 1000);
    expect(waitMs).toBeLessThanOrEqual(retryAfter * 1000 + DEFAULT_RETRY.retryAfterJitterMs);
    expect(Number.isInteger(waitMs)).toBe(true);
    expect(reason).toMatchObject({ status: 429, code: 'rate_limited', retryAfter, requestId: answers[1]!.requestId });
    expect(sandbox.server.logs.find((l) => l.requestId === reason.requestId)).toMatchObject({ status: 429, operation: 'getTokenCatalog' });
    expect(count(sandbox.server, 'getTokenCatalog')).toBe(3);
  });

  it('when Retry-After was stripped, then the retries back off with jitter and the third attempt succeeds', async () => {
    const server = await tiny((_req, res, i) => (i < 2 ? json(res, 429, rateLimited) : json(res, 200, EMPTY_CATALOG)));
    const vault = clientFor(server, 'vk_test', { retry: { baseDelayMs: 200, maxDelayMs: 1_000 } });
    expect(await vault.getTokenCatalog()).toEqual(EMPTY_CATALOG);
    expect(server.seen).toHaveLength(3);
    // Equal jitter: at least half of 200 ms, then of 400 ms.
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(100 - 20);
    expect(server.seen[2]!.at - server.seen[1]!.at).toBeGreaterThanOrEqual(200 - 20);
  });

  it('when every attempt is refused, then the client stops after the bounded retries and rejects with the refusal', async () => {
    const server = await tiny((_req, res) => json(res, 429, rateLimited));
    const vault = clientFor(server, 'vk_test', { retry: { baseDelayMs: 10, maxDelayMs: 20 } });
    const error = await apiError(vault.getTokenCatalog());
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: undefined });
    expect(server.seen).toHaveLength(1 + DEFAULT_RETRY.maxRetries);
  });

  it('when Retry-After is longer than the time left before the deadline, then the refusal is returned at once', async () => {
    const server = await tiny((_req, res) => json(res, 429, rateLimited, { 'retry-after': '120' }));
    const vault = clientFor(server, 'vk_test', { requestTimeoutMs: 5_000 });
    const started = Date.now();
    const error = await apiError(vault.getTokenCatalog());
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 120 });
    expect(server.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('when Retry-After is longer than the longest the client waits out, then the refusal is final at once and onRetry is not told', async () => {
    const server = await tiny((_req, res) => json(res, 429, rateLimited, { 'retry-after': String(DEFAULT_RETRY.maxRetryAfterMs / 1000 + 1) }));
    const retries: RetryEvent[] = [];
    const started = Date.now();
    const error = await apiError(clientFor(server, 'vk_test', { onRetry: (e) => retries.push(e) }).getTokenCatalog());
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: DEFAULT_RETRY.maxRetryAfterMs / 1000 + 1 });
    expect(server.seen).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('when a smaller cap is set, then a Retry-After over it is final and one under it is waited out', async () => {
    const server = await tiny((_req, res, i) => (i === 0 ? json(res, 429, rateLimited, { 'retry-after': '2' }) : json(res, 200, EMPTY_CATALOG)));
    await apiError(clientFor(server, 'vk_test', { retry: { maxRetryAfterMs: 1_000 } }).getTokenCatalog());
    expect(server.seen).toHaveLength(1);
    expect(await clientFor(server, 'vk_test', { retry: { maxRetryAfterMs: 2_000, retryAfterJitterMs: 0 } }).getTokenCatalog()).toEqual(EMPTY_CATALOG);
    expect(server.seen).toHaveLength(2);
  });

  it('when every attempt is refused, then onRetry is told before each wait, with the attempt, the wait and the refusal', async () => {
    const server = await tiny((_req, res) => json(res, 429, rateLimited));
    const retries: RetryEvent[] = [];
    const error = await apiError(clientFor(server, 'vk_test', { retry: { baseDelayMs: 10, maxDelayMs: 20 }, onRetry: (e) => retries.push(e) }).getTokenCatalog());
    expect(retries.map((r) => [r.operationId, r.attempt])).toEqual([
      ['getTokenCatalog', 1],
      ['getTokenCatalog', 2],
    ]);
    expect(retries[0]!.waitMs).toBeGreaterThanOrEqual(5);
    expect(retries[0]!.waitMs).toBeLessThanOrEqual(10);
    expect(retries[1]!.waitMs).toBeGreaterThanOrEqual(10);
    expect(retries[1]!.waitMs).toBeLessThanOrEqual(20);
    expect(retries.map((r) => r.reason.requestId)).toEqual(server.seen.slice(0, 2).map((s) => s.headers['x-request-id']));
    expect(error.requestId).toBe(server.seen[2]!.headers['x-request-id']);
  });

  it('when onRetry throws, then the call ends with what it threw and nothing more is sent', async () => {
    const server = await tiny((_req, res) => json(res, 429, rateLimited, { 'retry-after': '1' }));
    const stop = new Error('the agent gives up');
    const call = clientFor(server, 'vk_test', {
      onRetry: () => {
        throw stop;
      },
    }).getTokenCatalog();
    await expect(call).rejects.toBe(stop);
    expect(server.seen).toHaveLength(1);
  });

  it('when retries are turned off, then the first refusal is final', async () => {
    const server = await tiny((_req, res) => json(res, 429, rateLimited, { 'retry-after': '1' }));
    await apiError(clientFor(server, 'vk_test', { retry: false }).getTokenCatalog());
    expect(server.seen).toHaveLength(1);
  });
});

describe('writes refused with rate_limited, and answers never retried', () => {
  it('when a login write is refused with rate_limited and Retry-After, then it is sent again in the next window and filed once', async () => {
    const clock = new RealTimeClock();
    const sandbox = await sandboxWith({ 'login-writes-per-key': 1 }, clock);
    const { accountId, key } = await sandbox.holder.account({ signup: true });
    const retries: RetryEvent[] = [];
    const vault = clientFor(sandbox, key, { onRetry: (event) => retries.push(event) });
    clock.standBeforeMinuteEnds(1_500);
    // The minute's one write, spent by a filing that succeeds; the second is refused, recording nothing (section 8.1 item 4).
    const first = await vault.fileSignupRequest({ website: 'example.com', email: 'jane@example.com' });
    const second = await vault.fileSignupRequest({ website: 'example.org', email: 'jane@example.com' });
    expect(second.status).toBe('pending');
    expect(retries).toEqual([{ operationId: 'fileSignupRequest', attempt: 1, waitMs: expect.any(Number), reason: expect.any(VaultApiError) }]);
    expect(retries[0]!.reason).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(retries[0]!.waitMs).toBeGreaterThanOrEqual((retries[0]!.reason as VaultApiError).retryAfter! * 1000);
    expect(sandbox.server.logs.filter((l) => l.operation === 'fileSignupRequest').map((l) => l.status)).toEqual([202, 429, 202]);
    const links = await sandbox.holder.links(accountId);
    expect(links.filter((l) => l.kind === 'signup').map((l) => l.requestId).sort()).toEqual([first.requestId, second.requestId].sort());
  });

  it('when five requests already await the holder, then too_many_pending is final and has no Retry-After', async () => {
    const sandbox = await sandboxWith({});
    const { key } = await sandbox.holder.account({ signup: true });
    const vault = clientFor(sandbox, key);
    for (let i = 0; i < 5; i++) await vault.fileSignupRequest({ website: `site${i}.com`, email: 'jane@example.com' });
    const error = await apiError(vault.fileSignupRequest({ website: 'site5.com', email: 'jane@example.com' }));
    expect(error).toMatchObject({ status: 429, code: 'too_many_pending', retryAfter: undefined });
    expect(count(sandbox.server, 'fileSignupRequest')).toBe(6);
  });

  it('when the credential-change budget is spent, then daily_limit is final', async () => {
    const sandbox = await sandboxWith({ 'credential-changes-per-account': 1 });
    const { accountId, key } = await sandbox.holder.account({ signup: true });
    const vault = clientFor(sandbox, key);
    const { login } = await approvedLogin(sandbox, accountId, vault);
    const error = await apiError(vault.setLoginUsername({ label: login.label, username: 'shopper.jane' }));
    expect(error).toMatchObject({ status: 429, code: 'daily_limit', retryAfter: undefined });
    expect(count(sandbox.server, 'setLoginUsername')).toBe(1);
  });

  it('when a read is answered 401 or 404, then it is not retried', async () => {
    const sandbox = await sandboxWith({});
    await apiError(clientFor(sandbox, 'vk_unknown').getTokenCatalog());
    expect(count(sandbox.server, 'getTokenCatalog')).toBe(1);
    const { key } = await sandbox.holder.account();
    await apiError(clientFor(sandbox, key).getRecipeSubmission({ id: 'sub_unknown' }));
    expect(count(sandbox.server, 'getRecipeSubmission')).toBe(1);
  });

  it('when a write is refused with rate_limited and Retry-After, then it is sent again, the same body and key with a new request id', async () => {
    const server = await tiny((_req, res, i) => (i === 0 ? json(res, 429, rateLimited, { 'retry-after': '1' }) : json(res, 202, { id: 'sub_1', status: 'pending' })));
    const recipe = { key: 'example.com', kind: 'platform', status: 'partial' } as const;
    expect(await clientFor(server, 'vk_test').submitRecipe(recipe)).toEqual({ id: 'sub_1', status: 'pending' });
    expect(server.seen).toHaveLength(2);
    expect(server.seen.map((s) => JSON.parse(s.body))).toEqual([recipe, recipe]);
    expect(server.seen[1]!.headers['x-request-id']).not.toBe(server.seen[0]!.headers['x-request-id']);
    expect(server.seen[1]!.headers['idempotency-key']).toBe(server.seen[0]!.headers['idempotency-key']);
  });

  it('when a write is refused with rate_limited and no Retry-After (the recipe budget, or a stripped header), then it is final', async () => {
    const server = await tiny((_req, res) => json(res, 429, rateLimited));
    const error = await apiError(clientFor(server, 'vk_test').submitRecipe({ key: 'example.com', kind: 'platform', status: 'partial' }));
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: undefined });
    expect(server.seen).toHaveLength(1);
  });
});

describe('a 503 storage_full', () => {
  // The answer of each operation that must record something when the storage is full (the document's
  // `StorageFull` response): nothing of the request was kept, so it is sent again after Retry-After.
  const storageFull = { code: 'storage_full', error: 'The service cannot store anything right now; try again later.' };

  it('when a write is refused with storage_full and Retry-After, then it is sent again, and the retry is filed', async () => {
    const server = await tiny((_req, res, i) => (i === 0 ? json(res, 503, storageFull, { 'retry-after': '1' }) : json(res, 202, { requestId: 'sreq_1', status: 'pending', expiresAt: 1 })));
    const retries: RetryEvent[] = [];
    const filed = await clientFor(server, 'vk_test', { retry: { retryAfterJitterMs: 0 }, onRetry: (e) => retries.push(e) }).fileSignupRequest({ website: 'example.com', email: 'jane@example.com' });
    expect(filed).toMatchObject({ requestId: 'sreq_1' });
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ waitMs: 1_000, reason: { status: 503, code: 'storage_full', retryAfter: 1 } });
  });

  it('when every attempt is refused with storage_full, then the error carries its code, and isVaultApiError matches the operation that documents it', async () => {
    const server = await tiny((_req, res) => json(res, 503, storageFull, { 'retry-after': '1' }));
    const error = await apiError(clientFor(server, 'vk_test', { retry: { retryAfterJitterMs: 0, maxRetries: 1 } }).getTokenCatalog());
    expect(error).toMatchObject({ status: 503, code: 'storage_full', retryAfter: 1, error: storageFull.error });
    expect(isVaultApiError(error, 'getTokenCatalog', 503)).toBe(true);
    expect(server.seen).toHaveLength(2);
  });

  it('when a write is refused with a 503 that is not storage_full, then it is not sent again: an intermediary may have passed it on', async () => {
    const server = await tiny((_req, res) => {
      res.writeHead(503, { 'retry-after': '1', 'content-type': 'text/html' });
      res.end('<html>Service Unavailable</html>');
    });
    const error = await apiError(clientFor(server, 'vk_test').fileSignupRequest({ website: 'example.com', email: 'jane@example.com' }));
    expect(error).toMatchObject({ status: 503, code: null });
    expect(server.seen).toHaveLength(1);
  });

  it('when a read is refused with a 503 of an intermediary, then it is sent again after Retry-After', async () => {
    const server = await tiny((_req, res, i) => {
      if (i > 0) return json(res, 200, EMPTY_CATALOG);
      res.writeHead(503, { 'retry-after': '1', 'content-type': 'text/html' });
      res.end('<html>Service Unavailable</html>');
    });
    expect(await clientFor(server, 'vk_test', { retry: { retryAfterJitterMs: 0 } }).getTokenCatalog()).toEqual(EMPTY_CATALOG);
    expect(server.seen).toHaveLength(2);
  });
});

describe('the request deadline', () => {
  it('when a retry is followed by an attempt that hangs, then the one deadline covers both and the call ends with request_timeout', async () => {
    const server = await tiny((_req, res, i) => {
      if (i === 0) json(res, 429, rateLimited, { 'retry-after': '2' });
    });
    // No jitter: the wait is the 2 s asked, which fits the deadline.
    const vault = clientFor(server, 'vk_test', { requestTimeoutMs: 2_500, retry: { retryAfterJitterMs: 0 } });
    const started = Date.now();
    const error = await vault.getTokenCatalog().catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(VaultTimeoutError);
    expect(error).toMatchObject({ code: 'request_timeout', timeoutMs: 2_500, attempts: 2, operationId: 'getTokenCatalog' });
    expect(server.seen).toHaveLength(2);
    // A deadline per attempt would end after 2 s of waiting plus a full 2.5 s for the second
    // attempt, at 4.5 s; the bound sits between, far from both for a loaded machine.
    expect(elapsed).toBeGreaterThanOrEqual(2_500 - 20);
    expect(elapsed).toBeLessThan(3_800);
    await server.seen[1]!.closed;
  });

  it('when the answer to a read never comes, then the call rejects with request_timeout and the connection is closed', async () => {
    const server = await tiny(() => undefined);
    const vault = clientFor(server, 'vk_test', { requestTimeoutMs: 300 });
    const error = await vault.getTokenCatalog({ url: 'https://www.acme.com/' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'VaultTimeoutError', code: 'request_timeout', attempts: 1 });
    await server.seen[0]!.closed;
    expect(vault.warnings).toEqual([expect.stringContaining('VAULT_REQUEST_TIMEOUT_MS=300 is below 150000')]);
  });
  it("when a call sets its own timeoutMs, then it bounds that call instead of the client's deadline, either way", async () => {
    const server = await tiny((_req, res) => setTimeout(() => json(res, 200, EMPTY_CATALOG), 600));
    const vault = clientFor(server, 'vk_test', { requestTimeoutMs: 300 });
    const started = Date.now();
    const error = await vault.getTokenCatalog(undefined, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 200, attempts: 1, requestId: server.seen[0]!.headers['x-request-id'] });
    expect((error as Error).message).toBe(`getTokenCatalog: no answer within 200 ms (1 attempt) (request id ${server.seen[0]!.headers['x-request-id']})`);
    expect(Date.now() - started).toBeLessThan(600);
    await expect(vault.getTokenCatalog()).rejects.toMatchObject({ timeoutMs: 300 });
    expect(await vault.getTokenCatalog(undefined, { timeoutMs: 5_000 })).toEqual(EMPTY_CATALOG);
  });

  it('when the deadline is longer than a timer can wait, then calls still get their answer instead of timing out at once', async () => {
    const server = await tiny((_req, res) => setTimeout(() => json(res, 200, EMPTY_CATALOG), 50));
    const vault = clientFor(server, 'vk_test', { requestTimeoutMs: 3_000_000_000 });
    expect(await vault.getTokenCatalog()).toEqual(EMPTY_CATALOG);
  });
});

describe('an AbortSignal', () => {
  it('when aborted while the client waits to retry, then the call rejects with the abort reason and no retry is sent', async () => {
    const server = await tiny((_req, res) => json(res, 429, rateLimited, { 'retry-after': '1' }));
    const vault = clientFor(server, 'vk_test');
    const controller = new AbortController();
    const call = vault.getTokenCatalog(undefined, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise((r) => setTimeout(r, 1_200));
    expect(server.seen).toHaveLength(1);
  });

  it('when aborted while the request is in flight, then the connection is closed and the reason is what the call rejects with', async () => {
    const server = await tiny(() => undefined);
    const vault = clientFor(server, 'vk_test');
    const controller = new AbortController();
    const call = vault.getTokenCatalog({ url: 'https://acme.com/' }, { signal: controller.signal });
    while (server.seen.length === 0) await new Promise((r) => setTimeout(r, 10));
    const reason = new Error('the agent moved on');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    await server.seen[0]!.closed;
  });

  it('when already aborted, then no request is sent', async () => {
    const server = await tiny((_req, res) => json(res, 200, EMPTY_CATALOG));
    await expect(clientFor(server, 'vk_test').getTokenCatalog(undefined, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.seen).toHaveLength(0);
  });
});

describe('retryDelay and parseRetryAfter', () => {
  const policy = { ...DEFAULT_RETRY, maxRetries: 3, baseDelayMs: 1_000, maxDelayMs: 3_000 };
  const refusal = { method: 'get', status: 429, code: 'rate_limited', retryAfter: undefined, resendable: true };
  const write = { method: 'post', resendable: false };

  it.each([
    ['a read refused with Retry-After 7', { ...refusal, retryAfter: 7 }, 1, 7_500],
    ['a read refused with Retry-After 60, the longest waited out (a whole window)', { ...refusal, retryAfter: 60 }, 1, 60_500],
    ['a read refused with Retry-After 61, over the longest waited out', { ...refusal, retryAfter: 61 }, 1, undefined],
    ['a write refused with Retry-After 7', { ...refusal, ...write, retryAfter: 7 }, 1, 7_500],
    ['a write refused without Retry-After', { ...refusal, ...write }, 1, undefined],
    ['a write whose key is honoured, refused without Retry-After', { ...refusal, method: 'post' }, 1, undefined],
    ['a read that got no answer', { method: 'get', resendable: true }, 2, 1_500],
    ['a write that got no answer', write, 1, undefined],
    ['a write that got no answer, whose key the deployment honours', { ...write, resendable: true }, 1, 750],
    ['a read that got no answer after the last retry', { method: 'get', resendable: true }, 4, undefined],
    ['too_many_pending', { ...refusal, code: 'too_many_pending' }, 1, undefined],
    ['daily_limit', { ...refusal, code: 'daily_limit' }, 1, undefined],
    ['a 503 of a read without Retry-After', { ...refusal, status: 503, code: null }, 1, 750],
    ['a 503 of a read with Retry-After 30', { ...refusal, status: 503, code: null, retryAfter: 30 }, 1, 30_500],
    ['a 503 of a write with Retry-After 30', { ...refusal, ...write, status: 503, code: null, retryAfter: 30 }, 1, undefined],
    ['a 503 of a write whose key is honoured, with Retry-After 30', { ...refusal, method: 'post', status: 503, code: null, retryAfter: 30 }, 1, 30_500],
    ['a 503 storage_full of a write, with Retry-After 30', { ...refusal, ...write, status: 503, code: 'storage_full', retryAfter: 30 }, 1, 30_500],
    ['a 503 storage_full of a write, without Retry-After', { ...refusal, ...write, status: 503, code: 'storage_full' }, 1, undefined],
    ['a 409 idempotency_key_in_use with Retry-After 1', { ...refusal, ...write, status: 409, code: 'idempotency_key_in_use', retryAfter: 1 }, 1, 1_500],
    ['a 409 idempotency_key_in_use without Retry-After', { ...refusal, ...write, status: 409, code: 'idempotency_key_in_use' }, 1, 750],
    ['a 409 of another code', { ...refusal, ...write, status: 409, code: 'username_already_set', retryAfter: 1 }, 1, undefined],
    ['a 422 idempotency_key_reused', { ...refusal, ...write, status: 422, code: 'idempotency_key_reused', retryAfter: 1 }, 1, undefined],
    ['the attempt after the last retry', refusal, 4, undefined],
  ])('when the refusal is %s, then the wait is the one its rule gives', (_name, given, attempt, expected) => {
    expect(retryDelay(given, attempt, policy, () => 0.5)).toBe(expected);
  });

  it('when Retry-After is given, then the wait is that long plus up to a second of jitter, never less', () => {
    const given = { ...refusal, retryAfter: 7 };
    expect([0, 0.25, 0.999, 0.12345].map((r) => retryDelay(given, 1, policy, () => r))).toEqual([7_000, 7_250, 7_999, 7_123]);
    expect(retryDelay(given, 1, { ...policy, retryAfterJitterMs: 0 }, () => 0.9)).toBe(7_000);
    expect(retryDelay(given, 1, { ...policy, maxRetryAfterMs: 6_999 }, () => 0)).toBeUndefined();
  });

  it('when Retry-After is missing, then the wait is between half the ceiling and the ceiling, which doubles up to the maximum', () => {
    expect([1, 2, 3].map((n) => retryDelay(refusal, n, policy, () => 0))).toEqual([500, 1_000, 1_500]);
    expect([1, 2, 3].map((n) => retryDelay(refusal, n, policy, () => 1))).toEqual([1_000, 2_000, 3_000]);
  });

  it('when Retry-After is whole seconds, an HTTP date or garbage, then it reads as seconds or not at all', () => {
    const now = Date.UTC(2026, 0, 5, 12, 0, 0);
    expect(parseRetryAfter('3', now)).toBe(3);
    expect(parseRetryAfter(new Date(now + 4_500).toUTCString(), now)).toBe(4);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe("the worst case the client guide states", () => {
  it("when the guide's figures are computed from the client's defaults, then they match", () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'openapi', 'guides', 'client.md'), 'utf8').replace(/\s+/g, ' ');
    const { maxRetries, maxRetryAfterMs, retryAfterJitterMs, baseDelayMs, maxDelayMs } = DEFAULT_RETRY;
    const s = (ms: number) => ms / 1000;
    // The longest backoff sum: the ceiling of each retry's wait, doubling from baseDelayMs up to maxDelayMs.
    const backoff = Array.from({ length: maxRetries }, (_, i) => Math.min(maxDelayMs, baseDelayMs * 2 ** i)).reduce((a, b) => a + b, 0);
    const sentence =
      `a call blocks at most ${s(SETTING_RULES.requestTimeoutMs.default)} s, the default \`VAULT_REQUEST_TIMEOUT_MS\`, whatever the server or the network does, ` +
      `and then throws \`VaultTimeoutError\` (a write in flight then: \`VaultWriteOutcomeUnknownError\`); of that, waiting to retry takes at most ${s(maxRetries * (maxRetryAfterMs + retryAfterJitterMs))} s ` +
      `(${maxRetries} retries, each after a \`Retry-After\` of at most ${s(maxRetryAfterMs)} s plus up to ${s(retryAfterJitterMs)} s of jitter), ` +
      `or at most ${s(backoff)} s of backoff when \`Retry-After\` was stripped or no answer came.`;
    expect(readme).toContain(sentence);
  });
});
