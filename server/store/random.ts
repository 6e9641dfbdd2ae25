import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let used = POOL_BYTES;

/**
 * `n` bytes from the system's CSPRNG, drawn from a pool filled a page at a time: each call to the
 * generator costs far more than the few bytes an id, an IV or a link token takes. Every byte is
 * handed out once and wiped from the pool as it is.
 */
export function randomBytes(n: number): Buffer {
  const out = Buffer.allocUnsafe(n);
  if (n > POOL_BYTES) return randomFillSync(out);
  if (used + n > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  pool.copy(out, 0, used, used + n);
  pool.fill(0, used, used + n);
  used += n;
  return out;
}
