import { RunnerError } from './errors.js';

/**
 * What one exchange may cost the runner, whatever the peer does: one deadline for the whole of it,
 * and a cap on what is read of its answer. A peer that drips, stalls or never stops sending ends
 * the exchange as an error, and the run goes on to its verdict (docs/reliability.md).
 */

/**
 * The most the runner reads of one answer, as it came and again decoded: well above the largest
 * answer of the API, the full recipe bundle (docs/reliability.md says by how much).
 */
export const ANSWER_CAP = 16 * 1024 * 1024;

const CAP_TEXT = `${ANSWER_CAP / 1024 / 1024} MiB`;

/** `what` ("the answer to GET /v1/recipes") went past the cap; the rest of it is not read. */
export function overCap(what: string): RunnerError {
  return new RunnerError('network', `${what} is longer than ${CAP_TEXT}, the most the runner reads of one answer; the rest was not read`);
}

/** The deadline passed: before the answer's head (`got` undefined), or with `got` bytes of it read. */
export function late(request: string, timeoutMs: number, got?: number): RunnerError {
  return new RunnerError(
    'timeout',
    got === undefined ? `no answer to ${request} within ${timeoutMs} ms` : `the answer to ${request} did not arrive whole within ${timeoutMs} ms (${got} bytes of it by then)`,
  );
}

/** The bytes of an answer so far, in one buffer that doubles as it fills, so reading n bytes copies O(n). */
export class Received {
  private buffer = Buffer.alloc(0);
  length = 0;

  /** Adds a chunk; false, and nothing added, when it would take the answer past the cap. */
  add(chunk: Buffer): boolean {
    const length = this.length + chunk.length;
    if (length > ANSWER_CAP) return false;
    if (length > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(ANSWER_CAP, Math.max(length, 2 * this.buffer.length, 4096)));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    chunk.copy(this.buffer, this.length);
    this.length = length;
    return true;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}
