// Type-level tests of the client. Not run: `npm run typecheck` compiles them, so a call that should not
// compile but does fails the build (tsc reports each unused `@ts-expect-error`).
import {
  createVaultClient,
  isVaultApiError,
  OPERATIONS,
  VaultApiError,
  VaultError,
  VaultSettingsError,
  VaultTimeoutError,
  type components,
  type ErrorCode,
  type ErrorStatus,
  type OperationInput,
  type operations,
  type paths,
  type SignupOutcome,
  type VaultClient,
} from '../index.js';

type Schemas = components['schemas'];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}
type Result<M extends keyof VaultClient> = VaultClient[M] extends (...args: never[]) => Promise<infer R> ? R : never;

// The runtime table and the generated types describe the same operations, at the same paths and methods.
type Table = typeof OPERATIONS;
assertType<Equal<keyof Table, keyof operations>>();
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
assertType<Equal<VaultApiError<'getSignupRequest'>['code'], ErrorCode<'getSignupRequest'> | null>>();

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

// Without an operation, `code` is every code the document gives any operation, or null: the common
// patterns compile, and a misspelt code does not.
assertType<Equal<VaultApiError['code'], ErrorCode | null>>();
assertType<Equal<ErrorCode, Schemas['ApiErrorCode']>>();
assertType<Equal<VaultApiError['status'], number>>();
export function afterInstanceof(error: unknown): string {
  if (!(error instanceof VaultApiError)) return 'not an answer';
  assertType<Equal<typeof error.code, ErrorCode | null>>();
  assertType<Equal<typeof error.operationId, keyof operations>>();
  switch (error.code) {
    case 'too_many_pending':
      return 'wait for the account holder';
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
    assertType<Equal<typeof operationId, keyof operations>>();
    console.log(operationId, attempt, waitMs, reason.status, reason.code, reason.requestId);
  },
});
// @ts-expect-error onRetry receives one event object
createVaultClient({ onRetry: (operationId: string, attempt: number) => console.log(operationId, attempt) });
// @ts-expect-error requestTimeoutMs is a number of milliseconds
createVaultClient({ requestTimeoutMs: '180000' });
