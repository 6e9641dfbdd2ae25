// What a call throws. Callers branch on `code`, as the specification says (section 7): an HTTP answer
// the document describes carries its code; anything else (a proxy's HTML page, a cut connection) is
// still one of these classes, never a bare parse failure.
import type { components } from './generated/schema.js';
import { CLIENT_ERROR_CODES, CLIENT_ERROR_MEANINGS, OPERATIONS } from './generated/document.js';
import type { ErrorCode, ErrorStatus, OperationId } from './operations.js';
import type { ServiceErrorCode } from './service-codes.js';
import type { WebhookVerificationFailure } from './webhooks.js';

type RecipeProblem = components['schemas']['RecipeProblem'];
/** A code of specification section 7.2, raised by client libraries, the proxy and the dashboard. */
export type ClientErrorCode = components['schemas']['ClientErrorCode'];
/** A code the HTTP API answers (section 7.1). */
export type ApiErrorCode = components['schemas']['ApiErrorCode'];

export { CLIENT_ERROR_CODES, CLIENT_ERROR_MEANINGS };
export type { ServiceErrorCode };

/** Every `code` an error of the client can carry: the API's, the reference server's own not yet listed per operation, and section 7.2's. */
export type VaultErrorCode = ApiErrorCode | ServiceErrorCode | ClientErrorCode;

export function isClientErrorCode(value: unknown): value is ClientErrorCode {
  return (CLIENT_ERROR_CODES as readonly unknown[]).includes(value);
}

/**
 * The base of everything the client throws: what a call throws, except the caller's own abort (its
 * signal's reason), the settings problems `createVaultClient` finds before any call, and a webhook
 * delivery `constructWebhookEvent` refuses. `VaultClientError` is the union of its classes.
 */
export abstract class VaultError extends Error {
  abstract override readonly name: VaultClientError['name'];
  abstract readonly code: VaultErrorCode | null;
  /** The operation that failed: the document's operationId and the client's method name; undefined for a problem of the client's settings. */
  readonly operationId: OperationId | undefined;
  /**
   * The id to quote to the service's support: the answer's `X-Request-Id`, or else the one the client
   * sent with its last attempt (no answer, or an intermediary's). Undefined when nothing was sent.
   */
  readonly requestId: string | undefined;
  constructor(operationId: OperationId | undefined, message: string, options?: { cause?: unknown; requestId?: string | undefined }) {
    super(options?.requestId === undefined ? message : `${message} (request id ${options.requestId})`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.operationId = operationId;
    this.requestId = options?.requestId;
  }
}

// Maps over every operationId rather than using `Op` itself, so that `any` (what `instanceof` gives a
// generic class) reads as every operation, never as `any`.
type Known<Op extends OperationId> = { [K in OperationId]: Op extends K ? K : never }[OperationId];
type StatusOf<Status extends number> = number extends Status ? number : Status;
// The reference server's codes not yet listed per operation belong to no documented status, so an
// error narrowed to an operation's statuses never carries one.
type UnlistedCode<Status extends number> = number extends Status ? ServiceErrorCode : never;

/**
 * A non-2xx answer, or a 2xx the client cannot return: its body is not JSON, is not the shape the
 * operation answers with, or is over the client's size cap. `code` is the answer's code when the
 * document gives it for this operation and status, one of `SERVICE_ANSWERS` (the reference server's
 * own, such as 409 `idempotency_key_in_use`), and null for an answer neither describes, such as a proxy's HTML
 * 502 or a redirect (never followed); `body` then holds the start of it. Typed as every code the
 * document gives any operation and the service codes; `isVaultApiError(e, operationId)` narrows it to
 * one operation's documented statuses and their codes, and `isVaultApiError(e, operationId, status)`
 * to the codes of one status.
 */
export class VaultApiError<Op extends OperationId = OperationId, Status extends number = number> extends VaultError {
  override readonly name = 'VaultApiError';
  declare readonly operationId: Known<Op>;
  readonly status: StatusOf<Status>;
  readonly code: ErrorCode<Op, Status> | UnlistedCode<Status> | null;
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
    status: Status;
    code: ErrorCode<Op, Status> | ServiceErrorCode | null;
    error: string;
    retryAfter?: number | undefined;
    errors?: RecipeProblem[] | undefined;
    body?: string | undefined;
    requestId?: string | undefined;
  }) {
    super(init.operationId, `${init.operationId}: ${init.status} ${init.code ?? '(undocumented answer)'}: ${init.error}`, { requestId: init.requestId });
    this.status = init.status as StatusOf<Status>;
    this.code = init.code as ErrorCode<Op, Status> | UnlistedCode<Status> | null;
    this.error = init.error;
    this.retryAfter = init.retryAfter;
    this.errors = init.errors;
    this.body = init.body;
  }
}

/**
 * No complete answer: the connection was refused, reset or closed, or the body was cut off. `status`
 * is set when the status line arrived before the cut. A read, or a request that never left this
 * process (`sent` false), fails this way only after its retries; a write that was sent and got no
 * answer is a `VaultWriteOutcomeUnknownError` instead, with this as its `cause`.
 */
export class VaultConnectionError extends VaultError {
  override readonly name = 'VaultConnectionError';
  declare readonly operationId: OperationId;
  readonly code = null;
  /**
   * False when nothing of the request left this process: the connection was refused, the name did not
   * resolve, TLS failed before the request, the runtime's fetch blocks the port, or a middleware threw
   * before it was handed to fetch.
   */
  readonly sent: boolean;
  constructor(
    operationId: OperationId,
    readonly status: number | undefined,
    cause: unknown,
    requestId?: string | undefined,
    options: { handedToFetch?: boolean | undefined } = {},
  ) {
    const sent = options.handedToFetch !== false && !neverSent(cause);
    super(operationId, `${operationId}: ${status === undefined ? 'no answer' : `the ${status} answer was cut off`}: ${describe(cause)}${sent ? '' : ': nothing was sent'}`, {
      cause,
      requestId,
    });
    this.sent = sent;
  }
}

/**
 * `write_outcome_unknown` (section 7.2): a write was sent and no whole answer came (the connection was
 * reset or closed, the body cut off, the call's deadline passed while it was in flight, or the answer
 * carried another request's `Idempotency-Key`), so it may or may not have been carried out.
 *
 * The client sends such a write again, with the same `Idempotency-Key`, only to a deployment that
 * honours keys (one that echoed a key already, or `idempotentWrites: true`); this error then means no
 * attempt got a final answer. Otherwise the write was sent once. To recover, read whether it happened
 * (a signup request's poll, the catalog), or send it again with `{ idempotencyKey: e.idempotencyKey }`
 * to a deployment that honours keys: it answers with the first outcome and writes nothing twice.
 * `cause` is what happened to the last attempt; `requestId` is the id sent with it.
 */
export class VaultWriteOutcomeUnknownError extends VaultError {
  override readonly name = 'VaultWriteOutcomeUnknownError';
  declare readonly operationId: OperationId;
  readonly code = 'write_outcome_unknown' satisfies ClientErrorCode;
  declare readonly cause: VaultConnectionError | VaultTimeoutError | VaultApiError;
  /** The `Idempotency-Key` every attempt of the write carried: send the write again with it as `idempotencyKey`. */
  readonly idempotencyKey: string | undefined;
  /** How many times the write was sent. */
  readonly attempts: number;
  constructor(
    operationId: OperationId,
    cause: VaultConnectionError | VaultTimeoutError | VaultApiError,
    requestId: string | undefined,
    write: { idempotencyKey?: string | undefined; attempts?: number | undefined } = {},
  ) {
    const attempts = write.attempts ?? 1;
    const what =
      cause instanceof VaultTimeoutError
        ? `no answer within ${cause.timeoutMs} ms`
        : cause instanceof VaultApiError
          ? cause.error
          : `${cause.status === undefined ? 'no answer' : `the ${cause.status} answer was cut off`}: ${describe(cause.cause)}`;
    const key = write.idempotencyKey === undefined ? '' : ` with Idempotency-Key ${write.idempotencyKey}`;
    const sent = attempts <= 1 ? `so it was not sent again${key ? ` (its Idempotency-Key: ${write.idempotencyKey})` : ''}` : `it was sent ${attempts} times${key} and no attempt got a final answer`;
    super(operationId, `${operationId}: write_outcome_unknown: ${what}; the write may or may not have happened, ${sent}`, { cause, requestId });
    this.idempotencyKey = write.idempotencyKey;
    this.attempts = attempts;
  }
}

/**
 * The call's deadline (`VAULT_REQUEST_TIMEOUT_MS`, or the call's `timeoutMs`; every attempt and every
 * wait between them included) passed: `request_timeout`, terminal. A write in flight at that moment
 * throws `VaultWriteOutcomeUnknownError` instead, with this as its `cause`.
 */
export class VaultTimeoutError extends VaultError {
  override readonly name = 'VaultTimeoutError';
  declare readonly operationId: OperationId;
  readonly code = 'request_timeout' satisfies ClientErrorCode;
  constructor(
    operationId: OperationId,
    readonly timeoutMs: number,
    readonly attempts: number,
    requestId?: string | undefined,
  ) {
    super(operationId, `${operationId}: no answer within ${timeoutMs} ms (${attempts} attempt${attempts === 1 ? '' : 's'})`, { requestId });
  }
}

/**
 * A setting is unusable (an `VAULT_API_URL` that is not an http(s) base URL, a key with whitespace, a
 * timeout that is not a whole number of milliseconds), or one a call needs is missing (`VAULT_API_KEY`
 * for an authenticated call). Thrown by `createVaultClient` and `readVaultSettings`, or by a call
 * before any request; `variable` names the setting. Never quotes a key.
 */
export class VaultSettingsError extends VaultError {
  override readonly name = 'VaultSettingsError';
  readonly code = null;
  constructor(
    readonly variable: string,
    message: string,
    operationId?: OperationId | undefined,
  ) {
    super(operationId, message);
  }
}

/**
 * A webhook delivery `constructWebhookEvent` refused: its signature did not verify (`missing_header`,
 * `malformed`, `mismatch`, `stale`, as `verifyWebhookRequest` reports them), its body is not an event
 * (`invalid_payload`), or it is a verified event of a type the document does not describe
 * (`unknown_event_type`, with `eventType`): answer it with a 2xx and ignore it, as the document asks
 * of a receiver. Answer the others with a 4xx.
 */
export class VaultWebhookError extends VaultError {
  override readonly name = 'VaultWebhookError';
  readonly code = null;
  constructor(
    readonly reason: WebhookVerificationFailure | 'invalid_payload' | 'unknown_event_type',
    message: string,
    /** The verified event's `type`, when the reason is `unknown_event_type`. */
    readonly eventType?: string | undefined,
  ) {
    super(undefined, `webhook delivery refused: ${reason}: ${message}`);
  }
}

/**
 * Every error the client throws, discriminated by `name`: a `switch (e.name)` after `isVaultError(e)`
 * is checked for exhaustiveness (`e satisfies never` in its default compiles only when every class is
 * handled).
 */
export type VaultClientError =
  | VaultApiError
  | VaultConnectionError
  | VaultTimeoutError
  | VaultWriteOutcomeUnknownError
  | VaultSettingsError
  | VaultWebhookError;

/** True when `error` is one the client threw, typed as the union of its classes. */
export function isVaultError(error: unknown): error is VaultClientError {
  return error instanceof VaultError;
}

/**
 * A `VaultApiError` of one of the operation's documented error statuses, as `isVaultApiError(e, op)`
 * narrows it: `status` is one of those statuses and `code` one of the operation's codes (or null: an
 * answer of such a status whose body the document does not describe). One type rather than a union
 * per status, so that an exhaustive `switch (e.code)` closes with `e.code satisfies never`.
 */
export type OperationApiError<Op extends OperationId> = VaultApiError<Op, ErrorStatus<Op> & number>;

/**
 * True when `error` is a VaultApiError. With `operationId`, only one of that operation whose status is
 * one the document gives it: `status` is typed as those statuses and `code` as that operation's codes
 * (an answer of another status, such as a proxy's 502, is a VaultApiError this does not match). With
 * `status` too, only one of that status, whose `code` is typed as the codes of that status (or null:
 * an answer of that status the document does not describe).
 */
export function isVaultApiError(error: unknown): error is VaultApiError;
export function isVaultApiError<Op extends OperationId>(error: unknown, operationId: Op): error is OperationApiError<Op>;
export function isVaultApiError<Op extends OperationId, Status extends ErrorStatus<Op> & number>(
  error: unknown,
  operationId: Op,
  status: Status,
): error is VaultApiError<Op, Status>;
export function isVaultApiError(error: unknown, operationId?: OperationId, status?: number): boolean {
  if (!(error instanceof VaultApiError)) return false;
  if (operationId === undefined) return true;
  if (error.operationId !== operationId) return false;
  const listed = (OPERATIONS[operationId].errors as Partial<Record<number, readonly string[]>>)[error.status];
  // A code the document does not list for this status (the reference server's own) is not a documented answer.
  if (!listed || (error.code !== null && !listed.includes(error.code))) return false;
  return status === undefined || error.status === status;
}

// Failures before any byte of the request left: the connection was never made, or TLS failed before
// the request could be written. Nothing reached the service.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);
const TLS_FAILURE = /^ERR_(TLS|SSL)_|CERT|UNABLE_TO_VERIFY/;
// undici's reason for a port the Fetch standard blocks ("bad port"); it has no code.
const BLOCKED_PORT = 'bad port';

function neverSent(cause: unknown): boolean {
  const inner = cause instanceof Error ? (cause as { cause?: unknown }).cause : undefined;
  if (inner instanceof Error && inner.message === BLOCKED_PORT) return true;
  const code = inner && typeof inner === 'object' && 'code' in inner ? (inner as { code: unknown }).code : undefined;
  return typeof code === 'string' && (NOT_SENT.has(code) || TLS_FAILURE.test(code));
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // fetch says only "fetch failed"; why is in its cause (ECONNREFUSED, "bad port", ...).
  const inner = (cause as { cause?: unknown }).cause;
  if (inner && typeof inner === 'object' && 'code' in inner) return `${cause.message} (${String((inner as { code: unknown }).code)})`;
  if (inner instanceof Error) return `${cause.message} (${inner.message})`;
  return cause.message;
}
