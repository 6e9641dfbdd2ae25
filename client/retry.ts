// When a call is tried again. A request that cannot be carried out twice by sending it again is sent
// again after no answer (a reset, a closed connection, a cut body) with a jittered, growing backoff: a
// read (GET changes nothing), a request that never left this process, and a write whose
// `Idempotency-Key` the deployment honours. A write that got no answer otherwise never
// is: it may or may not have been carried out (section 7.2, `write_outcome_unknown`).
//
// Refusals that say the request was not carried out are sent again after `Retry-After`: 429
// `rate_limited` (a refused request records nothing, section 8.1 item 4), 503 `storage_full` (nothing
// was kept), any 503 of a request that may be sent again (the document: handle a 503 by waiting
// `Retry-After`), and 409 `idempotency_key_in_use` (the first request with the key is still being
// carried out; the same key then gets its answer). Without `Retry-After` (an intermediary stripped it)
// a read backs off, and so does a key in use; a write does not guess: the recipe budget's refusal (24
// hours) sends none. `too_many_pending`, `daily_limit` and every other answer are final.
import type { ApiErrorCode, VaultApiError, VaultConnectionError } from './errors.js';
import type { OperationId } from './operations.js';
import type { ServiceErrorCode } from './service-codes.js';

export interface RetryOptions {
  /** Further attempts after the first, whatever their reason. Default 2. */
  maxRetries?: number | undefined;
  /** The first backoff (no `Retry-After`, or no answer), in ms; it doubles per attempt. Default 1000. */
  baseDelayMs?: number | undefined;
  /** The longest backoff, in ms. Default 30000. */
  maxDelayMs?: number | undefined;
  /**
   * The longest `Retry-After` the client waits out, in ms. Default 60000: a whole fixed window
   * (section 8.1 item 4), the longest the per-minute limits ask for. A refusal asking for longer is
   * final at once (its `retryAfter` says how long): retrying sooner than asked would only be refused.
   */
  maxRetryAfterMs?: number | undefined;
  /** At most this many ms added at random to a `Retry-After` wait, so that clients refused together do not return together. Default 1000. */
  retryAfterJitterMs?: number | undefined;
}

export type RetryPolicy = { readonly [K in keyof RetryOptions]-?: number };

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  maxRetries: 2,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  retryAfterJitterMs: 1_000,
});

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, maxRetries: 0 };
  const given = Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_RETRY, ...given };
}

/** What `onRetry` receives before each wait: a retry is never silent. */
export interface RetryEvent {
  operationId: OperationId;
  /** The attempt that failed, from 1; the next one is `attempt + 1`. */
  attempt: number;
  /** How long the client waits before the next attempt, in whole ms (jitter included). */
  waitMs: number;
  /**
   * Why: the refusal being retried (429 `rate_limited`, 503, 409 `idempotency_key_in_use`, with its
   * `retryAfter` and `requestId`), or the connection failure (refused, reset, closed before the answer).
   */
  reason: VaultApiError | VaultConnectionError;
}

/** An answer that refused the request. */
export interface Refusal {
  method: string;
  status: number;
  /** The answer's `code` as sent, documented or not. */
  code: unknown;
  /** Seconds, when the answer carried `Retry-After`. */
  retryAfter: number | undefined;
  /** Sending it again cannot carry it out twice: a read, or a write whose key the deployment honours. */
  resendable: boolean;
}

/** No answer: the connection was refused, reset or closed before a whole answer came. */
export interface NoAnswer {
  method: string;
  status?: undefined;
  /** Sending it again cannot carry it out twice: a read, one that never left, or a write whose key the deployment honours. */
  resendable: boolean;
}

const STORAGE_FULL: ApiErrorCode = 'storage_full';
const KEY_IN_USE: ServiceErrorCode = 'idempotency_key_in_use';

/** The wait before attempt `attempt + 1` in whole ms, or undefined when the failure is final. */
export function retryDelay(failure: Refusal | NoAnswer, attempt: number, policy: RetryPolicy, random: () => number = Math.random): number | undefined {
  if (attempt > policy.maxRetries) return undefined;
  if (failure.status === undefined) return failure.resendable ? backoff(attempt, policy, random) : undefined;
  if (!notCarriedOut(failure)) return undefined;
  if (failure.retryAfter !== undefined) {
    const asked = failure.retryAfter * 1000;
    return asked > policy.maxRetryAfterMs ? undefined : Math.round(asked + random() * policy.retryAfterJitterMs);
  }
  // Without the header a read backs off; a write does not guess: the recipe budget (24 hours) sends
  // none, and the per-minute windows always do unless an intermediary stripped it.
  const read = failure.method.toLowerCase() === 'get';
  return read || failure.code === KEY_IN_USE ? backoff(attempt, policy, random) : undefined;
}

/** A refusal that says the request was not carried out, so that sending it again does it at most once. */
function notCarriedOut(failure: Refusal): boolean {
  if (failure.status === 429) return failure.code === 'rate_limited';
  if (failure.status === 503) return failure.code === STORAGE_FULL || failure.resendable;
  return failure.status === 409 && failure.code === KEY_IN_USE;
}

// "Equal jitter": half the ceiling for sure, the other half at random, so that clients refused
// together do not return together.
function backoff(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * `Retry-After` in seconds: the specification's whole seconds, or an HTTP date (which an intermediary
 * may send). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
