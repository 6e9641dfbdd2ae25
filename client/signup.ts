// Waiting for the account holder's decision on a signup request (sections 3 and 4.7): poll with a
// growing, jittered interval, never past the request's `expiresAt`. A poll that got no answer (the
// service restarting, a network blip) is no news: the request is still where it was, so the wait goes
// on as it does for `pending`. Every poll but the first comes after a wait, whatever the answers say:
// an `expiresAt` that is missing or not a time is no reason to poll sooner.
import type { components } from './generated/schema.js';
import { sleep } from './deadline.js';
import { VaultConnectionError, VaultSettingsError, VaultTimeoutError } from './errors.js';
import type { CallOptions } from './operations.js';

type Schemas = components['schemas'];
type SignupRequestStatus = Schemas['SignupRequestStatus'];

/** Where a signup request ended up; an approved one's `passwordOwnerManaged` is always a boolean. */
export type SignupOutcome =
  | (Omit<Schemas['SignupRequestApproved'], 'passwordOwnerManaged'> & { passwordOwnerManaged: boolean })
  | Schemas['SignupRequestDenied']
  | Schemas['SignupRequestExpired']
  /** Only when `expiresAt` passed on this machine's clock while the service still answered pending. */
  | Schemas['SignupRequestPending'];

export interface WaitForSignupOptions extends CallOptions {
  /** The first wait between polls, in ms; it grows by half each poll. Default 1000. */
  intervalMs?: number | undefined;
  /** The longest wait between polls, in ms. Default 30000. */
  maxIntervalMs?: number | undefined;
  /**
   * The filing's `expiresAt`: polls that get no answer are retried until then even before any poll
   * was answered. Without it, only once a poll has told it.
   */
  expiresAt?: number | undefined;
}

const DEFAULT_INTERVAL_MS = 1_000;
const DEFAULT_MAX_INTERVAL_MS = 30_000;
const GROWTH = 1.5;

type Poll = (input: { id: string }, options?: CallOptions) => Promise<SignupRequestStatus>;

/**
 * Polls a signup request until it leaves `pending` and returns its final state, discriminated by
 * `status`. The waits grow from `intervalMs` to `maxIntervalMs`, jittered, and are cut short so that
 * the last poll is at `expiresAt`, never after it. A poll that got no answer (`VaultConnectionError`
 * after its own retries, or `VaultTimeoutError`) is followed by the next poll, as a `pending` answer
 * is, until `expiresAt`; one at or after it is thrown. An absent `passwordOwnerManaged` (an older
 * deployment, section 9) is false. `signal` cancels the wait and the poll in flight. Each poll is one
 * call, with its own deadline (`timeoutMs`, or the client's) and retries.
 */
export async function waitForSignupRequest(poll: Poll, id: string, options: WaitForSignupOptions = {}): Promise<SignupOutcome> {
  const { signal, apiKey, timeoutMs, headers } = options;
  const maxInterval = positive('maxIntervalMs', options.maxIntervalMs ?? DEFAULT_MAX_INTERVAL_MS);
  let interval = Math.min(positive('intervalMs', options.intervalMs ?? DEFAULT_INTERVAL_MS), maxInterval);
  let expiresAt = asTime(options.expiresAt);
  for (;;) {
    let answer: SignupRequestStatus;
    try {
      answer = await poll({ id }, { signal, apiKey, timeoutMs, headers });
    } catch (error) {
      const noAnswer = error instanceof VaultConnectionError || error instanceof VaultTimeoutError;
      if (!noAnswer || expiresAt === undefined || Date.now() >= expiresAt) throw error;
      await sleepUntil(nextPoll(interval, expiresAt), signal);
      interval = Math.min(interval * GROWTH, maxInterval);
      continue;
    }
    if (answer.status === 'approved') return { ...answer, passwordOwnerManaged: answer.passwordOwnerManaged ?? false };
    if (answer.status !== 'pending') return answer;
    expiresAt = asTime(answer.expiresAt) ?? expiresAt;
    if (expiresAt !== undefined && expiresAt <= Date.now()) return answer;
    await sleepUntil(nextPoll(interval, expiresAt), signal);
    interval = Math.min(interval * GROWTH, maxInterval);
  }
}

/** Half the interval for sure, the other half at random, and never after `expiresAt` when it is known. */
function nextPoll(interval: number, expiresAt: number | undefined): number {
  const next = Date.now() + interval / 2 + (Math.random() * interval) / 2;
  return expiresAt === undefined ? next : Math.min(next, expiresAt);
}

/** An interval that makes the polls wait: a zero or a NaN would poll without pause. */
function positive(option: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) throw new VaultSettingsError(option, `waitForSignupRequest: ${option} ${value} is not a positive number of milliseconds`, 'getSignupRequest');
  return value;
}

/** A millisecond timestamp, or undefined for anything else (absent, not a number, not finite). */
function asTime(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

// Timers run on a monotonic clock and may fire a few ms before the wall clock reaches the mark, so
// the wait goes on until `Date.now()` has passed it: a poll meant for `expiresAt` is never early.
async function sleepUntil(at: number, signal?: AbortSignal): Promise<void> {
  for (let rest = at - Date.now(); rest > 0; rest = at - Date.now()) await sleep(rest, signal);
}
