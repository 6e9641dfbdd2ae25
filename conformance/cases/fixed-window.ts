import type { CaseContext } from '../runner/context.js';
import type { Exchange } from '../runner/exchange.js';
import { RunnerError, StatusMismatch } from '../runner/outcome.js';
import { sleep } from '../runner/throttle.js';

/**
 * Boundary checks of a per-minute fixed window (section 8.1) against a real clock. A deployment's
 * window resets at its own minute boundary, which a check of many requests may straddle; the
 * budget then looks larger than it is, through no fault of the deployment. The server's `Date`
 * headers tell when that may have happened.
 */

/** What of a case a window check uses. */
export type WindowContext = Pick<CaseContext, 'exchanges' | 'step'> & { env: Pick<CaseContext['env'], 'manualClock'> };

/**
 * Allowance around the `Date` headers: a header names the whole second the response left in, and
 * the request was counted before that, by up to one request's time in the server.
 */
const SLACK_MS = 1000;

/** The server's time of a response, from its `Date` header (whole seconds). */
export function serverTime(ex: Exchange): number | undefined {
  const date = ex.response.headers.date;
  const t = date ? Date.parse(date) : NaN;
  return Number.isNaN(t) ? undefined : t;
}

/**
 * Whether a boundary of fixed windows of `windowMs` may fall among the moments the server
 * counted these exchanges. Errs towards yes: a needless rerun costs little, a missed one reports a
 * deployment wrong that is not.
 */
export function mayCrossWindow(exchanges: Exchange[], windowMs: number): boolean {
  const times = exchanges.map(serverTime).filter((t): t is number => t !== undefined);
  if (times.length === 0) return false;
  const earliest = Math.min(...times) - SLACK_MS;
  const latest = Math.max(...times) + SLACK_MS - 1;
  return Math.floor(earliest / windowMs) !== Math.floor(latest / windowMs);
}

/**
 * Runs `attempt` so that it is judged inside one fixed window. With a manual clock nothing moves,
 * so it runs once. With a real clock, when a boundary may have fallen inside it, its verdict on
 * statuses is set aside and it runs again, after the boundary: an attempt opens its own accounts,
 * since what one spent across a boundary counts in the new window too. Any other failure, such as a body off its schema, stands as it came.
 */
export async function inOneFixedWindow(ctx: WindowContext, windowMs: number, attempt: () => Promise<unknown>): Promise<void> {
  const run = async (): Promise<{ failure?: StatusMismatch; crossed: boolean }> => {
    const from = ctx.exchanges.length;
    let failure: StatusMismatch | undefined;
    try {
      await attempt();
    } catch (error) {
      if (!(error instanceof StatusMismatch) || ctx.env.manualClock) throw error;
      failure = error;
    }
    return { failure, crossed: !ctx.env.manualClock && mayCrossWindow(ctx.exchanges.slice(from), windowMs) };
  };
  const first = await run();
  if (!first.crossed) {
    if (first.failure) throw first.failure;
    return;
  }
  ctx.step(`a boundary of the ${windowMs / 1000}-second window may have fallen inside the check${first.failure ? `, which saw ${first.failure.received}` : ''}; ran it again`);
  // Past the boundary by more than the slack, the next attempt starts inside the new window.
  await sleep(2 * SLACK_MS);
  const second = await run();
  // Neither attempt fitted one window: no verdict on the deployment either way.
  if (second.crossed) throw new RunnerError('timeout', `the check did not fit one ${windowMs / 1000}-second window in two attempts`);
  if (second.failure) throw second.failure;
}
