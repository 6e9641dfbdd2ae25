// When a call is tried again. Only a read refused with `rate_limited` is: after `Retry-After` when the
// answer carries it, otherwise after a jittered, growing backoff (an intermediary may strip the header,
// section 7.1). Writes, `too_many_pending`, `daily_limit` and every other answer are final.
import type { VaultApiError } from './errors.js';
import type { OperationId } from './operations.js';

export interface RetryOptions {
  /** Further attempts after the first. Default 2. */
  maxRetries?: number;
  /** The first backoff when `Retry-After` is missing, in ms; it doubles per attempt. Default 1000. */
  baseDelayMs?: number;
  /** The longest backoff when `Retry-After` is missing, in ms. Default 30000. */
  maxDelayMs?: number;
  /**
   * The longest `Retry-After` the client waits out, in ms. Default 30000. A refusal asking for longer
   * is final at once (its `retryAfter` says how long): retrying sooner than asked would only be refused.
   */
  maxRetryAfterMs?: number;
  /** At most this many ms added at random to a `Retry-After` wait, so that clients refused together do not return together. Default 1000. */
  retryAfterJitterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  maxRetries: 2,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 30_000,
  retryAfterJitterMs: 1_000,
});

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, maxRetries: 0 };
  return { ...DEFAULT_RETRY, ...options };
}

/** What `onRetry` receives before each wait: a retry is never silent. */
export interface RetryEvent {
  operationId: OperationId;
  /** The attempt that was refused, from 1; the next one is `attempt + 1`. */
  attempt: number;
  /** How long the client waits before the next attempt, in ms (jitter included). */
  waitMs: number;
  /** Why: the refusal being retried (429 `rate_limited`), with its `retryAfter` and `requestId`. */
  reason: VaultApiError;
}

export interface Refusal {
  method: string;
  status: number;
  /** The answer's `code` as sent, documented or not. */
  code: unknown;
  /** Seconds, when the answer carried `Retry-After`. */
  retryAfter: number | undefined;
}

/** The wait before attempt `attempt + 1` in ms, or undefined when the refusal is final. */
export function retryDelay(refusal: Refusal, attempt: number, policy: RetryPolicy, random: () => number = Math.random): number | undefined {
  if (refusal.method.toLowerCase() !== 'get') return undefined;
  if (refusal.status !== 429 || refusal.code !== 'rate_limited') return undefined;
  if (attempt > policy.maxRetries) return undefined;
  if (refusal.retryAfter !== undefined) {
    const asked = refusal.retryAfter * 1000;
    return asked > policy.maxRetryAfterMs ? undefined : asked + random() * policy.retryAfterJitterMs;
  }
  // "Equal jitter": half the ceiling for sure, the other half at random, so that clients refused
  // together do not return together.
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + random() * (ceiling / 2);
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
