// The package's public surface.
export { createVaultClient, type VaultClient, type VaultClientOptions } from './client.js';
export type { CallOptions, ErrorCode, ErrorStatus, OperationErrorBody, OperationId, OperationInput, OperationMethod, OperationResult } from './operations.js';
export {
  CLIENT_ERROR_CODES,
  CLIENT_ERROR_MEANINGS,
  isClientErrorCode,
  isVaultApiError,
  VaultApiError,
  VaultConnectionError,
  VaultError,
  VaultSettingsError,
  VaultTimeoutError,
  VaultWriteOutcomeUnknownError,
  type ApiErrorCode,
  type ClientErrorCode,
  type OperationApiError,
} from './errors.js';
export { readVaultSettings, SETTING_RULES, type Env, type ReadSettings, type SettingOverrides, type TunnelMode, type VaultSettings } from './settings.js';
export { DEFAULT_RETRY, type RetryEvent, type RetryOptions } from './retry.js';
export type { SignupOutcome, WaitForSignupOptions } from './signup.js';
export { recipeLookupUrl, SESSION_PATH_CHECKOUT_HOSTS } from './recipe-url.js';
export {
  DEFAULT_SIGNATURE_HEADER,
  signatureHeaderFormat,
  verifyWebhookRequest,
  verifyWebhookSignature,
  type SignatureHeaderFormat,
  type WebhookRequestInput,
  type WebhookSignatureInput,
  type WebhookVerification,
} from './webhooks.js';
export { DEFAULT_BASE_URL, OPERATIONS, WEBHOOK_SIGNATURE, type WebhookEvent } from './generated/document.js';
export { USER_AGENT, type FetchFunction, type VaultMiddleware } from './request.js';
export type { components, operations, paths, webhooks } from './generated/schema.js';
