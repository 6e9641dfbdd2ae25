// The longest a call blocks under the default settings, measured on a fake clock: a real server on
// 127.0.0.1 answers the worst it can (Retry-After at the longest waited out, then nothing at all), and
// the test moves the client's timers only once the exchange on the socket is done, so the time a call
// took is the client's own waits and deadline, to the millisecond, with no real minute spent.
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_RETRY, SETTING_RULES, VaultApiError, VaultConnectionError, VaultTimeoutError, type RetryEvent } from '../index.js';
import { clientFor } from './support/clients.js';
import { closedAfterEachTest, json, reset, type TinyServer } from './support/tiny-server.js';

const { tiny } = closedAfterEachTest(() => vi.useRealTimers());

/** Lets real I/O run (setImmediate is not faked) until `done` holds. */
async function realIo(done: () => boolean): Promise<void> {
  for (let turns = 0; !done(); turns++) {
    if (turns > 200_000) throw new Error('the exchange did not finish');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Runs one call with the default settings against `server`, moving the fake clock through each wait
 * the client announces and then to its deadline. Returns how it ended and the fake milliseconds it took.
 */
async function blocked(server: TinyServer, answered: (seen: number) => boolean, random = 0.999) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.spyOn(Math, 'random').mockReturnValue(random);
  const retries: RetryEvent[] = [];
  const vault = clientFor(server, 'vk_test', { onRetry: (event) => retries.push(event) });
  const started = Date.now();
  let ended: { error: unknown; ms: number } | undefined;
  void vault.getTokenCatalog().then(
    () => (ended = { error: undefined, ms: Date.now() - started }),
    (error: unknown) => (ended = { error, ms: Date.now() - started }),
  );
  for (let attempt = 1; ; attempt++) {
    // Each attempt ends the call, announces a wait, or reaches a server that keeps it hanging.
    await realIo(() => ended !== undefined || retries.length >= attempt || (server.seen.length >= attempt && !answered(attempt - 1)));
    if (ended) break;
    if (retries.length >= attempt) {
      await vi.advanceTimersByTimeAsync(retries[attempt - 1]!.waitMs);
      continue;
    }
    await vi.advanceTimersByTimeAsync(SETTING_RULES.requestTimeoutMs.default - (Date.now() - started));
    await realIo(() => ended !== undefined);
    break;
  }
  vi.restoreAllMocks();
  return { ...ended, retries, attempts: server.seen.length };
}

const rateLimited = { code: 'rate_limited', error: 'Too many requests.' };
const longest = String(DEFAULT_RETRY.maxRetryAfterMs / 1000);

describe('the worst case under the defaults', () => {
  it('when every attempt is refused with the longest Retry-After waited out, then the call ends after two waits of at most 61 s each', async () => {
    const server = await tiny((_req, res) => json(res, 429, rateLimited, { 'retry-after': longest }));
    const run = await blocked(server, () => true);
    expect(run.error).toBeInstanceOf(VaultApiError);
    expect(run.attempts).toBe(1 + DEFAULT_RETRY.maxRetries);
    expect(run.retries.map((r) => r.waitMs)).toEqual([60_999, 60_999]);
    expect(run.ms).toBe(121_998);
    expect(run.ms).toBeLessThanOrEqual(DEFAULT_RETRY.maxRetries * (DEFAULT_RETRY.maxRetryAfterMs + DEFAULT_RETRY.retryAfterJitterMs));
  });

  it('when two refusals with the longest Retry-After are followed by an attempt that never ends, then the deadline ends the call at 180 s', async () => {
    const server = await tiny((_req, res, i) => (i < 2 ? json(res, 429, rateLimited, { 'retry-after': longest }) : undefined));
    const run = await blocked(server, (i) => i < 2);
    expect(run.error).toBeInstanceOf(VaultTimeoutError);
    expect(run.error).toMatchObject({ attempts: 3, timeoutMs: SETTING_RULES.requestTimeoutMs.default });
    expect(run.ms).toBe(SETTING_RULES.requestTimeoutMs.default);
  });

  it('when the first attempt never ends, then the call ends at the deadline, 180 s', async () => {
    const server = await tiny(() => undefined);
    const run = await blocked(server, () => false);
    expect(run.error).toBeInstanceOf(VaultTimeoutError);
    expect(run.ms).toBe(SETTING_RULES.requestTimeoutMs.default);
  });

  it('when every attempt of a read is reset, then the call ends after at most 3 s of backoff', async () => {
    const server = await tiny((_req, res) => reset(res));
    const run = await blocked(server, () => true, 1);
    expect(run.error).toBeInstanceOf(VaultConnectionError);
    expect(run.retries.map((r) => r.waitMs)).toEqual([1_000, 2_000]);
    expect(run.ms).toBe(3_000);
  });
});
