// The package's public surface.
export { createVaultClient, type VaultClient, type VaultClientOptions } from './client.js';
export type { CallOptions, ErrorCode, ErrorStatus, OperationErrorBody, OperationId, OperationInput, OperationMethod, OperationResult } from './operations.js';
export {
  CLIENT_ERROR_CODES,
  CLIENT_ERROR_MEANINGS,
  isClientErrorCode,
  isVaultApiError,
  isVaultError,
  VaultApiError,
  VaultConnectionError,
  VaultError,
  VaultSettingsError,
  VaultTimeoutError,
  VaultWebhookError,
  VaultWriteOutcomeUnknownError,
  type ApiErrorCode,
  type ClientErrorCode,
  type OperationApiError,
  type ServiceErrorCode,
  type VaultClientError,
  type VaultErrorCode,
} from './errors.js';
export { SERVICE_ANSWERS } from './service-codes.js';
export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './idempotency.js';
export { responseOf, type VaultResponse } from './response-info.js';
export { DEFAULT_MAX_RESPONSE_BYTES } from './body.js';
export { readVaultSettings, SETTING_RULES, type Env, type ReadSettings, type SettingOverrides, type TunnelMode, type VaultSettings } from './settings.js';
export { DEFAULT_RETRY, type RetryEvent, type RetryOptions } from './retry.js';
export type { SignupOutcome, WaitForSignupOptions } from './signup.js';
export { recipeLookupUrl, SESSION_PATH_CHECKOUT_HOSTS } from './recipe-url.js';
export {
  DEFAULT_SIGNATURE_HEADER,
  MAX_SIGNATURES,
  signatureHeaderFormat,
  verifyWebhookRequest,
  verifyWebhookSignature,
  type SignatureHeaderFormat,
  type WebhookRequestInput,
  type WebhookSignatureInput,
  type WebhookVerification,
  type WebhookVerificationFailure,
} from './webhooks.js';
export { constructWebhookEvent, signWebhookPayload, type SignWebhookInput, type VaultWebhookEvent, type WebhookEventType } from './webhook-events.js';
export { DEFAULT_BASE_URL, OPERATIONS, WEBHOOK_EVENT_TYPES, WEBHOOK_SIGNATURE, type WebhookEvent } from './generated/document.js';
export { USER_AGENT, type FetchFunction, type VaultMiddleware } from './request.js';
export type { components, operations, paths, webhooks } from './generated/schema.js';
