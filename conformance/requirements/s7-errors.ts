import { at, client, elsewhere, informative, must, notShown } from './types.js';

/** Section 7: error bodies and codes. */
export const ERRORS = [
  must('errors-have-code-and-error', at('7', 'paragraph 1'), 'Every error answer is JSON with `code`, a string, and `error`, a non-empty string for people.', {
    leavesOpen: ['the wording of `error`', 'further members'],
  }),
  informative('error-wording-may-change', at('7', 'paragraph 1'), 'The wording of `error` may change.'),
  client('clients-branch-on-code', at('7', 'paragraph 1'), 'Clients branch on `code`, never on `error`.'),
  must('code-bad-request', at('7.1', 'row 400 bad_request'), 'A body that is not JSON is refused with 400 bad_request where the endpoint lists it.'),
  informative('code-invalid-website', at('7.1', 'row 400 invalid_website'), 'Restates section 4.6: invalid_website is 400.'),
  informative('code-invalid-email', at('7.1', 'row 400 invalid_email'), 'Restates section 4.6: invalid_email is 400.'),
  informative('code-invalid-username', at('7.1', 'row 400 invalid_username'), 'Restates sections 4.6 and 4.8: invalid_username is 400.'),
  informative('code-password-too-short', at('7.1', 'row 400 password_too_short'), 'Restates section 2.6: password_too_short is 400.'),
  must('code-invalid-policy', at('7.1', 'row 400 invalid_policy'), 'A length that is not a whole number is refused with invalid_policy (as are the other broken rules of section 2.6).'),
  informative('code-invalid-recipe', at('7.1', 'row 400 invalid_recipe'), 'Restates section 4.3: invalid_recipe is 400, with the problems in `errors`.'),
  informative('code-declared', at('7.1', 'row 400 declared_not_offered, declared_required'), 'Restates section 4.11: both codes are 400.'),
  informative('code-unauthorized', at('7.1', 'row 401 unauthorized'), 'Restates section 5 item 3.'),
  informative('code-invalid-api-key', at('7.1', 'row 401 invalid_api_key'), 'Restates section 5 item 3.'),
  informative('code-signup-not-enabled', at('7.1', 'row 403 signup_not_enabled'), 'Restates section 5 item 5.'),
  informative('code-login-limit', at('7.1', 'row 403 login_limit'), 'Restates section 4.6.'),
  informative('code-scope-denied', at('7.1', 'row 403 scope_denied'), 'Restates section 3: scope_denied (403) answers a poll of an approved login that left the key\'s scope. Section 7.2 uses the same code for a token outside the key\'s scope, a meaning of the proxy\'s.'),
  informative('code-not-found', at('7.1', 'row 404 not_found'), 'Restates sections 4.4 and 4.8.'),
  informative('code-request-not-found', at('7.1', 'row 404 request_not_found'), 'Restates section 4.7.'),
  informative('code-username-already-set', at('7.1', 'row 409 username_already_set'), 'Restates section 4.8.'),
  informative('code-not-rotatable', at('7.1', 'row 409 not_rotatable'), 'Restates section 4.9.'),
  informative('code-signup-requires-approval', at('7.1', 'row 410 signup_requires_approval'), 'Restates section 4.10.'),
  informative('code-invalid-recipe-413', at('7.1', 'row 413 invalid_recipe'), 'Restates section 4.3.'),
  informative('code-bad-request-413', at('7.1', 'row 413 bad_request'), 'Restates section 4.5.'),
  must('rate-limited-retry-after', at('7.1', 'row 429 rate_limited'), 'A 429 rate_limited carries Retry-After in whole seconds, at least 1, except from the recipe budget.', {
    limits: ['catalog-per-key', 'catalog-per-account', 'login-writes-per-key'],
  }),
  must('too-many-pending-no-retry-after', at('7.1', 'row 429 too_many_pending'), 'A 429 too_many_pending carries no Retry-After.', { limits: ['pending-signup-requests'] }),
  must('daily-limit-no-retry-after', at('7.1', 'row 429 daily_limit'), 'A 429 daily_limit carries no Retry-After.', { limits: ['credential-changes-per-account'] }),
  informative('rate-limited-one-code', at('7.1', 'paragraph 1'), 'Every per-minute or per-window refusal is rate_limited; clients tell them apart by the call, since an intermediary may strip Retry-After.'),
  elsewhere('client-and-proxy-codes', at('7.2', 'table'), 'The codes of the client and the proxy (token_not_found to label_unavailable) belong to token resolution, proxy sessions, the hosted tool server and the dashboard.'),
  must('label-unavailable-hidden', at('7.2', 'table'), 'label_unavailable is never returned to an agent: an approval that finds no free label leaves the request pending.'),
  notShown('client-and-proxy-statuses', at('7.2', 'paragraph 1'), 'The HTTP statuses of the client and proxy codes are not shown.'),
] as const;
