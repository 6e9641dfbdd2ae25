// createVaultClient: one method per operation of the document, named by its operationId, plus the
// helpers the specification asks of callers.
import { DEFAULT_MAX_RESPONSE_BYTES } from './body.js';
import { VaultSettingsError } from './errors.js';
import { OPERATIONS } from './generated/document.js';
import type { components } from './generated/schema.js';
import type { CallOptions, OperationId, OperationMethod } from './operations.js';
import { recipeLookupUrl } from './recipe-url.js';
import { createTransport, type FetchFunction, type VaultMiddleware } from './request.js';
import { retryPolicy, type RetryEvent, type RetryOptions } from './retry.js';
import { processEnv, readVaultSettings, type Env, type VaultSettings } from './settings.js';
import { waitForSignupRequest, type SignupOutcome, type WaitForSignupOptions } from './signup.js';

export interface VaultClientOptions {
  /** Overrides `VAULT_API_KEY`. */
  apiKey?: string | undefined;
  /** Overrides `VAULT_API_URL`. */
  apiUrl?: string | undefined;
  /** Overrides `VAULT_PROXY_URL` (the proxy's health check is on its HTTP origin). */
  proxyUrl?: string | undefined;
  /** Overrides `VAULT_REQUEST_TIMEOUT_MS`: the deadline of one call, all attempts included. */
  requestTimeoutMs?: number | undefined;
  /** Where the settings are read from instead of the process's environment. */
  env?: Env | undefined;
  /** The retries of a refusal that says nothing was carried out (`rate_limited`, `storage_full`) and of a request that got no answer and may be sent again; `false` turns them off. */
  retry?: RetryOptions | false | undefined;
  /** Told before each wait to retry (the operation, the attempt, the wait and the refusal); what it throws ends the call. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /**
   * openapi-fetch middleware, run in order on every attempt of every call: observe or change each
   * request and each answer (a tracing header, a log line, `Prefer` for a mock). See `VaultMiddleware`.
   */
  middleware?: readonly VaultMiddleware[] | undefined;
  /**
   * Whether the deployment honours `Idempotency-Key` (the reference server does): `true` sends a write
   * that got no answer again, with the same key; `false` never does. Default: learnt from the
   * deployment, which echoes the key of a write it honours; until it has, such a write is
   * `VaultWriteOutcomeUnknownError`, carrying its key.
   */
  idempotentWrites?: boolean | undefined;
  /**
   * The longest answer body the client reads, in bytes; a longer one ends the call with a
   * `VaultApiError` and is not read further. Default 32 MiB.
   */
  maxResponseBytes?: number | undefined;
  /** The fetch to send requests with; default the global one. */
  fetch?: FetchFunction | undefined;
  /** Receives each settings warning; default `process.emitWarning`, or `console.warn` without a process. */
  onWarning?: ((message: string) => void) | undefined;
}

type Schemas = components['schemas'];

export type VaultClient = { readonly [Op in OperationId]: OperationMethod<Op> } & {
  /** The settings the client runs with (section 8.9, options applied). */
  readonly settings: Readonly<VaultSettings>;
  /** Polls a signup request until the account holder decides or it expires, with backoff, never past its `expiresAt`. */
  waitForSignupRequest(requestId: string, options?: WaitForSignupOptions): Promise<SignupOutcome>;
  /**
   * The four-slot recipe lookup for a page, sent as `recipeLookupUrl(pageUrl)` says. An answer that is
   * not the lookup (the index, which a mock answers unless asked with `Prefer: example=lookup`) is a
   * `VaultApiError` (`code` null), never returned as one.
   */
  lookupRecipes(pageUrl: string, options?: CallOptions): Promise<Schemas['RecipeLookup']>;
};

/**
 * A client of the API. Every setting is checked here, before any call: an unusable one throws
 * `VaultSettingsError`; one section 8.9 says to ignore or bound is told to `onWarning`.
 */
export function createVaultClient(options: VaultClientOptions = {}): VaultClient {
  const { settings, warnings } = readVaultSettings(options.env ?? processEnv(), {
    apiKey: options.apiKey,
    apiUrl: options.apiUrl,
    proxyUrl: options.proxyUrl,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  const warn = options.onWarning ?? defaultWarning;
  for (const message of warnings) warn(message);

  const transport = createTransport(settings, retryPolicy(options.retry), {
    fetch: options.fetch,
    onRetry: options.onRetry,
    middleware: options.middleware,
    idempotentWrites: options.idempotentWrites,
    maxResponseBytes: maxResponseBytes(options.maxResponseBytes),
  });
  const methods = Object.fromEntries(
    (Object.keys(OPERATIONS) as OperationId[]).map((id) => [id, (input?: never, callOptions?: CallOptions) => transport.call(id, input, callOptions)]),
  ) as unknown as { readonly [Op in OperationId]: OperationMethod<Op> };

  return Object.freeze({
    ...methods,
    settings,
    waitForSignupRequest: (requestId: string, waitOptions?: WaitForSignupOptions) =>
      waitForSignupRequest((input, callOptions) => methods.getSignupRequest(input, callOptions), requestId, waitOptions),
    // With `url`, the answer is the lookup (section 4.2); the document's type is the union of both
    // answers, and the transport holds the answer to the lookup's shape.
    lookupRecipes: async (pageUrl: string, callOptions?: CallOptions) =>
      (await transport.call('getRecipes', { url: recipeLookupUrl(pageUrl) }, callOptions, LOOKUP)) as Schemas['RecipeLookup'],
  });
}

const LOOKUP = 'RecipeLookup';

function maxResponseBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(value) || value <= 0) throw new VaultSettingsError('maxResponseBytes', `maxResponseBytes ${value} is not a positive whole number of bytes`);
  return value;
}

function defaultWarning(message: string): void {
  const emit = (globalThis as { process?: { emitWarning?: (message: string, type: string) => void } }).process?.emitWarning;
  if (emit) emit(message, 'VaultSettingsWarning');
  else console.warn(message);
}
