// What the client knows of the answer a call returned (its request id above all), kept beside the
// returned body rather than inside it, so that the body stays exactly the document's type.
import type { OperationId } from './operations.js';

/** The answer a call's result came from. */
export interface VaultResponse {
  operationId: OperationId;
  /** The answer's status. */
  status: number;
  /** The id to quote to the service's support: the answer's `X-Request-Id`, or the one the client sent. */
  requestId: string;
  /** How many attempts the call took (retries included). */
  attempts: number;
  /** The `Idempotency-Key` the write carried; undefined for a read. */
  idempotencyKey: string | undefined;
  /** True when the deployment answered with the first answer to this key again (`Idempotent-Replayed: true`). */
  replayed: boolean;
}

const answers = new WeakMap<object, VaultResponse>();

/** Records the answer a result came from (results are always fresh objects parsed from the answer). */
export function remember(result: unknown, response: VaultResponse): void {
  if (typeof result === 'object' && result !== null) answers.set(result, Object.freeze({ ...response }));
}

/**
 * The answer a call's result came from, without a middleware: `responseOf(await vault.getTokenCatalog()).requestId`.
 * Undefined for a value the client did not return.
 */
export function responseOf(result: unknown): VaultResponse | undefined {
  return typeof result === 'object' && result !== null ? answers.get(result) : undefined;
}
