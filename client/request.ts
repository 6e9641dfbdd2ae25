// One call of one operation, end to end: input split into parameters and body, the API key, the
// deadline over every attempt, the retries of retry.ts (told to onRetry), the request id of each
// attempt, and every answer turned into either the documented result or one of the errors of errors.ts.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './generated/schema.js';
import { OPERATIONS } from './generated/document.js';
import { Deadline } from './deadline.js';
import { VaultApiError, VaultConnectionError, VaultSettingsError, VaultTimeoutError, VaultWriteOutcomeUnknownError } from './errors.js';
import type { CallOptions, ErrorCode, OperationId, OperationInput, OperationResult } from './operations.js';
import { CLIENT_PACKAGE } from './generated/package.js';
import { parseRetryAfter, retryDelay, type RetryEvent, type RetryPolicy } from './retry.js';
import { checkApiKey, wholeMilliseconds, type VaultSettings } from './settings.js';

export type FetchFunction = (request: Request) => Promise<Response>;

export interface Transport {
  call<Op extends OperationId>(operationId: Op, input: OperationInput<Op> | undefined, options?: CallOptions): Promise<OperationResult<Op>>;
}

const BODY_EXCERPT = 2_000;
/** `User-Agent` of every request: the package and its version, so a deployment's logs can tell clients apart. */
export const USER_AGENT = `credential-vault-client/${CLIENT_PACKAGE.version}`;

type Operation = (typeof OPERATIONS)[OperationId];
// openapi-fetch types each call by its literal path; the operation table picks the path at run time,
// and the client's own methods carry the types (operations.ts).
type UntypedRequest = (
  method: string,
  path: string,
  init: {
    baseUrl: string;
    params: { path: Record<string, unknown>; query: Record<string, unknown> };
    body?: unknown;
    headers: Record<string, string>;
    parseAs: 'text';
    signal: AbortSignal;
    fetch: FetchFunction;
  },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * openapi-fetch's middleware (`client.use()`), run on every attempt: `onRequest` sees the request as
 * the client made it (its headers, its `X-Request-Id`) and may change or replace it, or answer it
 * itself; `onResponse` sees each answer before the client reads it and may replace it; `onError` sees
 * a failed fetch. Members may be given as undefined.
 */
export interface VaultMiddleware {
  onRequest?: Middleware['onRequest'] | undefined;
  onResponse?: Middleware['onResponse'] | undefined;
  onError?: Middleware['onError'] | undefined;
}

export interface TransportOptions {
  fetch?: FetchFunction | undefined;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  middleware?: readonly VaultMiddleware[] | undefined;
}

export function createTransport(settings: Readonly<VaultSettings>, policy: RetryPolicy, options: TransportOptions = {}): Transport {
  const api = createClient<paths>();
  // openapi-fetch refuses a middleware with none of the three; undefined members are left out first.
  for (const given of options.middleware ?? []) api.use(Object.fromEntries(Object.entries(given).filter(([, hook]) => hook !== undefined)) as Middleware);
  const request = api.request as unknown as UntypedRequest;
  const baseFetch: FetchFunction = options.fetch ?? ((req) => globalThis.fetch(req));

  async function call<Op extends OperationId>(operationId: Op, input: OperationInput<Op> | undefined, callOptions: CallOptions = {}) {
    const operation: Operation = OPERATIONS[operationId];
    const { apiKey, timeoutMs } = callSettings(operationId, operation, settings, callOptions);
    const baseUrl = operation.origin === 'proxy' ? proxyOrigin(settings.proxyUrl) : settings.apiUrl;
    const { path, query, body } = splitInput(operation, (input ?? {}) as Record<string, unknown>);
    const extraHeaders = callHeaders(operationId, callOptions.headers);

    const deadline = new Deadline(timeoutMs, callOptions.signal);
    const write = operation.method !== 'get';
    let attempts = 0;
    let requestId: string | undefined;
    // A write is in flight from the moment it is handed to fetch until its answer is read whole.
    let inFlight = false;
    try {
      for (;;) {
        attempts++;
        // A new id per attempt: each attempt is a request of its own in the server's log.
        requestId = newRequestId();
        const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json', 'user-agent': USER_AGENT, 'x-request-id': requestId };
        if (operation.apiKey) headers.authorization = `Bearer ${apiKey}`;
        let status: number | undefined;
        const observe: FetchFunction = async (req) => {
          const response = await baseFetch(req);
          status = response.status;
          requestId = response.headers.get('x-request-id') ?? requestId;
          return response;
        };
        let answer: Awaited<ReturnType<UntypedRequest>> | undefined;
        let failure: VaultConnectionError | undefined;
        inFlight = write;
        try {
          answer = await request(operation.method.toUpperCase(), operation.path, {
            baseUrl,
            params: { path, query },
            body,
            headers,
            parseAs: 'text',
            signal: deadline.signal,
            fetch: observe,
          });
        } catch (cause) {
          if (deadline.signal.aborted) throw cause;
          failure = new VaultConnectionError(operationId, status, cause, requestId);
          if (write && failure.sent) throw new VaultWriteOutcomeUnknownError(operationId, failure, requestId);
        }
        inFlight = false;
        const outcome = answer ? readAnswer(operationId, answer.response, answer.response.ok ? answer.data : answer.error, requestId) : undefined;
        if (outcome?.ok) return outcome.data as OperationResult<Op>;
        const reason = outcome ? outcome.error : failure!;
        const wait = retryDelay(outcome ? { method: operation.method, ...outcome.refusal } : { method: operation.method }, attempts, policy);
        // A wait that would outlast the deadline is not started: the failure is the better answer.
        if (wait === undefined || wait >= deadline.remaining()) throw reason;
        options.onRetry?.({ operationId, attempt: attempts, waitMs: wait, reason });
        await deadline.sleep(wait);
      }
    } catch (error) {
      if (deadline.timedOut) {
        const timeout = new VaultTimeoutError(operationId, timeoutMs, attempts, requestId);
        throw inFlight ? new VaultWriteOutcomeUnknownError(operationId, timeout, requestId) : timeout;
      }
      if (deadline.callerAborted) throw deadline.signal.reason;
      throw error;
    } finally {
      deadline.dispose();
    }
  }

  return { call };
}

/** A call's own key and deadline over the client's, checked by the settings' rules before any request. */
function callSettings(operationId: OperationId, operation: Operation, settings: Readonly<VaultSettings>, options: CallOptions) {
  const apiKey = options.apiKey !== undefined ? checkApiKey(options.apiKey, { variable: 'VAULT_API_KEY', option: 'apiKey', operationId }) : settings.apiKey;
  // Before any request: a call that cannot be authenticated is a settings problem, not an answer.
  if (operation.apiKey && !apiKey) {
    throw new VaultSettingsError(
      'VAULT_API_KEY',
      `${operationId} needs an API key: set VAULT_API_KEY, or pass apiKey to createVaultClient or to the call`,
      operationId,
    );
  }
  let timeoutMs = settings.requestTimeoutMs;
  if (options.timeoutMs !== undefined) {
    timeoutMs = wholeMilliseconds(options.timeoutMs, { variable: 'VAULT_REQUEST_TIMEOUT_MS', option: 'timeoutMs', operationId });
    if (timeoutMs <= 0) throw new VaultSettingsError('VAULT_REQUEST_TIMEOUT_MS', `timeoutMs ${timeoutMs} is not positive`, operationId);
  }
  return { apiKey, timeoutMs };
}

/**
 * A call's own headers, by lower-case name, without those the client sets itself on every attempt.
 * One that HTTP cannot carry is refused before any request: sent, it would fail like a lost connection.
 */
function callHeaders(operationId: OperationId, given: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(given ?? {})) {
    const lower = name.toLowerCase();
    if (OWN_HEADERS.has(lower) || value === undefined) continue;
    try {
      new Headers([[name, value]]);
    } catch {
      throw new VaultSettingsError('headers', `${operationId}: the header ${JSON.stringify(name)} has a name or value HTTP cannot carry`, operationId);
    }
    out[lower] = value;
  }
  return out;
}
const OWN_HEADERS = new Set(['accept', 'authorization', 'user-agent', 'x-request-id']);

/** A random id for one attempt (a UUID where the runtime makes them: Node, and browsers on https). */
function newRequestId(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

type Outcome =
  | { ok: true; data: unknown }
  | { ok: false; error: VaultApiError; refusal: { status: number; code: unknown; retryAfter: number | undefined } };

function readAnswer(operationId: OperationId, response: Response, raw: unknown, requestId: string | undefined): Outcome {
  const text = typeof raw === 'string' ? raw : raw === undefined ? '' : JSON.stringify(raw);
  let json: unknown;
  let parsed = false;
  if (text !== '') {
    try {
      json = JSON.parse(text);
      parsed = true;
    } catch {
      // Not JSON: an intermediary's page, or a cut-off body. Described below.
    }
  }
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  if (response.ok) {
    // A 2xx with no body carries no data (none of the document's does); one with a body must be JSON.
    if (text === '' || parsed) return { ok: true, data: json };
    const error = new VaultApiError({
      operationId,
      status: response.status,
      code: null,
      error: `a ${response.status} answer whose body is not JSON (${response.headers.get('content-type') ?? 'no content type'})`,
      retryAfter,
      body: text.slice(0, BODY_EXCERPT),
      requestId,
    });
    return { ok: false, error, refusal: { status: response.status, code: undefined, retryAfter } };
  }
  const documented = documentedError(operationId, response.status, json);
  const error = documented
    ? new VaultApiError({ operationId, status: response.status, code: documented.code, error: documented.error, retryAfter, errors: documented.errors, requestId })
    : new VaultApiError({
        operationId,
        status: response.status,
        code: null,
        error: `a ${response.status} answer the document does not describe for ${operationId} (${response.headers.get('content-type') ?? 'no content type'})`,
        retryAfter,
        body: text.slice(0, BODY_EXCERPT),
        requestId,
      });
  const code = json && typeof json === 'object' ? (json as { code?: unknown }).code : undefined;
  return { ok: false, error, refusal: { status: response.status, code, retryAfter } };
}

/** The `{code, error}` body when its code is one the document gives for this operation and status. */
function documentedError(operationId: OperationId, status: number, json: unknown) {
  if (!json || typeof json !== 'object') return undefined;
  const { code, error, errors } = json as { code?: unknown; error?: unknown; errors?: unknown };
  const listed = (OPERATIONS[operationId].errors as Partial<Record<number, readonly string[]>>)[status];
  if (typeof code !== 'string' || typeof error !== 'string' || !listed?.includes(code)) return undefined;
  return {
    code: code as ErrorCode<OperationId>,
    error,
    errors: Array.isArray(errors) ? (errors as VaultApiError['errors']) : undefined,
  };
}

/** Path parameters, query parameters and the JSON body, from the client's one input object. */
function splitInput(operation: Operation, input: Record<string, unknown>) {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const pathNames: readonly string[] = operation.pathParams;
  const queryNames: readonly string[] = operation.queryParams;
  if (pathNames.length === 0 && queryNames.length === 0) {
    return { path, query, body: operation.body === 'none' ? undefined : input };
  }
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if (pathNames.includes(name)) path[name] = value;
    else if (queryNames.includes(name)) query[name] = value;
    else rest[name] = value;
  }
  return { path, query, body: operation.body === 'none' ? undefined : rest };
}

/** The proxy's HTTP origin from its WebSocket URL: `ws:` becomes `http:`, `wss:` becomes `https:`. */
export function proxyOrigin(proxyUrl: string): string {
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    throw new VaultSettingsError('VAULT_PROXY_URL', `VAULT_PROXY_URL=${proxyUrl} is not a URL`);
  }
  const scheme = { 'ws:': 'http:', 'wss:': 'https:' }[url.protocol];
  if (!scheme) throw new VaultSettingsError('VAULT_PROXY_URL', `VAULT_PROXY_URL=${proxyUrl} is not a ws:// or wss:// URL`);
  return `${scheme}//${url.host}`;
}
