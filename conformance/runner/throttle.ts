/**
 * The runner's own pace against a deployment: at most `perSecond` requests a second across all
 * cases that do not test limits (0: no pace). Cases that test limits send at full speed, since a
 * window must not end in the middle of them.
 */
export class Throttle {
  private next = 0;

  constructor(private readonly perSecond: number) {}

  async take(): Promise<void> {
    if (this.perSecond <= 0) return;
    const now = performance.now();
    const at = Math.max(now, this.next);
    this.next = at + 1000 / this.perSecond;
    if (at > now) await sleep(at - now);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
