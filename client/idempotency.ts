// Idempotency keys on writes: the reference server's choice, not the specification's, until the
// document carries it. Every write (every POST) sends `Idempotency-Key`, a new random key per call or
// the caller's own, and every attempt of that call sends the same one. A deployment that honours keys
// answers a key it has seen with the first answer again (`Idempotent-Replayed: true`) rather than
// writing twice, and echoes the key in its answer: that echo is how the client learns it may send a
// write that got no answer again. Until then such a write is `write_outcome_unknown`, with its key.
import { VaultSettingsError } from './errors.js';
import type { OperationId } from './operations.js';

/** The request header that carries a write's key; a deployment that honours keys echoes it in its answer. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The answer header that says the answer is a replay of the first answer to the same key (`true`). */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

// 1 to 255 visible ASCII characters: what the reference server accepts.
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** A caller's own key, checked before any request: one the server would refuse is a settings problem. */
export function checkIdempotencyKey(value: string, operationId: OperationId): string {
  if (!KEY_SHAPE.test(value)) {
    throw new VaultSettingsError('idempotencyKey', `${operationId}: idempotencyKey must be 1 to 255 visible ASCII characters (no spaces)`, operationId);
  }
  return value;
}
