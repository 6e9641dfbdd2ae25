// Types of each operation, by operationId, derived from the generated schema and the generated
// operation table: what a call takes, what it returns, and which error codes it can answer, by status.
// Nothing here is written by hand about an operation.
import type { operations } from './generated/schema.js';
import type { OPERATIONS, StrictBodyMembers } from './generated/document.js';

/** The operationIds of the document: the client's method names. */
export type OperationId = keyof typeof OPERATIONS & keyof operations;

type Responses<Op extends OperationId> = operations[Op]['responses'];
type JsonOf<R> = R extends { content: { 'application/json': infer Body } } ? Body : undefined;
type IsSuccess<Status> = `${Status & (number | string)}` extends `2${string}` ? true : false;

/** The body of the operation's 2xx answer. */
export type OperationResult<Op extends OperationId> = {
  [S in keyof Responses<Op>]: IsSuccess<S> extends true ? JsonOf<Responses<Op>[S]> : never;
}[keyof Responses<Op>];

/** The error bodies the document gives for the operation, every non-2xx status together. */
export type OperationErrorBody<Op extends OperationId> = {
  [S in keyof Responses<Op>]: IsSuccess<S> extends true ? never : JsonOf<Responses<Op>[S]>;
}[keyof Responses<Op>];

type ErrorTable<Op extends OperationId> = (typeof OPERATIONS)[Op]['errors'];

/** The error statuses the document gives for the operation (every operation's, for a union of them). */
export type ErrorStatus<Op extends OperationId = OperationId> = { [K in OperationId]: Op extends K ? keyof ErrorTable<K> : never }[OperationId];

/**
 * The `code`s the document gives for the operation, of every error status or of `Status`'s only:
 * what a caller branches on. Without `Op`, every code the document gives any operation. The map
 * over every operationId (rather than an index by `Op`) keeps this a union of codes when `Op` is
 * `any`, as `instanceof` makes it, so that a misspelt code never compiles.
 */
export type ErrorCode<Op extends OperationId = OperationId, Status extends number = number> = {
  [K in OperationId]: Op extends K ? { [S in keyof ErrorTable<K>]: S extends Status ? ErrorTable<K>[S][number & keyof ErrorTable<K>[S]] : never }[keyof ErrorTable<K>] : never;
}[OperationId];

type Present<T> = [T] extends [never] ? {} : [T] extends [undefined] ? {} : T;
type ParametersIn<Op extends OperationId, Where extends 'path' | 'query'> = Present<NonNullable<operations[Op]['parameters'][Where]>>;
type JsonBody<Op extends OperationId> = [NonNullable<operations[Op]['requestBody']>] extends [never]
  ? {}
  : NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer Body } }
    ? Body
    : {};
// The wire schema accepts any value for members the service ignores when wrong-typed; a TypeScript
// caller gets the strict type (`unknown & number` is `number`).
type Strict<Op extends OperationId> = Op extends keyof StrictBodyMembers ? StrictBodyMembers[Op] : {};

// An optional member also takes an explicit `undefined`, which is not sent (as if left out), so that
// `{ url: maybeUrl }` compiles under `exactOptionalPropertyTypes`.
type OrUndefined<T> = { [K in keyof T]: {} extends Pick<T, K> ? T[K] | undefined : T[K] };

/**
 * What a call takes: its path and query parameters and its JSON body members, in one object
 * (`{ id }`, `{ url }`, `{ website, email }`, `{ token, decision }`).
 */
export type OperationInput<Op extends OperationId> = OrUndefined<ParametersIn<Op, 'path'> & ParametersIn<Op, 'query'> & JsonBody<Op> & Strict<Op>>;

/** Options of one call. */
export interface CallOptions {
  /** Cancels the call: the request in flight, any wait before a retry, and every later attempt. */
  signal?: AbortSignal | undefined;
  /** The API key of this call, over the client's (`VAULT_API_KEY`, section 8.9: per-call options override it). */
  apiKey?: string | undefined;
  /** The deadline of this call, in whole milliseconds, over the client's (`VAULT_REQUEST_TIMEOUT_MS`): every attempt and wait included. */
  timeoutMs?: number | undefined;
  /**
   * Headers added to every attempt of this call (`Prefer` for a mock, a tracing header). The client's
   * own (`Accept`, `Authorization`, `User-Agent`, `X-Request-Id`) are not replaced; a `middleware` can.
   */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * A write's `Idempotency-Key` (1 to 255 visible ASCII characters), over the new random one the
   * client makes for every write; every attempt of the call sends it. Give the key of a
   * `VaultWriteOutcomeUnknownError` to send that write again: a deployment that honours keys answers
   * with the first outcome and writes nothing twice. Ignored on a read.
   */
  idempotencyKey?: string | undefined;
}

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

/** A client method: the input is optional when nothing in it is required. */
export type OperationMethod<Op extends OperationId> = [RequiredKeys<OperationInput<Op>>] extends [never]
  ? (input?: OperationInput<Op>, options?: CallOptions) => Promise<OperationResult<Op>>
  : (input: OperationInput<Op>, options?: CallOptions) => Promise<OperationResult<Op>>;
