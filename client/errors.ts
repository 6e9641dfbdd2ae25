// What a call throws. Callers branch on `code`, as the specification says (section 7): an HTTP answer
// the document describes carries its code; anything else (a proxy's HTML page, a cut connection) is
// still one of these classes, never a bare parse failure.
import type { components } from './generated/schema.js';
import { CLIENT_ERROR_CODES, CLIENT_ERROR_MEANINGS } from './generated/document.js';
import type { ErrorCode, OperationId } from './operations.js';

type RecipeProblem = components['schemas']['RecipeProblem'];
/** A code of specification section 7.2, raised by client libraries, the proxy and the dashboard. */
export type ClientErrorCode = components['schemas']['ClientErrorCode'];
/** A code the HTTP API answers (section 7.1). */
export type ApiErrorCode = components['schemas']['ApiErrorCode'];

export { CLIENT_ERROR_CODES, CLIENT_ERROR_MEANINGS };

export function isClientErrorCode(value: unknown): value is ClientErrorCode {
  return (CLIENT_ERROR_CODES as readonly unknown[]).includes(value);
}

/** The base of everything a call throws, except the caller's own abort (its signal's reason). */
export abstract class VaultError extends Error {
  abstract readonly code: string | null;
  constructor(
    /** The operation that failed: the document's operationId and the client's method name. */
    readonly operationId: OperationId,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A non-2xx answer, or a 2xx whose body is not JSON. `code` is the answer's code when the document
 * gives it for this operation and status (so it is typed as that operation's codes), and null for an
 * answer the document does not describe, such as a proxy's HTML 502; `body` then holds the start of it.
 */
export class VaultApiError<Op extends OperationId = OperationId> extends VaultError {
  override readonly name = 'VaultApiError';
  declare readonly operationId: Op;
  readonly status: number;
  readonly code: ErrorCode<Op> | null;
  /** The answer's `error`, for people (its wording may change), or a description of an undocumented answer. */
  readonly error: string;
  /** `Retry-After`, in seconds, when the answer carried it. */
  readonly retryAfter: number | undefined;
  /** The problems of a 400 `invalid_recipe`. */
  readonly errors: RecipeProblem[] | undefined;
  /** The start of an undocumented answer's body (at most 2,000 characters); undefined for a documented one. */
  readonly body: string | undefined;

  constructor(init: {
    operationId: Op;
    status: number;
    code: ErrorCode<Op> | null;
    error: string;
    retryAfter?: number;
    errors?: RecipeProblem[];
    body?: string;
  }) {
    super(init.operationId, `${init.operationId}: ${init.status} ${init.code ?? '(undocumented answer)'}: ${init.error}`);
    this.status = init.status;
    this.code = init.code;
    this.error = init.error;
    this.retryAfter = init.retryAfter;
    this.errors = init.errors;
    this.body = init.body;
  }
}

/**
 * No complete answer: the connection was refused or reset, or the body was cut off. `status` is set
 * when the status line arrived before the cut. A write that fails this way may or may not have been
 * carried out; it is never retried.
 */
export class VaultConnectionError extends VaultError {
  override readonly name = 'VaultConnectionError';
  readonly code = null;
  constructor(
    operationId: OperationId,
    readonly status: number | undefined,
    cause: unknown,
  ) {
    super(operationId, `${operationId}: ${status === undefined ? 'no answer' : `the ${status} answer was cut off`}: ${describe(cause)}`, { cause });
  }
}

/**
 * The call's deadline (`VAULT_REQUEST_TIMEOUT_MS`, every attempt and every wait between them
 * included) passed: `request_timeout`, terminal. A write may or may not have been carried out.
 */
export class VaultTimeoutError extends VaultError {
  override readonly name = 'VaultTimeoutError';
  readonly code = 'request_timeout' satisfies ClientErrorCode;
  constructor(
    operationId: OperationId,
    readonly timeoutMs: number,
    readonly attempts: number,
  ) {
    super(operationId, `${operationId}: no answer within ${timeoutMs} ms (${attempts} attempt${attempts === 1 ? '' : 's'})`);
  }
}

/** A setting a call needs is missing or unusable (`VAULT_API_KEY` for an authenticated call). Thrown before any request. */
export class VaultSettingsError extends Error {
  override readonly name = 'VaultSettingsError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * True when `error` is a VaultApiError; with `operationId`, only one of that operation, whose
 * `code` is then typed as that operation's codes.
 */
export function isVaultApiError<Op extends OperationId = OperationId>(error: unknown, operationId?: Op): error is VaultApiError<Op> {
  return error instanceof VaultApiError && (operationId === undefined || error.operationId === operationId);
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // fetch says only "fetch failed"; why is in its cause (ECONNREFUSED, "bad port", ...).
  const inner = (cause as { cause?: unknown }).cause;
  if (inner && typeof inner === 'object' && 'code' in inner) return `${cause.message} (${String((inner as { code: unknown }).code)})`;
  if (inner instanceof Error) return `${cause.message} (${inner.message})`;
  return cause.message;
}
