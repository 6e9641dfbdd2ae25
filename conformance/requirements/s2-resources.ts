import { at, elsewhere, informative, must, notShown } from './types.js';

/** Section 2: the resources and the fields the specification names. */
export const RESOURCES = [
  // 2.1 Token catalog
  must('catalog-has-cards-and-logins', at('2.1', 'paragraph 1'), 'A catalog answer has a member `cards` holding the card entries and a member `logins` holding the login entries.', {
    leavesOpen: ['how a member holds its entries: a list, or an object keyed by label or id', 'the order of entries (but section 4.1 orders a filtered catalog\'s cards)'],
  }),
  must('catalog-related-logins-only-with-filter', at('2.1', 'paragraph 1'), 'A catalog answer has a member `relatedLogins` when a `url` (or `host`) filter was given, and none otherwise.', {
    leavesOpen: ['which logins `relatedLogins` holds, and in what form'],
  }),
  must('catalog-has-identity-and-addresses', at('2.1', 'paragraph 1'), 'A catalog answer carries the identity data and the addresses as further top-level members.', {
    leavesOpen: ['the names and shapes of those members'],
  }),
  must('tokens-are-opaque-strings', at('2.1', 'paragraph 1'), 'Every token is a string, meaningful to the service only.', { leavesOpen: ['its length and alphabet'] }),
  elsewhere('token-kinds-are-distinct', at('2.1', 'paragraph 1'), 'A token used as another kind of token resolves to token_not_found (resolution happens in the proxy).'),
  must('catalog-card-any-site', at('2.1', 'row card entry'), 'Each card entry has `anySite`, a boolean.'),
  must('catalog-card-tokens', at('2.1', 'row card entry'), 'Each card entry carries a card-number token and a security-code token.', {
    leavesOpen: ['the names of the members that hold them'],
  }),
  elsewhere('card-any-site-fills-anywhere', at('2.1', 'row card entry'), 'A card with anySite true fills on any site but those of its private block list.'),
  must('catalog-login-label', at('2.1', 'row login entry'), 'Each login entry has `label`: a string of at most 32 lowercase letters and digits.', {
    leavesOpen: ['how the label is derived from the site name, beyond its shape'],
  }),
  must('catalog-login-website', at('2.1', 'row login entry'), 'Each login entry has `website`, a string naming the registrable domain of its site.', {
    leavesOpen: ['the form of an internationalised name'],
  }),
  must('catalog-login-extra-websites', at('2.1', 'row login entry'), 'Each login entry has `extraWebsites`, its further sign-in sites.', { leavesOpen: ['the shape of the member'] }),
  must('catalog-login-flags', at('2.1', 'row login entry'), 'Each login entry has `hasEmail` and `hasTotp`, booleans, and `hasUsername` true once a username exists.', {
    readings: ['before a username exists, `hasUsername` is absent', 'before a username exists, `hasUsername` is absent or false'],
  }),
  must('catalog-login-tokens', at('2.1', 'row login entry'), 'Each login entry has `tokens`, an object with a `password` token, and a `totp` token when hasTotp is true; `email` and `username` tokens are named members of it.', {
    leavesOpen: ['whether `email` and `username` tokens are present while the login has no email or no username'],
  }),
  must('catalog-identity-missing', at('2.1', 'row identity'), 'The identity data has a token per field and lists every empty field in `missing`.', {
    leavesOpen: ['the member names of the fields'],
  }),
  elsewhere('identity-empty-token-not-found', at('2.1', 'row identity'), 'The token of an empty identity field resolves to token_not_found until the field is filled.'),
  must('catalog-phone-tokens', at('2.1', 'row phone tokens'), 'The identity data names its phone tokens `phone`, `phone_country`, `phone_national`, `phone_area`, `phone_prefix` and `phone_line`.', {
    leavesOpen: ['whether each is present while the phone is empty'],
  }),
  elsewhere('phone-parts-plus-one-only', at('2.1', 'row phone tokens'), 'The area, prefix and line tokens resolve only for numbers with country code +1.'),
  notShown('catalog-other-members', at('2.1', 'paragraph 2'), 'Members of the catalog beyond those named are not shown: a deployment may add its own.'),
  must('signup-login-entry-is-the-catalog-entry', at('2.1', 'paragraph 3'), 'The login entry a signup endpoint returns is the entry the catalog lists for that login.'),

  // 2.2 Recipe index entry
  must('index-entry-key', at('2.2', 'row key'), 'Every index entry has `key`, a string.'),
  must('index-signup-key-prefix', at('2.2', 'row key'), 'The key of a signup or signup-platform recipe starts with `signup:`.'),
  must('index-entry-kind', at('2.2', 'row kind'), 'Every index entry has `kind`: merchant, platform, signup or signup-platform.'),
  must('index-entry-platform', at('2.2', 'row platform'), 'An entry\'s `platform`, when present, is a string: the platform recipe it names, or custom; platform and signup-platform entries have none.'),
  must('index-entry-status', at('2.2', 'row status'), 'Every index entry has `status`: verified, partial, unverified or dead-end.'),
  must('index-entry-registry-version', at('2.2', 'row registryVersion'), 'Every index entry has `registryVersion`, a string: the release it came from, or exactly `submission` for a contribution.'),
  must('index-entry-recipe-only-with-full', at('2.2', 'row recipe'), 'An entry carries its body as `recipe`, an object, with full=1 and never without it.'),
  notShown('recipe-body-structure', at('2.2', 'paragraph 1'), 'The inside of a recipe body is not shown: its format is the deployment\'s.'),
  must('recipe-evidence-from-note', at('2.2', 'paragraph 1'), 'A recipe whose verification note was approved carries that note as `evidence` in its body.'),
  informative('recipe-preconditions', at('2.2', 'paragraph 1'), 'A recipe body may list `preconditions`; `delivery_location` is the one known value.'),

  // 2.3 Lookup
  must('lookup-four-slots', at('2.3', 'paragraph 1'), 'A lookup answer is an object with exactly the members merchant, platform, signup and signupPlatform.'),
  must('lookup-slot-summary', at('2.3', 'paragraph 1'), 'Each slot is null or a summary of a recipe with its id, kind, platform and status.', {
    leavesOpen: ['members beyond the four of a summary'],
  }),

  // 2.4 Submission
  must('submission-fields', at('2.4', 'row id'), 'A submission has `id`, a string, and `verdict`, a list of strings.'),
  must('submission-key', at('2.4', 'row key'), 'A submission has `key`, the key of its recipe.'),
  must('submission-status-values', at('2.4', 'row status'), 'A submission\'s `status` is pending, approved, merged, rejected or needs_human.'),
  must('submission-verdict-empty-while-pending', at('2.4', 'row verdict'), 'A pending submission\'s `verdict` is empty.'),

  // 2.5 Signup request
  must('signup-request-id', at('2.5', 'row requestId'), 'A filed signup request is given a `requestId`, a string.'),
  must('signup-status-values', at('2.5', 'row status'), 'A signup request\'s `status` is pending, approved, denied or expired.'),
  must('signup-expires-at', at('2.5', 'row expiresAt'), 'A pending request carries `expiresAt`, an integer timestamp in milliseconds.'),
  must('signup-login-when-approved', at('2.5', 'row login'), 'A request carries `login`, a login catalog entry, only when approved.'),
  must('signup-password-policy', at('2.5', 'row passwordPolicy'), '`passwordPolicy` is an object with `length` (an integer), `classes` (a list of lowercase, uppercase, digit and symbol) and `symbolAlphabet` (a string, absent when no symbols were used).'),
  must('signup-owner-managed', at('2.5', 'row passwordOwnerManaged'), '`passwordOwnerManaged` is true when the account holder replaced the generated password before the poll, and false or absent otherwise.'),
  must('poll-never-returns-password', at('2.5', 'paragraph 1'), 'No poll answer carries the login\'s password.'),

  // 2.6 Password rules
  must('rule-fields-optional', at('2.6', 'paragraph 1'), 'Every password rule field may be left out; a field of the wrong type is ignored, and the defaults apply in its place.'),
  must('rule-min-length', at('2.6', 'row minLength'), 'A `minLength` that is not a whole number, is above 64 or above `maxLength` is refused with invalid_policy.'),
  must('rule-max-length', at('2.6', 'row maxLength'), 'A `maxLength` that is not a whole number is refused with invalid_policy; one below 12 with password_too_short.'),
  must('rule-no-symbols', at('2.6', 'row noSymbols'), 'With `noSymbols`, the generated password has no symbol.'),
  must('rule-symbols', at('2.6', 'row symbols'), '`symbols` narrows the safe set `!@#$*+-_=.?` to the characters it names from it; others are ignored; none from the set is refused with invalid_policy.'),
  must('rule-no-repeats', at('2.6', 'row noRepeats'), 'With `noRepeats`, the generated password has no character three times in a row.', {
    untestable: 'The generated password is never shown to an agent (section 2.5), and the policy reports no repeat rule.',
  }),
  must('generated-password-length', at('2.6', 'paragraph 2'), 'A generated password has 12 to 64 characters, 24 by default, within the rules given.', { limits: ['generated-password-length'] }),
  must('generated-password-classes', at('2.6', 'paragraph 2'), 'A generated password has a lowercase letter, an uppercase letter and a digit, and a symbol unless noSymbols.'),

  // 2.7 Other resources
  notShown('agent-card-fields', at('2.7', 'bullet 1'), 'An agent card has a status, autoPauseOnLimit, spending limits, a block list and an optional webhook endpoint; its full field list is not shown.'),
  must('label-collision-numbering', at('2.7', 'bullet 2'), 'When a login\'s label is taken, `<name>2` to `<name>50` are tried in turn.', { limits: ['labels-per-site-name'] }),
] as const;
