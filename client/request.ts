// One call of one operation, end to end: input split into parameters and body, the API key, the
// deadline over every attempt, the retries (told to onRetry), the request id of each attempt, a
// write's idempotency key, each answer read whole under the deadline and the size cap, and every
// answer turned into either the documented result or one of the client's errors.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './generated/schema.js';
import { OPERATIONS, RESULT_SHAPES } from './generated/document.js';
import { AnswerNotRead, readWhole } from './body.js';
import { Deadline } from './deadline.js';
import { VaultApiError, VaultConnectionError, VaultSettingsError, VaultTimeoutError, VaultWriteOutcomeUnknownError } from './errors.js';
import { checkIdempotencyKey, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './idempotency.js';
import type { CallOptions, ErrorCode, OperationId, OperationInput, OperationResult } from './operations.js';
import { CLIENT_PACKAGE } from './generated/package.js';
import { randomId } from './random-id.js';
import { remember } from './response-info.js';
import { parseRetryAfter, retryDelay, type RetryEvent, type RetryPolicy } from './retry.js';
import { serviceCode } from './service-codes.js';
import { checkApiKey, wholeMilliseconds, type VaultSettings } from './settings.js';
import { shapeProblem } from './shapes.js';

export type FetchFunction = (request: Request) => Promise<Response>;

export interface Transport {
  /** `expected` names the one result schema a helper asks for (the lookup, not the index). */
  call<Op extends OperationId>(operationId: Op, input: OperationInput<Op> | undefined, options?: CallOptions, expected?: string): Promise<OperationResult<Op>>;
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
    redirect: RequestRedirect;
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
  /** `true`: the deployment honours `Idempotency-Key`; `false`: never send a write again; default: learn it from the echo. */
  idempotentWrites?: boolean | undefined;
  /** The longest answer body read, in bytes. */
  maxResponseBytes: number;
}

/** One attempt, as its fetch saw it, before openapi-fetch and the middleware read the answer. */
interface Attempt {
  /** The id sent, or the answer's `X-Request-Id` once it came. */
  requestId: string;
  handedToFetch: boolean;
  /** Handed to fetch, and its answer not read whole yet. */
  inFlight: boolean;
  status: number | undefined;
  echoedKey: string | undefined;
  replayed: boolean;
}

export function createTransport(settings: Readonly<VaultSettings>, policy: RetryPolicy, options: TransportOptions): Transport {
  const api = createClient<paths>();
  // openapi-fetch refuses a middleware with none of the three; undefined members are left out first.
  for (const given of options.middleware ?? []) api.use(Object.fromEntries(Object.entries(given).filter(([, hook]) => hook !== undefined)) as Middleware);
  const request = api.request as unknown as UntypedRequest;
  const baseFetch: FetchFunction = options.fetch ?? ((req) => globalThis.fetch(req));
  // Base URLs that echoed a write's Idempotency-Key: they honour keys, so a write may be sent again.
  const honouring = new Set<string>();

  async function call<Op extends OperationId>(operationId: Op, input: OperationInput<Op> | undefined, callOptions: CallOptions = {}, expected?: string) {
    const operation: Operation = OPERATIONS[operationId];
    const { apiKey, timeoutMs } = callSettings(operationId, operation, settings, callOptions);
    const baseUrl = operation.origin === 'proxy' ? proxyOrigin(settings.proxyUrl) : settings.apiUrl;
    const { path, query, body } = splitInput(operation, (input ?? {}) as Record<string, unknown>);
    const extraHeaders = callHeaders(operationId, callOptions.headers);
    const write = operation.method !== 'get';
    const idempotencyKey = !write ? undefined : callOptions.idempotencyKey !== undefined ? checkIdempotencyKey(callOptions.idempotencyKey, operationId) : randomId();
    // Sending it again cannot carry it out twice.
    const resendable = () => !write || (options.idempotentWrites ?? honouring.has(baseUrl));

    const deadline = new Deadline(timeoutMs, callOptions.signal);
    let attempts = 0;
    let sent = 0;
    let attempt: Attempt | undefined;
    // An attempt of this write was sent and no final answer has come since: its outcome is unknown.
    let unanswered = false;
    // Every Request of the call, held until it ends: undici's Request stops passing its signal on to
    // the fetch once it is garbage-collected (nodejs/node#55428), and the deadline needs that signal.
    const held: Request[] = [];
    const outcomeUnknown = (reason: VaultConnectionError | VaultTimeoutError | VaultApiError) =>
      new VaultWriteOutcomeUnknownError(operationId, reason, attempt?.requestId, { idempotencyKey, attempts: sent });
    try {
      for (;;) {
        attempts++;
        // A new id per attempt: each attempt is a request of its own in the server's log.
        attempt = { requestId: randomId(), handedToFetch: false, inFlight: false, status: undefined, echoedKey: undefined, replayed: false };
        const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json', 'user-agent': USER_AGENT, 'x-request-id': attempt.requestId };
        if (operation.apiKey) headers.authorization = `Bearer ${apiKey}`;
        if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
        let answer: Awaited<ReturnType<UntypedRequest>> | undefined;
        let outcome: Outcome | undefined;
        let failure: VaultConnectionError | undefined;
        try {
          answer = await deadline.race(
            request(operation.method.toUpperCase(), operation.path, {
              baseUrl,
              params: { path, query },
              body,
              headers,
              parseAs: 'text',
              signal: deadline.signal,
              // The API defines no redirect: a write is never sent on to another URL, nor a call answered by another request.
              redirect: 'manual',
              fetch: observer(baseFetch, attempt, { deadline, held, maxResponseBytes: options.maxResponseBytes }),
            }),
          );
        } catch (cause) {
          if (deadline.signal.aborted) throw cause;
          if (cause instanceof AnswerNotRead) outcome = unreadAnswer(operationId, cause, attempt.requestId);
          else failure = new VaultConnectionError(operationId, attempt.status, cause, attempt.requestId, { handedToFetch: attempt.handedToFetch });
        }
        attempt.inFlight = false;
        if (answer || outcome || failure?.sent) sent++;
        if (answer && idempotencyKey !== undefined && attempt.echoedKey !== undefined) {
          if (attempt.echoedKey !== idempotencyKey) throw outcomeUnknown(anotherRequestsAnswer(operationId, answer.response, attempt.echoedKey, attempt.requestId));
          honouring.add(baseUrl);
        }
        if (answer) outcome = readAnswer(operationId, answer.response, answer.response.ok ? answer.data : answer.error, attempt.requestId, expected);
        if (outcome?.ok) {
          const { requestId, replayed } = attempt;
          remember(outcome.data, { operationId, status: answer!.response.status, requestId, attempts, idempotencyKey, replayed });
          return outcome.data as OperationResult<Op>;
        }
        if (write && failure?.sent) unanswered = true;
        if (write && outcome && isFinal(outcome.refusal)) unanswered = false;
        const reason = outcome ? outcome.error : failure!;
        const wait = retryDelay(
          outcome ? { method: operation.method, ...outcome.refusal, resendable: resendable() } : { method: operation.method, resendable: !failure!.sent || resendable() },
          attempts,
          policy,
        );
        // A wait that would outlast the deadline is not started: the failure is the better answer.
        if (wait === undefined || wait >= deadline.remaining()) throw unanswered ? outcomeUnknown(reason) : reason;
        options.onRetry?.({ operationId, attempt: attempts, waitMs: wait, reason });
        await deadline.sleep(wait);
      }
    } catch (error) {
      if (deadline.timedOut) {
        const timeout = new VaultTimeoutError(operationId, timeoutMs, attempts, attempt?.requestId);
        const inFlight = write && attempt?.inFlight === true;
        if (inFlight) sent++;
        throw inFlight || unanswered ? outcomeUnknown(timeout) : timeout;
      }
      if (deadline.callerAborted) throw deadline.signal.reason;
      throw error;
    } finally {
      deadline.dispose();
      held.length = 0;
    }
  }

  return { call };
}

/**
 * The fetch of one attempt: it hands the request on, holds it for the deadline, notes what the answer
 * says of itself, and reads the body whole under the deadline and the size cap before anything else
 * reads it.
 */
function observer(
  baseFetch: FetchFunction,
  attempt: Attempt,
  call: { deadline: Deadline; held: Request[]; maxResponseBytes: number },
): FetchFunction {
  return async (req) => {
    call.held.push(req);
    attempt.handedToFetch = true;
    attempt.inFlight = true;
    const pending = baseFetch(req);
    let response: Response;
    try {
      response = await call.deadline.race(pending);
    } catch (error) {
      // An answer that begins after the deadline is closed as soon as it does.
      void pending.then((late) => late.body?.cancel().catch(() => undefined), () => undefined);
      throw error;
    }
    attempt.status = response.status;
    attempt.requestId = response.headers.get('x-request-id') ?? attempt.requestId;
    attempt.echoedKey = response.headers.get(IDEMPOTENCY_KEY_HEADER) ?? undefined;
    attempt.replayed = response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true';
    // A browser's fetch hides a redirect it did not follow (status 0); Node's shows its 3xx.
    if (response.type === 'opaqueredirect') throw new AnswerNotRead(0, 'a redirect (its status and Location hidden by the runtime), which the client does not follow');
    return readWhole(response, call.maxResponseBytes, call.deadline);
  };
}

/**
 * An answer that settles a write's outcome: the deployment keeps it for the key and answers it again
 * (2xx, and a 4xx other than 408, 409 `idempotency_key_in_use` and 429).
 */
function isFinal(refusal: Refusal): boolean {
  if (refusal.status === 408 || refusal.status === 429) return false;
  if (refusal.status === 409 && refusal.code === 'idempotency_key_in_use') return false;
  return refusal.status >= 200 && refusal.status < 500;
}

/** An answer whose `Idempotency-Key` is not the write's: the answer of another request, never this call's. */
function anotherRequestsAnswer(operationId: OperationId, response: Response, echoed: string, requestId: string | undefined): VaultApiError {
  return new VaultApiError({
    operationId,
    status: response.status,
    code: null,
    error: `a ${response.status} answer that carries the Idempotency-Key ${JSON.stringify(echoed)}, not this write's: the answer of another request`,
    requestId,
  });
}

/** An answer the client did not read (over the size cap, or a hidden redirect): final. */
function unreadAnswer(operationId: OperationId, cause: AnswerNotRead, requestId: string | undefined): Outcome {
  const error = new VaultApiError({ operationId, status: cause.status, code: null, error: cause.message, requestId });
  return { ok: false, error, refusal: { status: cause.status, code: undefined, retryAfter: undefined } };
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
const OWN_HEADERS = new Set(['accept', 'authorization', 'user-agent', 'x-request-id', IDEMPOTENCY_KEY_HEADER.toLowerCase()]);

type Refusal = { status: number; code: unknown; retryAfter: number | undefined };
type Outcome = { ok: true; data: unknown } | { ok: false; error: VaultApiError; refusal: Refusal };

function readAnswer(operationId: OperationId, response: Response, raw: unknown, requestId: string | undefined, expected?: string): Outcome {
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
  const status = response.status;
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const contentType = response.headers.get('content-type') ?? 'no content type';
  const undescribed = (error: string): Extract<Outcome, { ok: false }> => ({
    ok: false,
    error: new VaultApiError({ operationId, status, code: null, error, retryAfter, body: text.slice(0, BODY_EXCERPT), requestId }),
    refusal: { status, code: undefined, retryAfter },
  });
  if (response.ok) {
    if (text !== '' && !parsed) return undescribed(`a ${status} answer whose body is not JSON (${contentType})`);
    const shapes = RESULT_SHAPES[operationId]!.filter((shape) => expected === undefined || shape.name === expected);
    const problem = shapeProblem(json, shapes);
    if (problem !== undefined) return undescribed(`a ${status} answer that is not what ${operationId} answers with (${problem})`);
    return { ok: true, data: json };
  }
  if (status >= 300 && status < 400) {
    const location = response.headers.get('location');
    return undescribed(`a ${status} redirect${location ? ` to ${location}` : ''}, which the client does not follow: the API defines no redirect`);
  }
  const code = json && typeof json === 'object' ? (json as { code?: unknown }).code : undefined;
  const message = json && typeof json === 'object' ? (json as { error?: unknown }).error : undefined;
  const documented = documentedError(operationId, status, json);
  const service = documented || typeof message !== 'string' ? undefined : serviceCode(status, code);
  if (!documented && !service) return { ...undescribed(`a ${status} answer the document does not describe for ${operationId} (${contentType})`), refusal: { status, code, retryAfter } };
  const error = documented
    ? new VaultApiError({ operationId, status, code: documented.code, error: documented.error, retryAfter, errors: documented.errors, requestId })
    : new VaultApiError({ operationId, status, code: service!, error: message as string, retryAfter, requestId });
  return { ok: false, error, refusal: { status, code, retryAfter } };
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
