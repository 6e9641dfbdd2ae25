// waitForSignupRequest against the reference server: the account holder approves or denies through the
// request's link, or the manual clock passes the 24 hours; the poller returns the final state.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../server/domain/clock.js';
import { waitForSignupRequest } from '../signup.js';
import { clientFor } from './support/clients.js';
import { startSandbox, until, type Sandbox } from './support/sandbox.js';
import { VaultApiError, VaultConnectionError, VaultSettingsError, type components, type RetryEvent } from '../index.js';
import { forward, json, reset, startTinyServer, type TinyServer } from './support/tiny-server.js';

type SignupRequestStatus = components['schemas']['SignupRequestStatus'];
const DAY_MS = 24 * 60 * 60 * 1000;
const fast = { intervalMs: 40, maxIntervalMs: 200 };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
const others: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (others.length > 0) await others.pop()!.close();
});

async function filed(target: Sandbox = sandbox, beforeFiling = () => {}) {
  const { accountId, key } = await target.holder.account({ signup: true });
  const polls: number[] = [];
  const vault = clientFor(target, key, {
    fetch: (request) => {
      if (new URL(request.url).pathname.startsWith('/v1/logins/requests/')) polls.push(Date.now());
      return fetch(request);
    },
  });
  beforeFiling();
  const request = await vault.fileSignupRequest({ website: 'example.com', email: 'jane@example.com' });
  return { accountId, vault, request, polls };
}

describe('waitForSignupRequest', () => {
  it('when the account holder approves, then it returns approved with the login, the policy and passwordOwnerManaged false', async () => {
    const { accountId, vault, request, polls } = await filed();
    const waiting = vault.waitForSignupRequest(request.requestId, fast);
    await until(async () => (polls.length >= 2 ? true : undefined));
    await sandbox.holder.decideSignup(accountId, request.requestId, 'approve');
    const outcome = await waiting;
    expect(outcome.status).toBe('approved');
    if (outcome.status !== 'approved') return;
    expect(outcome.login).toMatchObject({ label: 'example', website: 'example.com', hasEmail: true, tokens: { password: expect.any(String) } });
    expect(outcome.passwordPolicy).toMatchObject({ length: 24, classes: expect.arrayContaining(['lowercase', 'uppercase', 'digit']) });
    expect(outcome.passwordOwnerManaged).toBe(false);
  });

  it('when the account holder denies, then it returns denied', async () => {
    const { accountId, vault, request, polls } = await filed();
    const waiting = vault.waitForSignupRequest(request.requestId, fast);
    await until(async () => (polls.length >= 1 ? true : undefined));
    await sandbox.holder.decideSignup(accountId, request.requestId, 'deny');
    expect(await waiting).toEqual({ status: 'denied' });
  });

  it('when 24 hours pass on the server clock with no decision, then it returns expired', async () => {
    const own = await startSandbox();
    others.push(own);
    const { vault, request, polls } = await filed(own);
    const waiting = vault.waitForSignupRequest(request.requestId, fast);
    await until(async () => (polls.length >= 2 ? true : undefined));
    await own.holder.advanceClock(DAY_MS);
    expect(await waiting).toEqual({ status: 'expired' });
  });

  it('when the account holder replaced the password before the poll, then passwordOwnerManaged is true', async () => {
    const { accountId, vault, request } = await filed();
    await sandbox.holder.decideSignup(accountId, request.requestId, 'approve');
    const approved = await vault.getSignupRequest({ id: request.requestId });
    if (approved.status !== 'approved') throw new Error(approved.status);
    await sandbox.holder.replaceLoginPassword(accountId, approved.login.label, 'my own passphrase');
    expect(await vault.waitForSignupRequest(request.requestId, fast)).toMatchObject({ status: 'approved', passwordOwnerManaged: true });
  });

  it('when the server keeps answering pending past expiresAt, then the last poll is at expiresAt and it returns pending', async () => {
    // The server's clock stands still, set when the request is filed to two seconds before its 24
    // hours end, so it answers pending for as long as anyone asks; this machine's clock passes expiresAt.
    const clock = new ManualClock(Date.now() - DAY_MS);
    const own = await startSandbox({ clock });
    others.push(own);
    const { vault, request, polls } = await filed(own, () => clock.advance(Date.now() + 2_000 - DAY_MS - clock.now()));
    const outcome = await vault.waitForSignupRequest(request.requestId, { intervalMs: 300, maxIntervalMs: 600 });
    const returnedAt = Date.now();
    expect(outcome).toEqual({ status: 'pending', expiresAt: request.expiresAt });
    expect(returnedAt).toBeGreaterThanOrEqual(request.expiresAt);
    expect(polls.every((at) => at <= request.expiresAt + 250)).toBe(true);
    expect(polls.at(-1)!).toBeGreaterThanOrEqual(request.expiresAt);
    const count = polls.length;
    await new Promise((r) => setTimeout(r, 700));
    expect(polls).toHaveLength(count);
  });

  it('when still pending, then the waits between polls grow', async () => {
    const { vault, request, polls } = await filed();
    const controller = new AbortController();
    const waiting = vault.waitForSignupRequest(request.requestId, { intervalMs: 100, maxIntervalMs: 10_000, signal: controller.signal });
    await until(async () => (polls.length >= 5 ? true : undefined));
    controller.abort();
    await waiting.catch(() => undefined);
    const gaps = polls.slice(1, 5).map((at, i) => at - polls[i]!);
    // Each wait is at least half of 100 ms grown by half per poll.
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual((100 * 1.5 ** i) / 2 - 20));
    expect(gaps[3]!).toBeGreaterThan(100 / 2);
  });

  it('when the signal aborts during a wait, then it rejects with the abort reason and polls no more', async () => {
    const { vault, request, polls } = await filed();
    const controller = new AbortController();
    const waiting = vault.waitForSignupRequest(request.requestId, { intervalMs: 1_000, signal: controller.signal });
    await until(async () => (polls.length >= 1 ? true : undefined));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise((r) => setTimeout(r, 1_100));
    expect(polls).toHaveLength(1);
  });

  it('when an older deployment leaves passwordOwnerManaged out, then it reads as false', async () => {
    // The reference server always sends the member; a tiny server answers as an older deployment would.
    const approved = {
      status: 'approved',
      login: { label: 'example', website: 'example.com', extraWebsites: [], hasEmail: true, hasTotp: false, tokens: { password: 'tok_password' } },
      passwordPolicy: { length: 24, classes: ['lowercase', 'uppercase', 'digit', 'symbol'], symbolAlphabet: '!@#' },
    };
    const older: TinyServer = await startTinyServer((_req, res) => json(res, 200, approved));
    others.push(older);
    const outcome = await clientFor(older, 'vk_test').waitForSignupRequest('sreq_1');
    expect(outcome).toEqual({ ...approved, passwordOwnerManaged: false });
  });
});

/**
 * A filed request, polled through a server in front of the reference server that passes requests on
 * until the test breaks the network: `mode.reset` resets each poll's connection; `relay.refuse()` stops
 * it listening.
 */
async function filedBehindRelay(target: Sandbox = sandbox, beforeFiling = () => {}) {
  const { accountId, key } = await target.holder.account({ signup: true });
  const mode = { reset: false };
  const relay = await startTinyServer((req, res, _i, seen) => (mode.reset ? reset(res) : forward(target.base, req, res, seen)));
  others.push(relay);
  beforeFiling();
  const request = await clientFor(target, key).fileSignupRequest({ website: 'example.com', email: 'jane@example.com' });
  const failures: RetryEvent[] = [];
  const vault = clientFor(relay, key, { retry: { baseDelayMs: 20, maxDelayMs: 40 }, onRetry: (e) => failures.push(e) });
  return { accountId, request, relay, mode, vault, failures };
}

describe('waitForSignupRequest when the network fails', () => {
  it('when the port refuses connections for several polls while the holder approves, then it keeps polling and returns approved', async () => {
    const { accountId, request, relay, vault, failures } = await filedBehindRelay();
    const waiting = vault.waitForSignupRequest(request.requestId, fast);
    // The second poll arrives once the first was answered: the poller knows expiresAt.
    await until(async () => (relay.seen.length >= 2 ? true : undefined));
    await relay.refuse();
    // Two polls fail whole (each after its own two retries): six refused attempts.
    await until(async () => (failures.length >= 4 ? true : undefined));
    await sandbox.holder.decideSignup(accountId, request.requestId, 'approve');
    await until(async () => (failures.length >= 6 ? true : undefined));
    await relay.accept();
    const outcome = await waiting;
    expect(outcome).toMatchObject({ status: 'approved', login: { label: 'example' } });
    // The poll in flight when the port closed may be cut instead; the rest are refused.
    expect(failures.every((f) => f.reason instanceof VaultConnectionError)).toBe(true);
    expect(failures.filter((f) => f.reason.message.includes('ECONNREFUSED')).length).toBeGreaterThanOrEqual(4);
  });

  it('when each poll is reset for a while, then it keeps polling and returns the decision', async () => {
    const { accountId, request, relay, mode, vault, failures } = await filedBehindRelay();
    const waiting = vault.waitForSignupRequest(request.requestId, fast);
    await until(async () => (relay.seen.length >= 2 ? true : undefined));
    mode.reset = true;
    await until(async () => (failures.length >= 6 ? true : undefined));
    await sandbox.holder.decideSignup(accountId, request.requestId, 'deny');
    mode.reset = false;
    expect(await waiting).toEqual({ status: 'denied' });
    expect(failures.some((f) => f.reason.message.includes('ECONNRESET'))).toBe(true);
  });

  it('when polls still get no answer at expiresAt, then the poll at expiresAt is the last and its failure is thrown', async () => {
    // The server's clock stands still, set so the request expires two seconds after it is filed.
    const clock = new ManualClock(Date.now() - DAY_MS);
    const own = await startSandbox({ clock });
    others.push(own);
    const { request, relay, mode, vault } = await filedBehindRelay(own, () => clock.advance(Date.now() + 2_000 - DAY_MS - clock.now()));
    const waiting = vault.waitForSignupRequest(request.requestId, { intervalMs: 200, maxIntervalMs: 400 }).catch((e: unknown) => e);
    await until(async () => (relay.seen.length >= 2 ? true : undefined));
    mode.reset = true;
    const error = await waiting;
    const endedAt = Date.now();
    expect(error).toBeInstanceOf(VaultConnectionError);
    expect(endedAt).toBeGreaterThanOrEqual(request.expiresAt);
    const count = relay.seen.length;
    expect(relay.seen.at(-1)!.at).toBeGreaterThanOrEqual(request.expiresAt);
    await new Promise((r) => setTimeout(r, 500));
    expect(relay.seen).toHaveLength(count);
  });

  it('when the first poll gets no answer, then it is thrown unless the filing\'s expiresAt was given', async () => {
    const { accountId, request, relay, vault, failures } = await filedBehindRelay();
    await relay.refuse();
    await expect(vault.waitForSignupRequest(request.requestId, fast)).rejects.toBeInstanceOf(VaultConnectionError);
    const waiting = vault.waitForSignupRequest(request.requestId, { ...fast, expiresAt: request.expiresAt });
    const before = failures.length;
    await until(async () => (failures.length >= before + 4 ? true : undefined));
    await sandbox.holder.decideSignup(accountId, request.requestId, 'deny');
    await relay.accept();
    expect(await waiting).toEqual({ status: 'denied' });
  });
});

describe('waitForSignupRequest and the wall clock', () => {
  afterEach(() => vi.useRealTimers());

  it('when the wall clock steps back during the last wait, then the last poll is still at expiresAt, not before', async () => {
    // Timers keep their own clock; a wall-clock step (or drift) makes the wait end a few ms early by Date.now().
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const expiresAt = Date.now() + 1_000;
    const polls: number[] = [];
    const poll = async () => {
      polls.push(Date.now());
      vi.setSystemTime(Date.now() + 10); // each answer takes 10 ms
      return { status: 'pending' as const, expiresAt };
    };
    const waiting = waitForSignupRequest(poll, 'sreq_1', { intervalMs: 5_000, maxIntervalMs: 5_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(polls).toHaveLength(1);
    vi.setSystemTime(Date.now() - 3);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await waiting).toEqual({ status: 'pending', expiresAt });
    expect(polls.at(-1)!).toBeGreaterThanOrEqual(expiresAt);
    expect(polls.at(-1)!).toBeLessThan(expiresAt + 10);
  });
});

describe('waitForSignupRequest always waits between polls', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    ['no expiresAt', {}],
    ['an expiresAt that is a string', { expiresAt: 'soon' }],
    ['an expiresAt that is null', { expiresAt: null }],
    ['an expiresAt that is not a finite number', { expiresAt: Number.POSITIVE_INFINITY }],
  ])('when a pending answer carries %s, then the polls still back off, growing from intervalMs', async (_name, extra) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const polls: number[] = [];
    const poll = async () => {
      polls.push(Date.now());
      // A poller that does not wait comes straight back: stop it rather than let it spin.
      if (polls.length >= 50) throw new Error('polled 50 times without waiting');
      return { status: 'pending', ...extra } as unknown as SignupRequestStatus;
    };
    const controller = new AbortController();
    const waiting = waitForSignupRequest(poll, 'sreq_1', { intervalMs: 1_000, maxIntervalMs: 30_000, signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    controller.abort();
    expect(await waiting).toMatchObject({ name: 'AbortError' });
    // Waits of at least half of 1 s growing by half per poll (500, 750, 1125, ...): at most 8 polls in 10 s.
    expect(polls.length).toBeGreaterThanOrEqual(4);
    expect(polls.length).toBeLessThanOrEqual(8);
    polls.slice(1).forEach((at, i) => expect(at - polls[i]!).toBeGreaterThanOrEqual((1_000 * 1.5 ** i) / 2));
  });

  it('when the interval is zero, negative or not a number, then waitForSignupRequest refuses it before polling', async () => {
    const poll = vi.fn(async () => ({ status: 'denied' }) as const);
    for (const intervalMs of [0, -5, Number.NaN]) {
      await expect(waitForSignupRequest(poll, 'sreq_1', { intervalMs })).rejects.toBeInstanceOf(VaultSettingsError);
    }
    await expect(waitForSignupRequest(poll, 'sreq_1', { maxIntervalMs: 0 })).rejects.toBeInstanceOf(VaultSettingsError);
    expect(poll).not.toHaveBeenCalled();
  });

  it('when a deployment answers pending without expiresAt, then the poll is refused as not the operation\'s answer, at once', async () => {
    const server: TinyServer = await startTinyServer((_req, res) => json(res, 200, { status: 'pending' }));
    others.push(server);
    const error = await clientFor(server, 'vk_test').waitForSignupRequest('sreq_1', fast).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultApiError);
    expect((error as VaultApiError).error).toContain('not a SignupRequestPending: it lacks expiresAt');
    expect(server.seen).toHaveLength(1);
  });
});
