/**
 * Generated from the API's bundled OpenAPI document by the repository's `npm run generate`. Do not
 * edit by hand: change the document and regenerate (`npm run check:generated` fails when it is stale).
 */
import type { components } from './schema.js';

/** The document's default `base_url` (its first server): the local reference server. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

/**
 * Every operation of the document, by operationId. `apiKey`: the operation's security asks for the
 * API key. `origin`: `api` is `{base_url}`; `proxy` is the proxy's HTTP origin (`{proxy_origin}`).
 * `errors`: the codes the document gives for each error status.
 */
export const OPERATIONS = {
  createLogin: { method: "post", path: "/v1/logins", apiKey: false, origin: "api", pathParams: [], queryParams: [], body: "none",
    errors: { 408: ["bad_request"], 410: ["signup_requires_approval"], 431: ["bad_request"] } },
  decidePurchaseApproval: { method: "post", path: "/v1/approvals/{token}/decide", apiKey: false, origin: "api", pathParams: ["token"], queryParams: [], body: "required",
    errors: { 400: ["bad_request", "declared_not_offered", "declared_required"], 404: ["not_found"], 408: ["bad_request"], 409: ["idempotency_key_in_use"], 413: ["bad_request"], 422: ["idempotency_key_reused"], 431: ["bad_request"], 503: ["storage_full"] } },
  decideSignupApproval: { method: "post", path: "/v1/signup-requests/{token}", apiKey: false, origin: "api", pathParams: ["token"], queryParams: [], body: "required",
    errors: { 400: ["bad_request"], 404: ["not_found"], 408: ["bad_request"], 409: ["idempotency_key_in_use"], 413: ["bad_request"], 422: ["idempotency_key_reused"], 431: ["bad_request"], 503: ["storage_full"] } },
  fileSignupRequest: { method: "post", path: "/v1/logins/requests", apiKey: true, origin: "api", pathParams: [], queryParams: [], body: "required",
    errors: { 400: ["bad_request", "invalid_website", "invalid_email", "invalid_username", "password_too_short", "invalid_policy"], 401: ["unauthorized", "invalid_api_key"], 403: ["signup_not_enabled", "login_limit"], 408: ["bad_request"], 409: ["idempotency_key_in_use"], 413: ["bad_request"], 422: ["idempotency_key_reused"], 429: ["rate_limited", "too_many_pending"], 431: ["bad_request"], 503: ["storage_full"] } },
  getChallengeRequest: { method: "get", path: "/v1/challenge-requests/{token}", apiKey: false, origin: "api", pathParams: ["token"], queryParams: [], body: "none",
    errors: { 404: ["not_found"], 408: ["bad_request"], 431: ["bad_request"], 503: ["storage_full"] } },
  getCvvRequest: { method: "get", path: "/v1/cvv-requests/{token}", apiKey: false, origin: "api", pathParams: ["token"], queryParams: [], body: "none",
    errors: { 404: ["not_found"], 408: ["bad_request"], 431: ["bad_request"], 503: ["storage_full"] } },
  getProxyHealth: { method: "get", path: "/health", apiKey: false, origin: "proxy", pathParams: [], queryParams: [], body: "none",
    errors: { 408: ["bad_request"], 431: ["bad_request"] } },
  getPurchaseApproval: { method: "get", path: "/v1/approvals/{token}", apiKey: false, origin: "api", pathParams: ["token"], queryParams: [], body: "none",
    errors: { 404: ["not_found"], 408: ["bad_request"], 431: ["bad_request"] } },
  getRecipes: { method: "get", path: "/v1/recipes", apiKey: false, origin: "api", pathParams: [], queryParams: ["url", "full"], body: "none",
    errors: { 408: ["bad_request"], 431: ["bad_request"] } },
  getRecipeSubmission: { method: "get", path: "/v1/recipes/submissions/{id}", apiKey: true, origin: "api", pathParams: ["id"], queryParams: [], body: "none",
    errors: { 401: ["unauthorized", "invalid_api_key"], 404: ["not_found"], 408: ["bad_request"], 431: ["bad_request"] } },
  getSignupApproval: { method: "get", path: "/v1/signup-requests/{token}", apiKey: false, origin: "api", pathParams: ["token"], queryParams: [], body: "none",
    errors: { 404: ["not_found"], 408: ["bad_request"], 431: ["bad_request"] } },
  getSignupRequest: { method: "get", path: "/v1/logins/requests/{id}", apiKey: true, origin: "api", pathParams: ["id"], queryParams: [], body: "none",
    errors: { 401: ["unauthorized", "invalid_api_key"], 403: ["scope_denied"], 404: ["request_not_found"], 408: ["bad_request"], 431: ["bad_request"] } },
  getTokenCatalog: { method: "get", path: "/v1/tokens", apiKey: true, origin: "api", pathParams: [], queryParams: ["url", "host"], body: "none",
    errors: { 401: ["unauthorized", "invalid_api_key"], 408: ["bad_request"], 429: ["rate_limited"], 431: ["bad_request"], 503: ["storage_full"] } },
  rotateLoginPassword: { method: "post", path: "/v1/logins/password", apiKey: true, origin: "api", pathParams: [], queryParams: [], body: "required",
    errors: { 400: ["bad_request", "password_too_short", "invalid_policy"], 401: ["unauthorized", "invalid_api_key"], 403: ["signup_not_enabled"], 408: ["bad_request"], 409: ["not_rotatable", "idempotency_key_in_use"], 413: ["bad_request"], 422: ["idempotency_key_reused"], 429: ["rate_limited", "daily_limit"], 431: ["bad_request"], 503: ["storage_full"] } },
  setLoginUsername: { method: "post", path: "/v1/logins/username", apiKey: true, origin: "api", pathParams: [], queryParams: [], body: "required",
    errors: { 400: ["bad_request", "invalid_username"], 401: ["unauthorized", "invalid_api_key"], 403: ["signup_not_enabled"], 404: ["not_found"], 408: ["bad_request"], 409: ["username_already_set", "idempotency_key_in_use"], 413: ["bad_request"], 422: ["idempotency_key_reused"], 429: ["rate_limited", "daily_limit"], 431: ["bad_request"], 503: ["storage_full"] } },
  submitRecipe: { method: "post", path: "/v1/recipes", apiKey: true, origin: "api", pathParams: [], queryParams: [], body: "required",
    errors: { 400: ["invalid_recipe"], 401: ["unauthorized", "invalid_api_key"], 408: ["bad_request"], 409: ["idempotency_key_in_use"], 413: ["invalid_recipe"], 422: ["idempotency_key_reused"], 429: ["rate_limited"], 431: ["bad_request"], 503: ["storage_full"] } },
} as const;

/**
 * Request-body members the document marks `x-ignore-wrong-type`: the service ignores a value of another
 * type, so the wire schema takes any value, but the client's input takes only this type.
 */
export interface StrictBodyMembers {
  fileSignupRequest: {
    /**
     * Number. The fewest characters the site accepts: a whole number, at most 64 and
     * not above `maxLength`; otherwise 400 `invalid_policy`. Ignored when not a number.
     */
    minLength?: number | undefined;
    /**
     * Number. The most characters the site accepts: a whole number (otherwise 400
     * `invalid_policy`); below 12 gives 400 `password_too_short`. Ignored when not a
     * number.
     */
    maxLength?: number | undefined;
    /**
     * Boolean. `true` when the site rejects punctuation: the password then has no
     * symbol and `passwordPolicy` has no `symbolAlphabet`. Ignored when not a boolean.
     */
    noSymbols?: boolean | undefined;
    /**
     * String. The exact punctuation the site accepts. It narrows the safe set
     * `!@#$*+-_=.?`: characters outside that set are ignored, and a string with none
     * of them gives 400 `invalid_policy`. Ignored when not a string.
     */
    symbols?: string | undefined;
    /**
     * Boolean. `true` when the site rejects three identical characters in a row: the
     * password then never has one character three times in a row. Ignored when not a
     * boolean.
     */
    noRepeats?: boolean | undefined;
  };
  rotateLoginPassword: {
    /**
     * Number. The fewest characters the site accepts: a whole number, at most 64 and
     * not above `maxLength`; otherwise 400 `invalid_policy`. Ignored when not a number.
     */
    minLength?: number | undefined;
    /**
     * Number. The most characters the site accepts: a whole number (otherwise 400
     * `invalid_policy`); below 12 gives 400 `password_too_short`. Ignored when not a
     * number.
     */
    maxLength?: number | undefined;
    /**
     * Boolean. `true` when the site rejects punctuation: the password then has no
     * symbol and `passwordPolicy` has no `symbolAlphabet`. Ignored when not a boolean.
     */
    noSymbols?: boolean | undefined;
    /**
     * String. The exact punctuation the site accepts. It narrows the safe set
     * `!@#$*+-_=.?`: characters outside that set are ignored, and a string with none
     * of them gives 400 `invalid_policy`. Ignored when not a string.
     */
    symbols?: string | undefined;
    /**
     * Boolean. `true` when the site rejects three identical characters in a row: the
     * password then never has one character three times in a row. Ignored when not a
     * boolean.
     */
    noRepeats?: boolean | undefined;
  };
}

/** The client and proxy error codes (`ClientErrorCode`, specification section 7.2), in the document's order. */
export const CLIENT_ERROR_CODES = [
  "token_not_found",
  "scope_denied",
  "cross_user_denied",
  "key_auto_revoked",
  "login_blocked",
  "merchant_blocked",
  "card_blocked",
  "limit_reached",
  "checkout_total_unknown",
  "plan_quota_reached",
  "cvv_entry_required",
  "sensitive_data_blocked",
  "fill_rejected",
  "session_limit",
  "unavailable",
  "unanswered",
  "request_timeout",
  "action_timeout",
  "connection_resumed",
  "idle_timeout",
  "hard_timeout",
  "insecure_site",
  "egress_unavailable",
  "write_outcome_unknown",
  "invalid_hint",
  "hint_unresolved",
  "too_many_credentials",
  "too_many_connections",
  "attested_checkout_busy",
  "signup_preapproval_too_many",
  "login_extra_sites_limit",
  "api_key_label_too_long",
  "login_username_too_short",
  "login_password_too_short",
  "address_label_shape",
  "address_label_reserved",
  "phone_shape",
  "agent_card_cap_not_enforceable",
  "feedback_rate_limited",
  "label_unavailable",
] as const satisfies readonly components['schemas']['ClientErrorCode'][];

/**
 * The one-line meaning of each code, from the schema's `x-enumDescriptions`.
 */
export const CLIENT_ERROR_MEANINGS: Readonly<Record<components['schemas']['ClientErrorCode'], string>> = {
  token_not_found: "The token parses but matches no record (deleted record, removed or empty field, wrong label or kind, login without a TOTP secret); refetch the catalog.",
  scope_denied: "The login is outside this key's scope: the proxy raises it when a token of such a login is used. The HTTP API answers the same code, with 403, to a poll of an approved signup whose login has left the scope.",
  cross_user_denied: "The token belongs to another account; three such refusals within five minutes revoke the key.",
  key_auto_revoked: "The key was revoked automatically after three cross_user_denied within five minutes.",
  login_blocked: "The page is not the login's registered site or one of its extra sites, or the login has no website.",
  merchant_blocked: "The card's private block list contains this host; do not retry.",
  card_blocked: "The card number is ambiguous among several cards, or binding checks failed; every attempt gives the same result.",
  limit_reached: "A spending limit on the agent card refused the fill.",
  checkout_total_unknown: "The order total could not be established, so no limit was compared.",
  plan_quota_reached: "The plan's payment quota or agent-card quota is reached.",
  cvv_entry_required: "The security code is never stored; live entry by the account holder was missed or is unavailable.",
  sensitive_data_blocked: "Page inspection (snapshot, frame listing) or an over-long selector after the first token fill.",
  fill_rejected: "The field rejected the value (for example a maxlength shorter than the value).",
  session_limit: "The concurrent proxy session limit is reached; the connection is refused.",
  unavailable: "The proxy instance is shutting down (open a new connection), or the hosted tool server could not obtain a credential.",
  unanswered: "The proxy stopped waiting for one call after 120 s; the session survives.",
  request_timeout: "The SDK's deadline passed; terminal, the session closes.",
  action_timeout: "The per-action bound passed; the session stays open.",
  connection_resumed: "After a network drop with resume on, the call that was in flight fails with this.",
  idle_timeout: "The session closed after 15 minutes with no message and no call in flight (WebSocket code 4008).",
  hard_timeout: "The session closed 60 minutes after it started (WebSocket code 4009).",
  insecure_site: "Residential egress is HTTPS only and the site cannot be loaded over HTTPS; not retryable.",
  egress_unavailable: "The required residential egress could not be provided.",
  write_outcome_unknown: "A write was sent and no whole answer came, so it may or may not have happened. Sending it again is safe only with the same `Idempotency-Key` and body, to a deployment that honours keys (its answers carry the key back); otherwise read what the write would have changed (poll the signup request, read the catalog) before deciding.",
  invalid_hint: "A page hint selector or frame is too long, or there are more than four hints of one kind.",
  hint_unresolved: "A TOTP-secret hint matched too much.",
  too_many_credentials: "The hosted tool server holds 50 live credentials for this connection (HTTP 429, with the seconds until the earliest expires).",
  too_many_connections: "The hosted tool server connection ceiling (200 per account) is reached.",
  attested_checkout_busy: "The concurrent attested-checkout ceiling is reached; it clears on its own, retry with backoff.",
  signup_preapproval_too_many: "A pre-approved list add was refused: over 100 sites in one add or 300 on the list.",
  login_extra_sites_limit: "More than 10 extra sign-in sites after reduction to hosts; nothing is saved (dashboard).",
  api_key_label_too_long: "An API key name longer than 200 characters after trimming (dashboard).",
  login_username_too_short: "A saved login username under 4 characters (dashboard).",
  login_password_too_short: "A saved login password under 4 characters (dashboard).",
  address_label_shape: "An address or identity label that is not 1 to 16 lowercase letters or digits (dashboard).",
  address_label_reserved: "An address or identity label that is a reserved word such as card, city or email (dashboard).",
  phone_shape: "A phone number with fewer than 4 digits after the country code or more than 15 in all (dashboard).",
  agent_card_cap_not_enforceable: "A spending limit that is not greater than zero (dashboard).",
  feedback_rate_limited: "More than 10 feedback messages in a rolling 24 hours (dashboard).",
  label_unavailable: "Internal reason an approval could not complete (no free label for the site name); never returned to the agent.",
};

/** The shape of a body, as the client checks it (one level of members; see RESULT_SHAPES). */
export interface Shape {
  /** The schema's title, when it has one. */
  readonly name?: string;
  /** JSON types the value may have (`integer` is a whole number). */
  readonly types?: readonly string[];
  /** The only values it may have. */
  readonly values?: readonly unknown[];
  /** Members it must have, each with its own shape. */
  readonly required?: Readonly<Record<string, Shape>>;
}

/**
 * The shapes each operation's 2xx answers may take, one per branch of their schemas: an answer must
 * match one. The client checks its JSON type and required members, one level deep, so that a body of
 * another operation (a mock's first example, a redirect's target) is refused rather than returned.
 */
export const RESULT_SHAPES: Readonly<Record<string, readonly Shape[]>> = {
  createLogin: [],
  decidePurchaseApproval: [{"name":"LinkDecisionResult","types":["object"],"required":{"status":{"values":["approved","denied"]}}}],
  decideSignupApproval: [{"name":"SignupApproval","types":["object"],"required":{"status":{"values":["pending","approved","denied"]},"website":{"types":["string"]},"email":{"types":["string"]}}}],
  fileSignupRequest: [{"name":"SignupRequestFiled","types":["object"],"required":{"requestId":{"types":["string"]},"status":{"values":["pending","approved"]},"expiresAt":{"types":["integer"]}}}],
  getChallengeRequest: [{"name":"ChallengeRequest","types":["object"]}],
  getCvvRequest: [{"name":"CvvRequest","types":["object"]}],
  getProxyHealth: [{"name":"ProxyHealth","types":["object"],"required":{"ok":{"values":[true]}}}],
  getPurchaseApproval: [{"name":"PurchaseApproval","types":["object"],"required":{"kind":{"types":["string"]},"offersDeclared":{"types":["boolean"]}}}],
  getRecipes: [{"name":"RecipeIndex","types":["object"],"required":{"recipes":{"types":["array"]}}},{"name":"RecipeLookup","types":["object"],"required":{"merchant":{"types":["object","null"]},"platform":{"types":["object","null"]},"signup":{"types":["object","null"]},"signupPlatform":{"types":["object","null"]}}}],
  getRecipeSubmission: [{"name":"RecipeSubmission","types":["object"],"required":{"id":{"types":["string"]},"key":{"types":["string"]},"status":{"values":["pending","approved","merged","rejected","needs_human"]},"verdict":{"types":["array"]}}}],
  getSignupApproval: [{"name":"SignupApproval","types":["object"],"required":{"status":{"values":["pending","approved","denied"]},"website":{"types":["string"]},"email":{"types":["string"]}}}],
  getSignupRequest: [{"name":"SignupRequestPending","types":["object"],"required":{"status":{"values":["pending"]},"expiresAt":{"types":["integer"]}}},{"name":"SignupRequestApproved","types":["object"],"required":{"status":{"values":["approved"]},"login":{"types":["object"]},"passwordPolicy":{"types":["object"]}}},{"name":"SignupRequestDenied","types":["object"],"required":{"status":{"values":["denied"]}}},{"name":"SignupRequestExpired","types":["object"],"required":{"status":{"values":["expired"]}}}],
  getTokenCatalog: [{"name":"TokenCatalog","types":["object"],"required":{"cards":{"types":["array"]},"logins":{"types":["array"]},"identity":{"types":["object"]},"addresses":{"types":["array"]}}}],
  rotateLoginPassword: [{"name":"RotatePasswordResult","types":["object"],"required":{"login":{"types":["object"]},"passwordPolicy":{"types":["object"]},"rotated":{"values":[true]}}}],
  setLoginUsername: [{"name":"LoginEnvelope","types":["object"],"required":{"login":{"types":["object"]}}}],
  submitRecipe: [{"name":"RecipeSubmissionAccepted","types":["object"],"required":{"id":{"types":["string"]},"status":{"values":["pending"]}}}],
};

/**
 * The webhook signature header of the document's webhooks (`x-signature-format`): its name, the
 * template of its value, the unit of `t` and the encoding of the signature, an HMAC-SHA256 over
 * `t`, a period and the raw body. `verifyWebhookRequest` reads it by default.
 */
export const WEBHOOK_SIGNATURE = {
  header: "Vault-Signature",
  value: "t={t},v1={signature}",
  timestampUnit: "seconds",
  signatureEncoding: "hex",
} as const;

/**
 * The event types the document describes, which `constructWebhookEvent` accepts: the `type` values
 * its event schemas allow, or, where a schema leaves `type` open, those of the webhook's examples.
 */
export const WEBHOOK_EVENT_TYPES = ["test"] as const;

/** The shapes of a delivery's body (its schema's branches), which `constructWebhookEvent` checks. */
export const WEBHOOK_EVENT_SHAPES: readonly Shape[] = [{"types":["object"],"required":{"id":{"types":["string"]},"type":{"types":["string"]},"created_at":{"types":["string"]},"agent_card_id":{"types":["string"]}}}];

/** The envelope of every webhook delivery (the document's `WebhookEvent`). */
export type WebhookEvent = components['schemas']['WebhookEvent'];
