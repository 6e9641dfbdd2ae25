/**
 * Generated from the bundled OpenAPI document (dist/openapi.json, built from openapi/openapi.yaml)
 * by client/scripts/generate.ts (`npm run generate`). Do not edit by hand: change the document and
 * regenerate. `npm run check:generated` fails when this file is stale.
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
    errors: { 400: ["bad_request", "declared_not_offered", "declared_required"], 404: ["not_found"], 408: ["bad_request"], 413: ["bad_request"], 431: ["bad_request"] } },
  decideSignupApproval: { method: "post", path: "/v1/signup-requests/{token}", apiKey: false, origin: "api", pathParams: ["token"], queryParams: [], body: "required",
    errors: { 400: ["bad_request"], 404: ["not_found"], 408: ["bad_request"], 413: ["bad_request"], 431: ["bad_request"] } },
  fileSignupRequest: { method: "post", path: "/v1/logins/requests", apiKey: true, origin: "api", pathParams: [], queryParams: [], body: "required",
    errors: { 400: ["bad_request", "invalid_website", "invalid_email", "invalid_username", "password_too_short", "invalid_policy"], 401: ["unauthorized", "invalid_api_key"], 403: ["signup_not_enabled", "login_limit"], 408: ["bad_request"], 413: ["bad_request"], 429: ["rate_limited", "too_many_pending"], 431: ["bad_request"] } },
  getChallengeRequest: { method: "get", path: "/v1/challenge-requests/{token}", apiKey: false, origin: "api", pathParams: ["token"], queryParams: [], body: "none",
    errors: { 404: ["not_found"], 408: ["bad_request"], 431: ["bad_request"] } },
  getCvvRequest: { method: "get", path: "/v1/cvv-requests/{token}", apiKey: false, origin: "api", pathParams: ["token"], queryParams: [], body: "none",
    errors: { 404: ["not_found"], 408: ["bad_request"], 431: ["bad_request"] } },
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
    errors: { 401: ["unauthorized", "invalid_api_key"], 408: ["bad_request"], 429: ["rate_limited"], 431: ["bad_request"] } },
  rotateLoginPassword: { method: "post", path: "/v1/logins/password", apiKey: true, origin: "api", pathParams: [], queryParams: [], body: "required",
    errors: { 400: ["bad_request", "password_too_short", "invalid_policy"], 401: ["unauthorized", "invalid_api_key"], 403: ["signup_not_enabled"], 408: ["bad_request"], 409: ["not_rotatable"], 413: ["bad_request"], 429: ["rate_limited", "daily_limit"], 431: ["bad_request"] } },
  setLoginUsername: { method: "post", path: "/v1/logins/username", apiKey: true, origin: "api", pathParams: [], queryParams: [], body: "required",
    errors: { 400: ["bad_request", "invalid_username"], 401: ["unauthorized", "invalid_api_key"], 403: ["signup_not_enabled"], 404: ["not_found"], 408: ["bad_request"], 409: ["username_already_set"], 413: ["bad_request"], 429: ["rate_limited", "daily_limit"], 431: ["bad_request"] } },
  submitRecipe: { method: "post", path: "/v1/recipes", apiKey: true, origin: "api", pathParams: [], queryParams: [], body: "required",
    errors: { 400: ["invalid_recipe"], 401: ["unauthorized", "invalid_api_key"], 408: ["bad_request"], 413: ["invalid_recipe"], 429: ["rate_limited"], 431: ["bad_request"] } },
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
    minLength?: number;
    /**
     * Number. The most characters the site accepts: a whole number (otherwise 400
     * `invalid_policy`); below 12 gives 400 `password_too_short`. Ignored when not a
     * number.
     */
    maxLength?: number;
    /**
     * Boolean. `true` when the site rejects punctuation: the password then has no
     * symbol and `passwordPolicy` has no `symbolAlphabet`. Ignored when not a boolean.
     */
    noSymbols?: boolean;
    /**
     * String. The exact punctuation the site accepts. It narrows the safe set
     * `!@#$*+-_=.?`: characters outside that set are ignored, and a string with none
     * of them gives 400 `invalid_policy`. Ignored when not a string.
     */
    symbols?: string;
    /**
     * Boolean. `true` when the site rejects three identical characters in a row: the
     * password then never has one character three times in a row. Ignored when not a
     * boolean.
     */
    noRepeats?: boolean;
  };
  rotateLoginPassword: {
    /**
     * Number. The fewest characters the site accepts: a whole number, at most 64 and
     * not above `maxLength`; otherwise 400 `invalid_policy`. Ignored when not a number.
     */
    minLength?: number;
    /**
     * Number. The most characters the site accepts: a whole number (otherwise 400
     * `invalid_policy`); below 12 gives 400 `password_too_short`. Ignored when not a
     * number.
     */
    maxLength?: number;
    /**
     * Boolean. `true` when the site rejects punctuation: the password then has no
     * symbol and `passwordPolicy` has no `symbolAlphabet`. Ignored when not a boolean.
     */
    noSymbols?: boolean;
    /**
     * String. The exact punctuation the site accepts. It narrows the safe set
     * `!@#$*+-_=.?`: characters outside that set are ignored, and a string with none
     * of them gives 400 `invalid_policy`. Ignored when not a string.
     */
    symbols?: string;
    /**
     * Boolean. `true` when the site rejects three identical characters in a row: the
     * password then never has one character three times in a row. Ignored when not a
     * boolean.
     */
    noRepeats?: boolean;
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
 * The one-line meaning of each code, from the schema's `x-enumDescriptions`. The document gives it for
 * 0 of the 40 codes; the others have none here until the document has it.
 */
export const CLIENT_ERROR_MEANINGS: Readonly<Partial<Record<components['schemas']['ClientErrorCode'], string>>> = {
};
