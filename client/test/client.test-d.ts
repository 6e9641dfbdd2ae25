// Type-level tests of the client. Not run: `npm run typecheck` compiles them, so a call that should not
// compile but does fails the build (tsc reports each unused `@ts-expect-error`).
import {
  constructWebhookEvent,
  createVaultClient,
  isVaultApiError,
  isVaultError,
  readVaultSettings,
  responseOf,
  signWebhookPayload,
  OPERATIONS,
  VaultApiError,
  VaultError,
  VaultSettingsError,
  VaultTimeoutError,
  VaultWriteOutcomeUnknownError,
  WEBHOOK_EVENT_TYPES,
  type components,
  type ServiceErrorCode,
  type VaultClientError,
  type VaultErrorCode,
  type VaultResponse,
  type VaultWebhookEvent,
  type WebhookEventType,
  type ErrorCode,
  type ErrorStatus,
  type OperationInput,
  type operations,
  type paths,
  type SignupOutcome,
  type VaultClient,
  type webhooks,
} from '../index.js';

type Schemas = components['schemas'];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}
// The operations a client calls: the document's paths; a webhook's operation is one the service sends.
type WebhookOperationId = { [K in keyof operations]: operations[K] extends webhooks[keyof webhooks]['post'] ? K : never }[keyof operations];
type CalledOperationId = Exclude<keyof operations, WebhookOperationId>;
assertType<Equal<WebhookOperationId, 'deliverAgentCardEvent'>>();
type Result<M extends keyof VaultClient> = VaultClient[M] extends (...args: never[]) => Promise<infer R> ? R : never;

// The runtime table and the generated types describe the same operations, at the same paths and methods.
type Table = typeof OPERATIONS;
assertType<Equal<keyof Table, CalledOperationId>>();
type SamePathAndMethod = { [Op in keyof Table]: Equal<paths[Table[Op]['path']][Table[Op]['method']], operations[Op]> }[keyof Table];
assertType<Equal<SamePathAndMethod, true>>();
// ...and the same error codes: the codes checked at run time are the codes callers branch on.
type TableCodes<Op extends keyof Table> = Table[Op]['errors'][keyof Table[Op]['errors']] extends readonly (infer C)[] ? C : never;
type SameCodes = { [Op in keyof Table]: Equal<TableCodes<Op>, ErrorCode<Op>> }[keyof Table];
assertType<Equal<SameCodes, true>>();

// Results are the documented 2xx bodies.
assertType<Equal<Result<'getTokenCatalog'>, Schemas['TokenCatalog']>>();
assertType<Equal<Result<'fileSignupRequest'>, Schemas['SignupRequestFiled']>>();
assertType<Equal<Result<'getSignupRequest'>, Schemas['SignupRequestStatus']>>();
assertType<Equal<Result<'lookupRecipes'>, Schemas['RecipeLookup']>>();
// The retired operation has no success: its promise never resolves to a value.
assertType<Equal<Result<'createLogin'>, never>>();

// Inputs: path, query and body members in one object, with the document's requiredness.
assertType<Equal<OperationInput<'getSignupRequest'>, { id: string }>>();

export async function calls(vault: VaultClient): Promise<void> {
  await vault.getTokenCatalog();
  await vault.getTokenCatalog({ url: 'https://www.acme.com/checkout' });
  // @ts-expect-error `urll` is not a parameter of getTokenCatalog
  await vault.getTokenCatalog({ urll: 'https://www.acme.com/checkout' });
  // @ts-expect-error there is no operation getTokens
  await vault.getTokens();

  await vault.getSignupRequest({ id: 'sreq_1' });
  // @ts-expect-error the request id is required
  await vault.getSignupRequest();
  // @ts-expect-error the request id is a string
  await vault.getSignupRequest({ id: 42 });

  await vault.fileSignupRequest({ website: 'acme.com', email: 'jane@example.com', minLength: 16, noSymbols: true, symbols: '!@#' });
  // @ts-expect-error email is required
  await vault.fileSignupRequest({ website: 'acme.com' });
  // The wire ignores a wrong-typed rule (section 2.6); a TypeScript caller cannot send one.
  // @ts-expect-error minLength is a number
  await vault.fileSignupRequest({ website: 'acme.com', email: 'jane@example.com', minLength: 'abc' });
  // @ts-expect-error noSymbols is a boolean
  await vault.fileSignupRequest({ website: 'acme.com', email: 'jane@example.com', noSymbols: 'yes' });
  // @ts-expect-error maxLength is a number
  await vault.rotateLoginPassword({ label: 'acme', maxLength: '20' });
  // @ts-expect-error symbols is a string
  await vault.rotateLoginPassword({ label: 'acme', symbols: ['!'] });

  await vault.decideSignupApproval({ token: 'lnk_1', decision: 'approve' });
  // @ts-expect-error a decision is approve or deny
  await vault.decideSignupApproval({ token: 'lnk_1', decision: 'maybe' });
  // @ts-expect-error the link token is required
  await vault.decideSignupApproval({ decision: 'deny' });

  // @ts-expect-error the call's deadline is timeoutMs, in milliseconds
  await vault.getRecipes(undefined, { timeout: 5 });
  // @ts-expect-error timeoutMs is a number
  await vault.getRecipes(undefined, { timeoutMs: '5000' });
  await vault.getRecipes({ full: '1' }, { signal: AbortSignal.timeout(1_000), timeoutMs: 5_000 });
}

// Error codes are the operation's, from the document.
export const pending: ErrorCode<'fileSignupRequest'> = 'too_many_pending';
// @ts-expect-error daily_limit is not a code fileSignupRequest answers
export const notFiling: ErrorCode<'fileSignupRequest'> = 'daily_limit';
export const catalogLimit: ErrorCode<'getTokenCatalog'> = 'rate_limited';
// @ts-expect-error getTokenCatalog never answers too_many_pending
export const notCatalog: ErrorCode<'getTokenCatalog'> = 'too_many_pending';
// Any status of the operation: its codes, the reference server's own not yet listed per operation, or null.
assertType<Equal<VaultApiError<'getSignupRequest'>['code'], ErrorCode<'getSignupRequest'> | ServiceErrorCode | null>>();
assertType<Equal<ServiceErrorCode, 'idempotency_key_in_use' | 'idempotency_key_reused'>>();
// A code the document lists for an operation's status is that status's.
export const full: ErrorCode<'fileSignupRequest', 503> = 'storage_full';

export function branch(error: unknown): string {
  if (isVaultApiError(error, 'fileSignupRequest')) {
    if (error.code === 'too_many_pending') return 'wait for the account holder';
    // @ts-expect-error invalid_recipe is not a code of fileSignupRequest, so the comparison cannot be true
    if (error.code === 'invalid_recipe') return 'never';
    return error.error;
  }
  if (error instanceof VaultApiError && error.code === 'rate_limited') return `retry in ${error.retryAfter ?? '?'} s`;
  return 'other';
}

// Without an operation, `code` is every code the document gives any operation, or a service code, or
// null: the common patterns compile, and a misspelt code does not.
assertType<Equal<VaultApiError['code'], ErrorCode | ServiceErrorCode | null>>();
assertType<Equal<ErrorCode, Schemas['ApiErrorCode']>>();
assertType<Equal<VaultApiError['status'], number>>();
export function afterInstanceof(error: unknown): string {
  if (!(error instanceof VaultApiError)) return 'not an answer';
  assertType<Equal<typeof error.code, ErrorCode | ServiceErrorCode | null>>();
  assertType<Equal<typeof error.operationId, CalledOperationId>>();
  switch (error.code) {
    case 'too_many_pending':
      return 'wait for the account holder';
    case 'storage_full':
      return `the service's storage is full; retry in ${error.retryAfter ?? '?'} s`;
    case 'rate_limited':
      return `retry in ${error.retryAfter ?? '?'} s`;
    case null:
      return `an undocumented ${error.status}`;
    // @ts-expect-error no operation answers too_many_pendng
    case 'too_many_pendng':
      return 'never';
    default:
      return error.code;
  }
}
export function withoutOperation(error: unknown): boolean {
  if (!isVaultApiError(error)) return false;
  // @ts-expect-error no operation answers rate_limitd
  if (error.code === 'rate_limitd') return false;
  return error.code === 'rate_limited' || error.code === 'daily_limit';
}

// One operation and one status: the codes of that status, or null for an undocumented answer of it.
assertType<Equal<ErrorCode<'fileSignupRequest', 429>, 'rate_limited' | 'too_many_pending'>>();
assertType<Equal<ErrorStatus<'getTokenCatalog'>, 401 | 408 | 429 | 431 | 503>>();
export function byStatus(error: unknown): string {
  if (isVaultApiError(error, 'fileSignupRequest', 429)) {
    assertType<Equal<typeof error.code, 'rate_limited' | 'too_many_pending' | null>>();
    assertType<Equal<typeof error.status, 429>>();
    // @ts-expect-error login_limit is a 403 of fileSignupRequest, never its 429
    if (error.code === 'login_limit') return 'never';
    return error.code ?? 'undocumented';
  }
  // @ts-expect-error getTokenCatalog documents no 409
  if (isVaultApiError(error, 'getTokenCatalog', 409)) return 'never';
  return 'other';
}

// An operation's codes, handled one by one: a switch that misses one does not reach `never`.
export function everyCode(error: unknown): string {
  if (!isVaultApiError(error, 'getTokenCatalog')) throw error;
  switch (error.code) {
    case 'unauthorized':
    case 'invalid_api_key':
      return 'fix the key';
    case 'rate_limited':
    case 'storage_full':
      return 'later';
    case 'bad_request':
      return 'the HTTP layer refused the request';
    case null:
      return 'undocumented';
    default:
      return error.code satisfies never;
  }
}

// With an operation, the status is one the document gives it.
export function statuses(error: unknown): string {
  if (!isVaultApiError(error, 'getTokenCatalog')) return 'other';
  assertType<Equal<typeof error.status, 401 | 408 | 429 | 431 | 503>>();
  assertType<Equal<typeof error.status, ErrorStatus<'getTokenCatalog'>>>();
  // @ts-expect-error getTokenCatalog documents no 404
  if (error.status === 404) return 'never';
  if (error.status === 429) return `retry in ${error.retryAfter ?? '?'} s`;
  return error.code ?? 'undocumented';
}
export function filingStatuses(error: unknown): number {
  if (!isVaultApiError(error, 'fileSignupRequest')) return 0;
  assertType<Equal<typeof error.status, 400 | 401 | 403 | 408 | 409 | 413 | 422 | 429 | 431 | 503>>();
  assertType<Equal<typeof error.code, ErrorCode<'fileSignupRequest'> | null>>();
  return error.status;
}
export function missedCode(error: VaultApiError<'getTokenCatalog'>): string {
  switch (error.code) {
    case 'unauthorized':
    case 'invalid_api_key':
    case 'bad_request':
    case null:
      return 'handled';
    default:
      // @ts-expect-error rate_limited is not handled above
      return error.code satisfies never;
  }
}

// Everything the client throws is a VaultError, a settings problem included.
export const settingsProblem: VaultError = new VaultSettingsError('VAULT_API_URL', 'VAULT_API_URL=x is not a URL');
assertType<Equal<VaultSettingsError['code'], null>>();
assertType<Equal<VaultTimeoutError['code'], 'request_timeout'>>();
assertType<Equal<VaultError['requestId'], string | undefined>>();
assertType<Equal<VaultError['code'], VaultErrorCode | null>>();
assertType<Equal<VaultWriteOutcomeUnknownError['idempotencyKey'], string | undefined>>();
// @ts-expect-error a code is one of the API's, the service's or section 7.2's
export const notACode: VaultErrorCode = 'storage_ful';

// The union of every error class, by name: a switch over it that misses one does not reach `never`.
export function everyError(error: unknown): string {
  if (!isVaultError(error)) throw error;
  switch (error.name) {
    case 'VaultApiError':
      return `${error.status} ${error.code ?? 'undocumented'}`;
    case 'VaultConnectionError':
      return error.sent ? 'no answer' : 'nothing was sent';
    case 'VaultTimeoutError':
      return `${error.attempts} attempts`;
    case 'VaultWriteOutcomeUnknownError':
      return `send it again with ${error.idempotencyKey ?? 'its key'}`;
    case 'VaultSettingsError':
      return error.variable;
    case 'VaultWebhookError':
      return error.reason;
    default:
      return error satisfies never;
  }
}
export function missedError(error: VaultClientError): string {
  switch (error.name) {
    case 'VaultApiError':
    case 'VaultConnectionError':
    case 'VaultTimeoutError':
    case 'VaultSettingsError':
    case 'VaultWebhookError':
      return 'handled';
    default:
      // @ts-expect-error VaultWriteOutcomeUnknownError is not handled above
      return error satisfies never;
  }
}

// A webhook event is a union over the document's event types: a switch over them is exhaustive
// (`event.type satisfies never`, which also holds while the document describes one type).
export async function received(headers: Headers, rawBody: string, secret: string): Promise<string> {
  const event = await constructWebhookEvent({ headers, rawBody, secret });
  assertType<Equal<WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]>>();
  switch (event.type) {
    case 'test':
      return `a test delivery for ${event.agent_card_id} at ${event.created_at}`;
    default:
      return event.type satisfies never;
  }
}
export function unhandledEvent(event: VaultWebhookEvent): string {
  switch (event.type) {
    default:
      // @ts-expect-error the test event is not handled above
      return event.type satisfies never;
  }
}
export async function signed(rawBody: string): Promise<Record<string, string>> {
  return signWebhookPayload({ rawBody, secret: ['whsec_old', 'whsec_new'], now: undefined, header: undefined, timestampUnit: undefined, signatureEncoding: undefined });
}

// The answer of a success, without a middleware.
export async function successId(vault: VaultClient): Promise<string | undefined> {
  const catalog = await vault.getTokenCatalog();
  const answer = responseOf(catalog);
  assertType<Equal<typeof answer, VaultResponse | undefined>>();
  return answer?.requestId;
}

// The poller's outcome is a union on status; passwordOwnerManaged is always a boolean there.
export function outcome(result: SignupOutcome): string {
  if (result.status === 'approved') {
    assertType<Equal<typeof result.passwordOwnerManaged, boolean>>();
    return result.login.label;
  }
  // @ts-expect-error only an approved request carries a login
  return result.login;
}

// Options are typed; the environment is injectable.
createVaultClient({ apiKey: 'vk_1', apiUrl: 'http://127.0.0.1:8080', requestTimeoutMs: 180_000, env: {}, retry: false });
createVaultClient({
  retry: { maxRetryAfterMs: 10_000, retryAfterJitterMs: 500 },
  onRetry: ({ operationId, attempt, waitMs, reason }) => {
    assertType<Equal<typeof operationId, CalledOperationId>>();
    console.log(operationId, attempt, waitMs, reason.status, reason.code, reason.requestId);
  },
});
// @ts-expect-error onRetry receives one event object
createVaultClient({ onRetry: (operationId: string, attempt: number) => console.log(operationId, attempt) });
// @ts-expect-error requestTimeoutMs is a number of milliseconds
createVaultClient({ requestTimeoutMs: '180000' });

// Every optional member of every option and input takes an explicit undefined, as a value read from
// the environment or an optional argument may be (exactOptionalPropertyTypes): undefined is not sent.
declare const maybeText: string | undefined;
declare const maybeNumber: number | undefined;
declare const maybeBoolean: boolean | undefined;
declare const maybeSignal: AbortSignal | undefined;
export async function explicitUndefined(): Promise<void> {
  const vault = createVaultClient({
    apiKey: maybeText,
    apiUrl: maybeText,
    proxyUrl: maybeText,
    requestTimeoutMs: maybeNumber,
    env: undefined,
    retry: { maxRetries: maybeNumber, baseDelayMs: maybeNumber, maxDelayMs: maybeNumber, maxRetryAfterMs: maybeNumber, retryAfterJitterMs: maybeNumber },
    onRetry: undefined,
    fetch: undefined,
    onWarning: undefined,
    middleware: [{ onRequest: undefined, onResponse: ({ response }) => console.log(response.status), onError: undefined }],
    idempotentWrites: maybeBoolean,
    maxResponseBytes: maybeNumber,
  });
  createVaultClient({ retry: undefined, middleware: undefined });
  const call = { signal: maybeSignal, apiKey: maybeText, timeoutMs: maybeNumber, headers: undefined, idempotencyKey: maybeText };
  await vault.getTokenCatalog({ url: maybeText, host: maybeText }, call);
  await vault.getRecipes({ url: maybeText, full: undefined }, call);
  await vault.fileSignupRequest(
    { website: 'acme.com', email: 'jane@example.com', username: maybeText, minLength: maybeNumber, maxLength: maybeNumber, noSymbols: maybeBoolean, symbols: maybeText, noRepeats: maybeBoolean },
    call,
  );
  await vault.rotateLoginPassword({ label: 'acme', minLength: maybeNumber, noRepeats: maybeBoolean }, call);
  await vault.waitForSignupRequest('sreq_1', { ...call, intervalMs: maybeNumber, maxIntervalMs: maybeNumber, expiresAt: maybeNumber });
  await vault.lookupRecipes('https://www.acme.com/checkout', call);
  readVaultSettings({}, { apiKey: maybeText, apiUrl: maybeText, proxyUrl: maybeText, requestTimeoutMs: maybeNumber });
  // A required member still does not take undefined.
  // @ts-expect-error the request id is a string
  await vault.getSignupRequest({ id: maybeText });
}
