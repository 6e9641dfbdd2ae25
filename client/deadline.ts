// One call's deadline: a single signal that fires when the caller aborts or when the time is up, shared
// by every attempt and every wait between them, so that no retry outlives the call.

const TIMED_OUT = Symbol('vault request deadline');
// setTimeout fires at once for a delay above 2^31 - 1 ms (about 24.8 days); a longer deadline is cut to that.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly started = Date.now();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onCallerAbort: () => void;

  constructor(
    readonly timeoutMs: number,
    private readonly caller?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.onCallerAbort = () => this.controller.abort(caller!.reason);
    if (caller?.aborted) this.controller.abort(caller.reason);
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.timer = setTimeout(() => this.controller.abort(TIMED_OUT), Math.min(timeoutMs, LONGEST_TIMER_MS));
  }

  /** Milliseconds left. */
  remaining(): number {
    return this.timeoutMs - (Date.now() - this.started);
  }

  /** The time ran out (as opposed to the caller aborting). */
  get timedOut(): boolean {
    return this.signal.aborted && this.signal.reason === TIMED_OUT;
  }

  /** The caller's signal fired; its reason is what the call rejects with. */
  get callerAborted(): boolean {
    return this.signal.aborted && this.signal.reason !== TIMED_OUT;
  }

  /** Waits `ms`, or rejects as soon as the deadline's signal fires. */
  sleep(ms: number): Promise<void> {
    return sleep(ms, this.signal);
  }

  /**
   * `promise`, or a rejection with the signal's reason as soon as it fires, whichever comes first. A
   * fetch is handed this signal too, but through Request objects whose link to it undici may drop once
   * one is garbage-collected (nodejs/node#55428), so the call's own wait never depends on that link.
   */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) {
      // Whatever `promise` comes to, nobody waits for it any more.
      promise.catch(() => undefined);
      return Promise.reject(signal.reason);
    }
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
