// Waiting for the account holder's decision on a signup request (sections 3 and 4.7): poll with a
// growing, jittered interval, never past the request's `expiresAt`.
import type { components } from './generated/schema.js';
import { sleep } from './deadline.js';
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
  intervalMs?: number;
  /** The longest wait between polls, in ms. Default 30000. */
  maxIntervalMs?: number;
}

const DEFAULT_INTERVAL_MS = 1_000;
const DEFAULT_MAX_INTERVAL_MS = 30_000;
const GROWTH = 1.5;

type Poll = (input: { id: string }, options?: CallOptions) => Promise<SignupRequestStatus>;

/**
 * Polls a signup request until it leaves `pending` and returns its final state, discriminated by
 * `status`. The waits grow from `intervalMs` to `maxIntervalMs`, jittered, and are cut short so that
 * the last poll is at `expiresAt`, never after it. An absent `passwordOwnerManaged` (an older
 * deployment, section 9) is false. `signal` cancels the wait and the poll in flight. Each poll is
 * one call, with its own deadline (`timeoutMs`, or the client's) and retries.
 */
export async function waitForSignupRequest(poll: Poll, id: string, options: WaitForSignupOptions = {}): Promise<SignupOutcome> {
  const { signal, apiKey, timeoutMs } = options;
  const maxInterval = options.maxIntervalMs ?? DEFAULT_MAX_INTERVAL_MS;
  let interval = Math.min(options.intervalMs ?? DEFAULT_INTERVAL_MS, maxInterval);
  for (;;) {
    const answer = await poll({ id }, { signal, apiKey, timeoutMs });
    if (answer.status === 'approved') return { ...answer, passwordOwnerManaged: answer.passwordOwnerManaged ?? false };
    if (answer.status !== 'pending') return answer;
    const now = Date.now();
    if (answer.expiresAt <= now) return answer;
    await sleepUntil(Math.min(now + interval / 2 + (Math.random() * interval) / 2, answer.expiresAt), signal);
    interval = Math.min(interval * GROWTH, maxInterval);
  }
}

// Timers run on a monotonic clock and may fire a few ms before the wall clock reaches the mark, so
// the wait goes on until `Date.now()` has passed it: a poll meant for `expiresAt` is never early.
async function sleepUntil(at: number, signal?: AbortSignal): Promise<void> {
  for (let rest = at - Date.now(); rest > 0; rest = at - Date.now()) await sleep(rest, signal);
}
