import { at, client, elsewhere, informative, must } from './types.js';

/** Section 8: plans, limits, ceilings, deadlines and bounds. */
export const LIMITS = [
  // 8.1
  elsewhere('plan-payments', at('8.1', 'row payments'), 'Payments per rolling 30 days by plan (5, 100, unlimited).'),
  elsewhere('plan-agent-cards', at('8.1', 'row agent cards'), 'Agent cards by plan (1, 5, unlimited).'),
  informative('plan-credentials', at('8.1', 'row credentials'), 'Credentials are unlimited on every plan.'),
  elsewhere('plan-daily-spending', at('8.1', 'row daily spending limits'), 'Daily spending limits on Plus and Enterprise only.'),
  elsewhere('plan-merchant-allowlists', at('8.1', 'row merchant allowlists'), 'Merchant allowlists on Enterprise only.'),
  informative('plan-webhooks', at('8.1', 'row webhook notifications'), 'Restates section 6 item 1 by plan.'),
  must('catalog-per-key-per-minute', at('8.1', 'row catalog requests per key'), 'A key makes at most 60, 300 or 600 catalog requests a minute (by plan); the next is refused with 429 rate_limited.', { limits: ['catalog-per-key'] }),
  must('catalog-per-account-per-minute', at('8.1', 'row catalog requests per account'), 'An account\'s keys together make at most 120, 600 or 1,200 catalog requests a minute (by plan).', { limits: ['catalog-per-account'] }),
  elsewhere('plan-live-sessions', at('8.1', 'row live proxy sessions'), 'Live proxy sessions per account by plan.'),
  elsewhere('plan-new-sessions-key', at('8.1', 'row new proxy sessions per key'), 'New proxy sessions per key per minute by plan.'),
  elsewhere('plan-new-sessions-account', at('8.1', 'row new proxy sessions per account'), 'New proxy sessions per account per minute by plan.'),
  elsewhere('plan-resolutions-key', at('8.1', 'row token resolutions per key'), 'Token resolutions per key per minute by plan.'),
  elsewhere('plan-resolutions-account', at('8.1', 'row token resolutions per account'), 'Token resolutions per account per minute by plan.'),
  elsewhere('payment-quota-rolling', at('8.1', 'item 1'), 'The payment quota is a rolling window; upgrading raises it without resetting the count.'),
  elsewhere('agent-card-quota', at('8.1', 'item 2'), 'The agent-card quota counts cards linked to an existing funding card, oldest first.'),
  elsewhere('plan-quota-production-only', at('8.1', 'item 3'), 'Plan quotas and spending windows apply on production deployments only; refusals are plan_quota_reached.'),
  must('windows-fixed', at('8.1', 'item 4'), 'A per-minute window is fixed, not sliding: once spent, it refuses until it ends, then allows its whole budget again.', {
    readings: ['the windows are aligned to the clock\'s minutes', 'a window starts at the first counted request and lasts a minute'],
  }),
  must('refused-records-nothing', at('8.1', 'item 4'), 'A refused request counts toward no limit.'),
  must('account-budgets-shared', at('8.1', 'item 4'), 'A per-account budget is shared by all the account\'s keys.'),

  // 8.2
  elsewhere('spending-per-transaction', at('8.2', 'row per transaction'), 'A per-transaction spending limit, 75 by default.'),
  elsewhere('spending-per-day', at('8.2', 'row per day'), 'A daily spending limit on Plus and Enterprise, 100 by default.'),
  elsewhere('spending-per-week', at('8.2', 'row per week'), 'A weekly spending limit, 200 by default.'),
  elsewhere('spending-per-30-days', at('8.2', 'row per 30 days'), 'A 30-day spending limit, 500 by default.'),
  elsewhere('spending-rules', at('8.2', 'paragraph 1'), 'Limits are positive, foreign totals converted with a 3% buffer, and a fill counts when it lands.'),

  // 8.3
  informative('rate-catalog', at('8.3', 'row GET /v1/tokens'), 'Restates the catalog limits of section 8.1, which answer with Retry-After.'),
  must('recipe-budget', at('8.3', 'row POST /v1/recipes'), 'An account makes at most 20 submissions (by default; a deployment may set another number) in any rolling 24 hours; the next is refused with 429 rate_limited, without Retry-After.', {
    limits: ['recipe-submissions-per-account'],
  }),
  must('login-writes-count', at('8.3', 'row login writes'), 'Filing a request counts toward a key\'s 20 login writes a minute; polling does not; the refusal carries Retry-After.', { limits: ['login-writes-per-key'] }),
  must('credential-budget', at('8.3', 'row credential changes'), 'An account makes at most 25 credential changes (by default; a deployment may set another number) in a 24-hour window that starts at its first counted change; the next is refused with 429 daily_limit, without Retry-After.', {
    limits: ['credential-changes-per-account'],
  }),
  must('pending-five', at('8.3', 'row pending signup requests'), 'An account has at most 5 pending signup requests.', { limits: ['pending-signup-requests'] }),

  // 8.4
  must('logins-ceiling', at('8.4', 'row logins'), 'With 500 logins, an agent\'s new signup is refused with login_limit until the account holder deletes logins.', { limits: ['logins-per-account'] }),
  must('labels-per-name', at('8.4', 'row labels per site name'), 'Sites with the same name share 50 labels; with all taken, approval cannot complete and the request stays pending.', { limits: ['labels-per-site-name'] }),
  elsewhere('extra-sites-per-login', at('8.4', 'row extra sign-in sites'), 'A login has at most 10 extra sign-in sites (a dashboard rule, login_extra_sites_limit).'),
  must('scoped-list-ceiling', at('8.4', 'row scoped key list'), 'A scoped key\'s own list takes 50 additions, and a list of over 200 entries counts as full; approval then fails with scope_full, shown only to the account holder.', {
    limits: ['scoped-key-login-list'],
  }),
  informative('lifetime-signup', at('8.4', 'row signup request lifetime'), 'Restates section 3: a signup request lives 24 hours.'),
  informative('preapproved-site-ceiling', at('8.4', 'row pre-approved per site'), 'Restates section 4.6.'),
  informative('preapproved-account-ceiling', at('8.4', 'row pre-approved per account'), 'Restates section 4.6.'),
  elsewhere('preapproved-add-size', at('8.4', 'row sites per pre-approved add'), 'One add to the pre-approved list takes at most 100 sites (a dashboard rule).'),
  elsewhere('preapproved-list-size', at('8.4', 'row sites on the pre-approved list'), 'The pre-approved list holds at most 300 sites (a dashboard rule).'),
  elsewhere('hosted-connections', at('8.4', 'row hosted connections'), 'Hosted tool-server connections, 200 per account.'),
  elsewhere('hosted-credentials', at('8.4', 'row credentials per hosted connection'), 'Live credentials per hosted connection, 50.'),
  elsewhere('egress-country-reads', at('8.4', 'row egress country reads'), 'Cards and addresses read to choose an egress country.'),
  elsewhere('untunneled-sites', at('8.4', 'row untunneled egress sites'), 'Sites counted in one untunneled_egress event.'),
  elsewhere('alert-devices', at('8.4', 'row alert devices'), 'Devices with background alerts, 20 per account.'),
  elsewhere('attested-checkouts', at('8.4', 'row attested checkouts'), 'Attested checkouts at once.'),
  elsewhere('key-revocation', at('8.4', 'row key revocation'), 'Three cross_user_denied within 5 minutes revoke a key.'),

  // 8.5
  elsewhere('deadline-idle', at('8.5', 'row idle timeout'), 'Restates the idle timeout of section 3.'),
  elsewhere('deadline-hard', at('8.5', 'row hard timeout'), 'Restates the hard timeout of section 3.'),
  elsewhere('deadline-proxy-call', at('8.5', 'row proxy per-call deadline'), 'The proxy\'s per-call deadline.'),
  elsewhere('deadline-sdk-call', at('8.5', 'row SDK per-call deadline'), 'The SDK\'s per-call deadline.'),
  elsewhere('deadline-dropped', at('8.5', 'row dropped connection'), 'How long a dropped session is held and redialled.'),
  elsewhere('deadline-slot-leak', at('8.5', 'row session slot leak'), 'A leaked session slot frees itself within 3 minutes.'),
  must('purchase-approval-lifetime', at('8.5', 'row waiting for the account holder'), 'A purchase approval link waits 5 minutes, then refuses.', {
    limits: ['purchase-approval-lifetime'],
    readings: ['at exactly 5 minutes the link refuses', 'at exactly 5 minutes the link may still work; any moment after it, it refuses'],
  }),
  elsewhere('new-site-approval-wait', at('8.5', 'row waiting for the account holder'), 'A new-site approval waits 15 minutes or to the session\'s end.'),
  must('cvv-prompt-lifetime', at('8.5', 'row waiting for the account holder'), 'A live security-code prompt waits about 3 minutes, then refuses.', {
    limits: ['cvv-request-lifetime'],
    range: { min: 144, max: 216, unit: 'seconds', why: '"about" read as within a fifth either way of the figure' },
  }),
  must('challenge-handoff-lifetime', at('8.5', 'row waiting for the account holder'), 'A challenge handoff waits about 10 minutes, then refuses.', {
    limits: ['challenge-request-lifetime'],
    range: { min: 480, max: 720, unit: 'seconds', why: '"about" read as within a fifth either way of the figure' },
  }),
  informative('signup-wait', at('8.5', 'row waiting for the account holder'), 'Restates section 3: a signup request waits 24 hours.'),
  must('data-retention', at('8.5', 'row data retention'), 'Sessions and receipts are kept 30 days; fill history, logs and answered requests until the account is deleted; expired data is removed hourly.', {
    untestable: 'Retention shows in data the HTTP API does not serve (sessions, receipts, logs), over days.',
  }),
  elsewhere('slot-release-after-close', at('8.5', 'paragraph 1'), 'A slot may not be free at once after browser.close returns.'),

  // 8.6 to 8.9
  elsewhere('hosted-tool-server-limits', at('8.6', 'table'), 'The hosted tool server\'s idle, age, credential, call, body and rate bounds.'),
  informative('bound-recipe-body', at('8.7', 'row recipe submission body'), 'Restates section 4.3: 64 KB.'),
  informative('bound-login-body', at('8.7', 'row login write body'), 'Restates section 4.5: 4 KB.'),
  informative('bound-recipe-note', at('8.7', 'row recipe note'), 'Restates section 4.3: 2,000 characters.'),
  elsewhere('bound-receipt-image', at('8.7', 'row receipt image'), 'Session receipt images are bounded.'),
  elsewhere('bound-approval-screenshot', at('8.7', 'row approval screenshot'), 'Purchase approval screenshots are bounded.'),
  elsewhere('bound-order-total', at('8.7', 'row orderTotal'), 'recordOutcome\'s orderTotal is bounded.'),
  elsewhere('bound-api-key-name', at('8.7', 'row API key name'), 'An API key\'s name is at most 200 characters (a dashboard rule).'),
  elsewhere('bound-saved-login', at('8.7', 'row saved login username and password'), 'A saved login\'s username and password have at least 4 characters (a dashboard rule).'),
  informative('bound-email', at('8.7', 'row email'), 'Restates section 4.6.'),
  elsewhere('bound-labels', at('8.7', 'row address and identity labels'), 'Address and identity labels are 1 to 16 lowercase letters or digits (a dashboard rule).'),
  elsewhere('bound-phone', at('8.7', 'row phone number'), 'A phone number has 4 to 15 digits (a dashboard rule).'),
  elsewhere('bound-security-code', at('8.7', 'row security code entry'), 'A security code entry is 3 or 4 digits.'),
  elsewhere('bound-two-factor', at('8.7', 'row two-factor link'), 'An imported two-factor link is bounded (a dashboard rule).'),
  elsewhere('bound-feedback', at('8.7', 'row feedback message'), 'Feedback is bounded (a dashboard rule).'),
  elsewhere('bound-account-signup', at('8.7', 'row account sign-up'), 'Account sign-up values are bounded (a dashboard rule).'),
  informative('bound-generated-password', at('8.7', 'row generated password'), 'Restates section 2.6.'),
  elsewhere('tool-limits', at('8.8', 'table'), 'The limits of the agent tools.'),
  client('client-settings', at('8.9', 'table'), 'The client package and the hosted tool server read the settings of the table.'),
  informative('client-settings-brand', at('8.9', 'paragraph 1'), 'The settings\' names carry the service\'s brand, here VAULT.'),
  informative('local-development-http', at('8.9', 'paragraph 2'), 'Local development uses http:// for the API.'),
] as const;
