/**
 * Screening runs after the response (section 3): ids are queued and screened one per turn of the
 * event loop, so a burst of submissions never holds up requests. Tests await `idle()`, and
 * `pause()` keeps submissions pending until `resume()`.
 */
export class ScreeningQueue {
  private readonly queue: string[] = [];
  private scheduled = false;
  /** A screening under way: its id is no longer queued, and it is not done. */
  private running = false;
  private paused = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly run: (id: string) => Promise<void>,
    private readonly onError: (id: string, err: unknown) => void,
  ) {}

  add(...ids: string[]): void {
    this.queue.push(...ids);
    this.schedule();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.schedule();
  }

  /** Resolves once nothing is queued (never while paused with submissions waiting). */
  idle(): Promise<void> {
    if (this.queue.length === 0 && !this.running) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.running || this.paused || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => void this.step());
  }

  private async step(): Promise<void> {
    this.scheduled = false;
    if (this.paused) return;
    const id = this.queue.shift();
    if (id !== undefined) {
      this.running = true;
      try {
        await this.run(id);
      } catch (err) {
        this.onError(id, err);
      } finally {
        this.running = false;
      }
    }
    if (this.queue.length > 0) return this.schedule();
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
