import { at, client, elsewhere, informative, must } from './types.js';

/** Sections 4.5 to 4.10: the signup workflow and the login endpoints. */
export const SIGNUP = [
  // 4.5
  must('login-endpoints-need-a-key', at('4.5', 'paragraph 1'), 'The four signup and login endpoints need an API key.'),
  must('login-writes-need-signup-permission', at('4.5', 'paragraph 1'), 'The three POST endpoints refuse a key without the signup permission with 403 signup_not_enabled.'),
  must('login-write-body-cap', at('4.5', 'paragraph 1'), 'A login write body over 4 KB is refused with 413 bad_request; one within it is read.', {
    readings: ['4 KB is 4,096 bytes', '4 KB is 4,000 bytes'],
    limits: ['login-write-body'],
  }),
  must('login-writes-per-minute', at('4.5', 'paragraph 1'), 'A key makes at most 20 login writes a minute; the next is refused with 429 rate_limited.', {
    limits: ['login-writes-per-key'],
    readings: ['a refused write counts toward the 20 (section 8.3: filing counts)', 'a refused write records nothing (section 8.1 item 4)'],
  }),
  must('username-password-charge-budget', at('4.5', 'bullet 1'), 'Setting a username and rotating a password charge the account\'s credential-change budget when they write, and answer 429 daily_limit once it is spent.', {
    limits: ['credential-changes-per-account'],
  }),
  must('filing-does-not-charge-budget', at('4.5', 'bullet 2'), 'Filing an ordinary pending request does not charge the credential-change budget.'),
  client('poll-takes-no-body', at('4.5', 'bullet 3'), 'A poll of a signup request is sent without a body.'),
  must('poll-is-not-counted', at('4.5', 'bullet 3'), 'Polling counts neither toward the per-minute login writes nor toward the budget.'),
  must('poll-only-by-the-filing-key', at('4.5', 'bullet 3'), 'A signup request is answered only to the key that filed it; any other key gets 404 request_not_found.'),

  // 4.6
  must('filing-website-registrable', at('4.6', 'row website'), 'A filing whose `website` is not a registrable domain is refused with 400 invalid_website.', {
    readings: ['a filing without `website` is 400 bad_request (the body is not the operation\'s JSON)', 'a filing without `website` is 400 invalid_website (no registrable domain)'],
  }),
  must('filing-email-shape', at('4.6', 'row email'), 'A filing whose `email` is not one address of 4 to 254 characters with one @ and no whitespace is refused with 400 invalid_email.', {
    readings: ['a filing without `email` is 400 bad_request', 'a filing without `email` is 400 invalid_email'],
    leavesOpen: ['which characters count as whitespace beyond the ASCII ones'],
  }),
  must('filing-username-shape', at('4.6', 'row username'), 'A filing whose `username` has fewer than 4 characters or a control character is refused with 400 invalid_username.', {
    leavesOpen: ['whether characters are counted as code points or UTF-16 units', 'which characters count as control characters beyond Unicode\'s Cc category'],
  }),
  client('filing-username-only-if-accepted', at('4.6', 'row username'), 'An agent sends a username only when the site already accepted it.'),
  informative('filing-rule-fields', at('4.6', 'row password rule fields'), 'A filing may carry the password rule fields of section 2.6.'),
  must('filing-answer-202', at('4.6', 'paragraph 1'), 'A filing answers 202 with `requestId`, `status` pending or approved, and `expiresAt`, an integer timestamp in milliseconds.', {
    readings: ['`expiresAt` is present on every filing answer (section 4.6)', '`expiresAt` is present on a pending filing only (section 2.5)'],
  }),
  must('filing-expires-in-24-hours', at('4.6', 'paragraph 1'), 'A pending request\'s `expiresAt` is 24 hours after its filing.', { limits: ['signup-request-lifetime'] }),
  must('filing-approved-login-exists', at('4.6', 'paragraph 1'), 'A filing answered approved has created its login: the first poll carries its tokens.'),
  client('filing-clients-handle-both', at('4.6', 'paragraph 1'), 'A pre-approved filing that cannot complete falls back to pending; a client handles both answers.'),
  must('preapproval-per-site', at('4.6', 'paragraph 2'), 'A listed site is pre-approved for 2 signups, until the account holder lists it anew (removed and added again, or saved with another email).', {
    limits: ['preapproved-signups-per-site'],
  }),
  must('preapproval-per-account', at('4.6', 'paragraph 2'), 'An account has 60 pre-approved signups (a deployment may set another number) per 24-hour window that starts at its first pre-approved signup.', {
    limits: ['preapproved-signups-per-account'],
  }),
  must('preapproval-beyond-is-pending', at('4.6', 'paragraph 2'), 'Beyond either ceiling, or when another approval check fails, a pre-approved filing is answered pending.'),
  must('filing-login-limit', at('4.6', 'paragraph 3'), 'At 500 logins, a filing is refused with 403 login_limit and creates no request, pre-approved or not.', { limits: ['logins-per-account'] }),
  must('approval-rechecks-login-limit', at('4.6', 'paragraph 3'), 'The 500-login ceiling is checked again when the account holder approves.'),
  must('filing-errors', at('4.6', 'errors'), 'POST /v1/logins/requests refuses with the listed codes only: 400 bad_request, invalid_website, invalid_email, invalid_username, password_too_short, invalid_policy; 401; 403 signup_not_enabled, login_limit; 413 bad_request; 429 too_many_pending, rate_limited.'),
  must('too-many-pending', at('4.6', 'errors'), 'With five requests awaiting a decision, a filing is refused with 429 too_many_pending, without Retry-After.', { limits: ['pending-signup-requests'] }),

  // 4.7
  informative('poll-path-id', at('4.7', 'paragraph 1'), 'A poll names the request by its requestId.'),
  must('poll-answer-200', at('4.7', 'paragraph 1'), 'A poll of a request the key may see answers 200.'),
  must('poll-pending-expires-at', at('4.7', 'row pending'), 'A pending request\'s poll carries `expiresAt`.'),
  must('poll-approved-members', at('4.7', 'row approved'), 'An approved request\'s poll carries `login`, `passwordPolicy` and `passwordOwnerManaged`.', {
    readings: ['`passwordOwnerManaged` is always present on an approved poll', '`passwordOwnerManaged` may be absent, meaning false (section 9 item 3)'],
  }),
  must('poll-denied-nothing-else', at('4.7', 'row denied'), 'A denied request\'s poll carries no field of a signup request but its status.', {
    readings: ['the body is exactly {status}', 'the body has none of the other fields of section 2.5; members the specification never names are not its subject'],
  }),
  must('poll-expired-nothing-else', at('4.7', 'row expired'), 'An expired request\'s poll carries no field of a signup request but its status.', {
    readings: ['the body is exactly {status}', 'the body has none of the other fields of section 2.5; members the specification never names are not its subject'],
  }),
  informative('owner-managed-policy-stale', at('4.7', 'paragraph 2'), 'Once the account holder replaced the password, the policy describes a password that no longer exists.'),
  elsewhere('owner-managed-token-fills', at('4.7', 'paragraph 2'), 'The password token then fills the account holder\'s password.'),
  must('owner-managed-not-rotatable', at('4.7', 'paragraph 2'), 'Once the account holder replaced the password, rotating it is refused for good with 409 not_rotatable.'),
  must('poll-errors', at('4.7', 'errors'), 'A poll refuses with 401, 403 scope_denied or 404 request_not_found only.'),
  must('poll-unknown-request', at('4.7', 'errors'), 'A poll of an unknown request id is 404 request_not_found.'),

  // 4.8
  must('username-body', at('4.8', 'paragraph 1'), 'A username write takes `label` and `username`; a username under 4 characters or with a control character is refused with 400 invalid_username.', {
    readings: ['a write without `username` is 400 bad_request', 'a write without `username` is 400 invalid_username', 'a write without `label` is 400 bad_request', 'a write without `label` is 404 not_found (no login has that label)'],
  }),
  must('username-answer', at('4.8', 'paragraph 1'), 'A username write answers 200 with `login`, the updated entry, `hasUsername` true and a username token.'),
  must('username-recorded-once', at('4.8', 'rule 1'), 'A username is recorded once: the identical one again succeeds with the same answer, even after the window; another is refused with 409 username_already_set.', {
    readings: ['"the same envelope" is the same JSON value', '"the same envelope" is the same members the specification names (`login`); members that differ in every answer, such as a request id or a time, are not its subject'],
  }),
  must('username-creating-key-in-window', at('4.8', 'rule 2'), 'Only the key that created the login sets its username, within seven days of creation (a deployment may set another window); another key, a later write or an unknown label is 404 not_found.', {
    limits: ['login-change-window'],
  }),
  must('username-errors', at('4.8', 'errors'), 'POST /v1/logins/username refuses with the listed codes only: 400 bad_request, invalid_username; 401; 403 signup_not_enabled; 404 not_found; 409 username_already_set; 413; 429 daily_limit, rate_limited.'),

  // 4.9
  must('rotate-answer', at('4.9', 'paragraph 1'), 'A rotation answers 200 with `login`, `passwordPolicy` and `rotated` true.'),
  must('rotate-tokens-unchanged', at('4.9', 'paragraph 1'), 'A rotation does not change the login\'s tokens.'),
  elsewhere('rotate-token-fills-new-password', at('4.9', 'paragraph 1'), 'The existing password token fills the new password.'),
  must('rotate-policy-without-symbols', at('4.9', 'paragraph 1'), 'With noSymbols, the rotation\'s `passwordPolicy` has no `symbolAlphabet`.'),
  must('rotate-only-creator-in-window', at('4.9', 'paragraph 2'), 'Only the creating key rotates a login\'s password, within seven days of creation (a deployment may set another window), while the account holder has not replaced it; any other case, an unknown label included, is 409 not_rotatable.', {
    limits: ['login-change-window'],
    readings: ['a rotation without `label` is 400 bad_request', 'a rotation without `label` is 409 not_rotatable (no login has that label)'],
  }),
  must('rotate-errors', at('4.9', 'errors'), 'POST /v1/logins/password refuses with the listed codes only: 400 bad_request, password_too_short, invalid_policy; 401; 403 signup_not_enabled; 409 not_rotatable; 413; 429 daily_limit, rate_limited.'),

  // 4.10
  must('retired-answers-410', at('4.10', 'paragraph 1'), 'POST /v1/logins answers 410 signup_requires_approval, whatever it is sent (the overview gives it no authentication).'),
] as const;
