/** Time for every rule of the specification. Injected so windows and expiries are testable without waiting. */
export interface Clock {
  now(): number;
}

export const realClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to; the back office and tests drive it. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('a clock only moves forward');
    this.current += ms;
    return this.current;
  }
}

/**
 * A manual clock several replicas share (store/clock.ts keeps its time): `sync` reads the shared
 * time as a request begins, and `move` moves it for every replica.
 */
export class SharedManualClock extends ManualClock {
  constructor(
    start: number,
    readonly sync: () => Promise<number>,
    private readonly moveShared: (ms: number) => Promise<number>,
  ) {
    super(start);
  }

  /** Sets this replica's time to the shared one. */
  async refresh(): Promise<void> {
    this.set(await this.sync());
  }

  async move(ms: number): Promise<number> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('a clock only moves forward');
    const now = await this.moveShared(ms);
    this.set(now);
    return now;
  }

  private set(now: number): void {
    const ahead = now - this.now();
    if (ahead > 0) this.advance(ahead);
  }
}
