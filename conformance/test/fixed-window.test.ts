import { describe, expect, it } from 'vitest';
import { inOneFixedWindow, mayCrossWindow, type WindowContext } from '../cases/fixed-window.js';
import type { Exchange } from '../runner/exchange.js';
import { CaseFailure, RunnerError, StatusMismatch } from '../runner/outcome.js';
import { spec } from '../runner/basis.js';

/**
 * A per-minute check against a real clock is judged only inside one fixed window: when the
 * server's Date headers show a boundary may have fallen inside it, a status that a moved boundary
 * explains is set aside and the check runs again; everything else stands.
 */

const MINUTE = 60_000;
const BOUNDARY = Date.UTC(2026, 10, 23, 12, 0, 0);

function exchangeAt(ms: number, status = 200): Exchange {
  return {
    operationId: 'getTokenCatalog',
    request: { method: 'GET', url: 'http://deployment/v1/tokens', headers: {} },
    response: { status, headers: { date: new Date(ms).toUTCString() }, text: '', json: undefined },
  } as unknown as Exchange;
}

function context(manualClock = false): WindowContext & { exchanges: Exchange[]; steps: string[] } {
  const exchanges: Exchange[] = [];
  const steps: string[] = [];
  return { exchanges, steps, step: (text: string) => void steps.push(text), env: { manualClock } };
}

const mismatch = (ex: Exchange) => new StatusMismatch('429 rate_limited', '200', spec('windows-fixed'), ex);

/** An attempt that answers at the given server times and then, if told, fails as a case would. */
function attempts(ctx: ReturnType<typeof context>, plan: { at: number[]; fail?: (ex: Exchange) => Error }[]) {
  let made = 0;
  const attempt = async () => {
    const { at, fail } = plan[made++]!;
    for (const t of at) ctx.exchanges.push(exchangeAt(t));
    if (fail) throw fail(ctx.exchanges.at(-1)!);
  };
  return { attempt, made: () => made };
}

describe('mayCrossWindow', () => {
  it('when every response is well inside one minute, then no boundary may have fallen among them', () => {
    expect(mayCrossWindow([exchangeAt(BOUNDARY + 5_000), exchangeAt(BOUNDARY + 40_000)], MINUTE)).toBe(false);
  });

  it('when the responses straddle a minute boundary, then one may have', () => {
    expect(mayCrossWindow([exchangeAt(BOUNDARY - 3_000), exchangeAt(BOUNDARY + 2_000)], MINUTE)).toBe(true);
  });

  it('when the first response is dated the boundary second, then the request may have been counted before it', () => {
    expect(mayCrossWindow([exchangeAt(BOUNDARY), exchangeAt(BOUNDARY + 10_000)], MINUTE)).toBe(true);
  });

  it('when the last response is dated the second before the boundary, then it was counted before it too', () => {
    expect(mayCrossWindow([exchangeAt(BOUNDARY - 20_000), exchangeAt(BOUNDARY - 1_000)], MINUTE)).toBe(false);
  });

  it('when no response carries a Date, then nothing says a boundary fell inside', () => {
    const undated = exchangeAt(BOUNDARY);
    delete (undated.response.headers as Record<string, unknown>).date;
    expect(mayCrossWindow([undated], MINUTE)).toBe(false);
  });
});

describe('inOneFixedWindow', () => {
  it('when a refusal is missing inside one minute, then the failure is reported at once', async () => {
    const ctx = context();
    const { attempt, made } = attempts(ctx, [{ at: [BOUNDARY + 10_000, BOUNDARY + 12_000], fail: mismatch }]);
    await expect(inOneFixedWindow(ctx, MINUTE, attempt)).rejects.toBeInstanceOf(StatusMismatch);
    expect(made()).toBe(1);
  });

  it('when a refusal is missing across a boundary, then the check runs again and its second verdict stands', async () => {
    const ctx = context();
    const { attempt, made } = attempts(ctx, [{ at: [BOUNDARY - 2_000, BOUNDARY + 1_000], fail: mismatch }, { at: [BOUNDARY + 4_000, BOUNDARY + 6_000] }]);
    await inOneFixedWindow(ctx, MINUTE, attempt);
    expect(made()).toBe(2);
    expect(ctx.steps.join('\n')).toMatch(/boundary of the 60-second window may have fallen inside the check, which saw 200; ran it again/);
  });

  it('when the rerun inside one minute fails too, then its failure is reported', async () => {
    const ctx = context();
    const { attempt } = attempts(ctx, [
      { at: [BOUNDARY - 2_000, BOUNDARY + 1_000], fail: mismatch },
      { at: [BOUNDARY + 4_000, BOUNDARY + 6_000], fail: mismatch },
    ]);
    await expect(inOneFixedWindow(ctx, MINUTE, attempt)).rejects.toBeInstanceOf(StatusMismatch);
  });

  it('when a body breaks the document across a boundary, then that failure stands without a rerun', async () => {
    const ctx = context();
    const schema = (ex: Exchange) => new CaseFailure('a body valid against the documented schema', 'cards missing', spec('catalog-has-cards-and-logins'), ex);
    const { attempt, made } = attempts(ctx, [{ at: [BOUNDARY - 2_000, BOUNDARY + 1_000], fail: schema }]);
    await expect(inOneFixedWindow(ctx, MINUTE, attempt)).rejects.toThrow(/documented schema/);
    expect(made()).toBe(1);
  });

  it('when the clock is manual, then a status failure stands whatever the Date headers say', async () => {
    const ctx = context(true);
    const { attempt, made } = attempts(ctx, [{ at: [BOUNDARY - 2_000, BOUNDARY + 1_000], fail: mismatch }]);
    await expect(inOneFixedWindow(ctx, MINUTE, attempt)).rejects.toBeInstanceOf(StatusMismatch);
    expect(made()).toBe(1);
  });

  it('when both attempts straddle a boundary, then the runner gives no verdict on the deployment', async () => {
    const ctx = context();
    const { attempt } = attempts(ctx, [{ at: [BOUNDARY - 2_000, BOUNDARY + 1_000] }, { at: [BOUNDARY + 58_000, BOUNDARY + 61_000] }]);
    const error = await inOneFixedWindow(ctx, MINUTE, attempt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunnerError);
    expect((error as RunnerError).kind).toBe('timeout');
  });
});
