import { at, client, informative, must } from './types.js';

/** Sections 4 to 4.4: every body is JSON; the catalog and the recipe registry. */
export const CATALOG_AND_RECIPES = [
  must('bodies-are-json', at('4', 'paragraph 1'), 'Every body an endpoint answers with is JSON.', {
    readings: ['the media type is application/json', 'the media type is any JSON media type: application/json or a +json type (RFC 6839), with or without parameters'],
    leavesOpen: ['which JSON media type'],
  }),
  informative('errors-described-in-7', at('4', 'paragraph 1'), 'The error bodies are those of section 7.'),

  // 4.1
  must('tokens-need-a-key', at('4.1', 'bullet 1'), 'GET /v1/tokens needs an API key.'),
  must('tokens-no-store', at('4.1', 'bullet 1'), 'An answer of GET /v1/tokens carries Cache-Control with the no-store directive.', {
    leavesOpen: ['further directives beside no-store'],
    readings: ['every answer of the endpoint, refusals included', 'every answer to a request whose key was accepted'],
  }),
  must('tokens-url-narrows', at('4.1', 'bullet 2'), 'With `url`, `cards` and `logins` hold only those registered for that page, and `relatedLogins` is added.', {
    leavesOpen: ['what counts as registered for a page beyond the login\'s website and extra sites and the card\'s allowed sites'],
  }),
  must('tokens-host-alias', at('4.1', 'bullet 2'), '`host` is another name for `url`: the same cards and logins for a page\'s host as for the page.'),
  must('tokens-any-site-cards-kept-last', at('4.1', 'bullet 2'), 'With a filter, every anySite card is kept, after the cards registered for the page.'),
  must('tokens-unparseable-url', at('4.1', 'bullet 2'), 'A filter value that does not parse matches no site: every site-scoped card and every login is dropped, every anySite card is kept.'),
  must('tokens-filter-keeps-identity', at('4.1', 'bullet 2'), 'The filter does not change the identity data or the addresses.'),
  must('tokens-answer-200', at('4.1', 'bullet 3'), 'A successful read answers 200 with the token catalog.'),
  informative('tokens-filter-convenience', at('4.1', 'bullet 4'), 'The filter is a convenience; the proxy, not the filter, locks tokens to sites.'),
  must('tokens-read-marks-key-used', at('4.1', 'bullet 5'), 'A successful read marks the key as used.', {
    untestable: 'Whether a key was used shows only on the account holder\'s dashboard, which no request of the API reads.',
  }),
  must('tokens-errors', at('4.1', 'bullet 6'), 'GET /v1/tokens refuses with 401 unauthorized, 401 invalid_api_key or 429 rate_limited only.'),
  must('tokens-rate-limited-retry-after', at('4.1', 'bullet 6'), 'A 429 rate_limited of GET /v1/tokens carries Retry-After in whole seconds, at least 1.', { limits: ['catalog-per-key', 'catalog-per-account'] }),

  // 4.2
  must('recipes-need-no-key', at('4.2', 'bullet 1'), 'GET /v1/recipes is answered without an API key.'),
  must('lookup-by-url', at('4.2', 'bullet 2'), 'With `url`, GET /v1/recipes answers the four-slot lookup for that page.', {
    leavesOpen: ['which recipes serve which page: that follows from recipe bodies, whose format is not shown'],
  }),
  client('lookup-url-stripped', at('4.2', 'bullet 2'), 'A client sends only the scheme, host and path of a page (scheme and host alone where the checkout path carries a session token).', {
    leavesOpen: ['what a deployment does with a query or fragment sent anyway'],
  }),
  must('recipes-full-bodies', at('4.2', 'bullet 3'), 'With full=1 (and no `url`), every entry carries its recipe body.', {
    leavesOpen: ['what another value of `full` does'],
  }),
  must('recipes-full-ignored-with-url', at('4.2', 'bullet 3'), 'With `url`, `full` changes nothing: the lookup is the same.'),
  must('recipes-index', at('4.2', 'bullet 4'), 'Without `url` or `full`, GET /v1/recipes answers the index: an object whose `recipes` member lists the entries.'),
  must('recipes-lookup-no-store', at('4.2', 'bullet 5'), 'A lookup answer carries Cache-Control with the no-store directive.', { leavesOpen: ['further directives'] }),
  must('recipes-index-cacheable', at('4.2', 'bullet 5'), 'The index and the full bundle carry Cache-Control with public and max-age=300.', { leavesOpen: ['further directives'] }),
  must('lookup-unparseable-four-nulls', at('4.2', 'bullet 6'), 'A `url` that does not parse is answered with the lookup, all four slots null.'),
  must('recipes-no-errors-of-their-own', at('4.2', 'bullet 6'), 'GET /v1/recipes has no refusal of its own: no value of `url` or `full` is refused.'),

  // 4.3
  must('submit-needs-a-key', at('4.3', 'bullet 1'), 'POST /v1/recipes needs an API key.'),
  must('submit-body-cap', at('4.3', 'bullet 1'), 'A submission body over 64 KB is refused with 413 invalid_recipe, counted as it arrives, chunked or not; a body within it is read.', {
    readings: ['64 KB is 65,536 bytes', '64 KB is 64,000 bytes'],
    limits: ['recipe-submission-body'],
  }),
  client('submit-sent-as-json', at('4.3', 'bullet 1'), 'A submission is sent as JSON.'),
  must('submit-wrapper-needs-recipe', at('4.3', 'row recipe'), 'A wrapper without `recipe` is refused with 400 invalid_recipe.'),
  must('submit-bare-or-wrapped', at('4.3', 'bullet 2'), 'A submission body is the recipe alone, or a wrapper with `recipe` and optionally `note` and `verificationRequested`.'),
  must('submit-note-truncated', at('4.3', 'row note'), 'A note over 2,000 characters is cut to its first 2,000, not refused.', { limits: ['recipe-note-length'] }),
  must('submit-note-published-verbatim', at('4.3', 'row note'), 'When a verification claim is approved, its note is published exactly as sent as the recipe\'s evidence.'),
  must('submit-claim-needs-note', at('4.3', 'row verificationRequested'), 'A verification claim without a non-empty note is refused.', {
    readings: ['refused with 400 invalid_recipe (the wrapper fails validation)'],
  }),
  must('submit-claim-waits-for-maintainer', at('4.3', 'row verificationRequested'), 'A verification claim leaves the recipe live at its submitted status until a maintainer decides.'),
  must('submit-dollar-names-removed', at('4.3', 'bullet 3'), 'Member names starting with `$` are removed, at every depth, before the submission is kept.'),
  must('submit-answer-202-pending', at('4.3', 'bullet 4'), 'An accepted submission answers 202 with its id and status pending.'),
  must('submit-errors', at('4.3', 'bullet 5'), 'POST /v1/recipes refuses with 400 invalid_recipe, 401, 413 invalid_recipe or 429 rate_limited only.'),
  must('submit-invalid-lists-problems', at('4.3', 'bullet 5'), 'A 400 invalid_recipe lists the problems it found in `errors`.', { leavesOpen: ['how each problem is written'] }),
  must('submit-not-json-invalid-recipe', at('4.3', 'bullet 5'), 'A submission body that is not JSON is refused with 400 invalid_recipe.'),
  must('submit-budget-no-retry-after', at('4.3', 'bullet 5'), 'A 429 rate_limited of POST /v1/recipes carries no Retry-After.', { limits: ['recipe-submissions-per-account'] }),

  // 4.4
  must('submission-read-needs-a-key', at('4.4', 'bullet 1'), 'GET /v1/recipes/submissions/{id} needs an API key.'),
  must('submission-own-account-only', at('4.4', 'bullet 1'), 'A submission is visible to the keys of the account that made it only.'),
  must('submission-answer-200', at('4.4', 'bullet 2'), 'A visible submission is answered 200 with the submission.'),
  client('submission-poll-while-pending', at('4.4', 'bullet 2'), 'A client polls a pending submission again and does not submit it again.'),
  must('submission-errors', at('4.4', 'bullet 3'), 'GET /v1/recipes/submissions/{id} refuses with 401 or 404 not_found only; an unknown or another account\'s submission is 404 not_found.'),
] as const;
