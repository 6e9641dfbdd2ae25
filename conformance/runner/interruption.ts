import { RunnerError } from './errors.js';

/**
 * A stop asked for by a signal (SIGINT from a terminal, SIGTERM from a CI job's timeout): no case
 * starts after it, the cases under way get `graceMs` to finish, then end as `error: interrupted`,
 * so the accounts they opened are deleted and the reports are written with what ran.
 */
export class Stop {
  signal?: NodeJS.Signals;
  private readonly waiting = new Set<() => void>();

  constructor(readonly graceMs = 5_000) {}

  get requested(): boolean {
    return this.signal !== undefined;
  }

  request(signal: NodeJS.Signals): void {
    if (this.signal) return;
    this.signal = signal;
    for (const wake of this.waiting) wake();
    this.waiting.clear();
  }

  /** The error of a case the stop ended. */
  interrupted(what: string): RunnerError {
    return new RunnerError('interrupted', `interrupted by ${this.signal ?? 'a signal'}: ${what}`);
  }

  /**
   * Rejects `graceMs` after a stop is asked for, with the error a case under way ends with. The
   * returned `cancel` forgets it once the case has ended.
   */
  expiry(): { promise: Promise<never>; cancel: () => void } {
    let timer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    const promise = new Promise<never>((_, reject) => {
      const arm = () => {
        timer = setTimeout(() => reject(this.interrupted(`the case was still running ${this.graceMs / 1000} s after it`)), this.graceMs);
      };
      if (this.requested) arm();
      else {
        wake = arm;
        this.waiting.add(arm);
      }
    });
    return {
      promise,
      cancel: () => {
        clearTimeout(timer);
        if (wake) this.waiting.delete(wake);
      },
    };
  }
}

/** The exit status of a run a signal stopped: 128 and the signal's number, as shells report it. */
export function signalExitCode(signal: NodeJS.Signals): 130 | 143 {
  return signal === 'SIGINT' ? 130 : 143;
}
