/** Time for every rule of the specification. Injected so windows and expiries are testable without waiting. */
export interface Clock {
  now(): number;
}

export const realClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to; the fixture surface and tests drive it. */
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
