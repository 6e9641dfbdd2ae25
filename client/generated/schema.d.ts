/**
 * Generated from the API's bundled OpenAPI document by the repository's `npm run generate`
 * (openapi-typescript 7.13.0). Do not edit by hand: change the document and regenerate
 * (`npm run check:generated` fails when this file is stale).
 */

export interface paths {
    "/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the token catalog
         * @description Returns the account's token catalog: tokens in place of the cards, site logins,
         *     identity data and addresses. Fill forms in the proxied browser with these tokens;
         *     the real values are substituted there. Tokens never expire; refetch the catalog
         *     when a token answers `token_not_found`.
         *
         *     With `url` (or its alias `host`), `cards` and `logins` are narrowed to those
         *     registered for that page, and `relatedLogins` is added. A login is registered for
         *     a page when the registrable domain (Public Suffix List) of the page's host equals
         *     the registrable domain of the login's `website` or of one of its `extraWebsites`;
         *     a card is registered when it equals that of one of the sites on the card's allow
         *     list. Cards with `anySite: true` are always kept, after the page-specific ones.
         *     `relatedLogins` lists the account's other logins that share the page's site name
         *     (the registrable domain's label without its public suffix: `acme` for `acme.com`
         *     and `acme.co.uk`) but are not registered for the page. A value that does not
         *     parse is not an error: it matches no site, so every site-scoped card and every
         *     login is dropped, every `anySite` card is kept and `relatedLogins` is empty.
         *     Identity and addresses are never narrowed.
         *
         *     The filter is a convenience, not a security boundary: the proxy locks each token
         *     to its sites whatever this call returned. A successful fetch marks the key as used.
         *
         *     **Limits.** Catalog requests per fixed minute, by plan (Free / Plus / Enterprise):
         *     60 / 300 / 600 per key, and 120 / 600 / 1,200 per account, shared by all keys of
         *     the account. Beyond either, 429 `rate_limited` with `Retry-After` (whole seconds,
         *     at least 1). A refused request is not counted.
         */
        get: operations["getTokenCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/recipes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Look up checkout recipes
         * @description Public: send no API key. Three answers, chosen by the query:
         *
         *     - `url` set: the four-slot lookup for that page (`merchant`, `platform`, `signup`,
         *       `signupPlatform`, each a recipe summary or `null`), with `Cache-Control:
         *       no-store`. Send only scheme, host and path: the caller removes the query, the
         *       fragment and any hosted-checkout session token; for hosts whose checkout path
         *       carries a session token, send only scheme and host. The server matches on
         *       scheme, host and path only. A URL that does not parse is not an error: the four
         *       slots are `null`.
         *     - `full=1` (without `url`): the index with every recipe body, with
         *       `Cache-Control: public, max-age=300`.
         *     - Neither: the index `{recipes: [...]}` without bodies, with `Cache-Control:
         *       public, max-age=300`.
         *
         *     **Which recipe fills a slot.** A recipe covers the page when one of its
         *     `match.hosts` is the page's host or the host's registrable domain and, if it lists
         *     `match.paths`, one of them is a prefix of the page's path (see `Recipe.match`).
         *     `merchant` and `signup` are the best covering recipe of that kind: exact host over
         *     registrable domain, then the longer path prefix, then the status (`verified`,
         *     `partial`, `unverified`, `dead-end`), then a contribution over a release recipe,
         *     then the key. `platform` (`signupPlatform`) is the recipe the merchant (signup)
         *     recipe names in `platform`, unless it names `custom` or nothing; otherwise the
         *     best covering `platform` (`signup-platform`) recipe, so a hosted checkout page
         *     fills `platform` alone.
         *
         *     A contribution no maintainer has merged never takes a verified recipe's place: while
         *     it has the key of a verified recipe, or lists a host that a verified recipe of its
         *     kind serves, it is held back, neither listed nor served, and the verified recipe
         *     (for its key, the key's previous version) keeps serving (see `submitRecipe`).
         *
         *     This operation has no errors of its own: an unlisted query parameter (`url[]`
         *     included) is ignored, any value is accepted as sent, and an empty `url` gives four
         *     `null` slots. Only the server's HTTP layer can refuse the request (408, 431).
         */
        get: operations["getRecipes"];
        put?: never;
        /**
         * Contribute a recipe
         * @description Submits a recipe to the registry, either the recipe object alone or a wrapper
         *     `{recipe, note, verificationRequested}`. Member names starting with `$` are
         *     removed, at every depth, when the body is parsed; a member named `__proto__`,
         *     `constructor` or `prototype`, at any depth, is refused (400 `invalid_recipe`, each
         *     listed in `errors`), so none is ever stored or published. The answer is 202 with the
         *     submission id and status `pending`; read the verdict with
         *     `GET /v1/recipes/submissions/{id}`.
         *
         *     Screening runs after the response. Its findings appear as fixed texts in the
         *     submission's `verdict`, and the submission leaves `pending` for `approved`,
         *     `rejected` or `needs_human`; `merged` is set only by a maintainer. The
         *     specification leaves the screening rules to the deployment. The reference server
         *     applies the rules below, in this order; each that applies adds its text to
         *     `verdict` (the first text is always "Recipe body is well formed."), and the
         *     status is the most severe outcome among them (`rejected`, then `needs_human`,
         *     then `approved`). A `rejected` recipe leaves the registry and the key's previous
         *     version serves again; the others stay live, except a held-back one (below).
         *
         *     | Rule | Applies to | Text in `verdict` | Outcome |
         *     | - | - | - | - |
         *     | Every match host is on the key's site (same registrable domain as the key without `signup:`) | merchant, signup | Match hosts belong to the recipe key's site. | approved |
         *     | A match host is on another site | merchant, signup | A match host is outside the recipe key's site. | needs_human |
         *     | The key is not a host name | merchant, signup with hosts | The recipe key does not name a site, so its match hosts cannot be checked against it. | needs_human |
         *     | No `match` | merchant, signup | The recipe has no match, so no page lookup returns it; it is listed in the index only. | approved |
         *     | Names a platform no live recipe of the right kind has (`custom` is always fine) | merchant, signup | The recipe names a platform recipe that the registry does not have. | needs_human |
         *     | Its key belongs to a recipe of another kind | all | The recipe key belongs to a recipe of another kind. | needs_human |
         *     | A verified recipe has the same key, or a verified recipe of the same kind serves one of its match hosts (lists the host or its registrable domain) | all | The recipe covers a host or key that a verified recipe already serves. | needs_human, and held back |
         *     | `verificationRequested: true` | all | Verification claimed; a maintainer reviews the note before setting verified. | needs_human |
         *     | Submitted status `verified` | all | Submitted as verified; live as unverified, since only a maintainer sets verified. | approved |
         *     | The body carries `evidence` | all | The evidence member of the recipe is not published; only a maintainer publishes evidence, from the note. | approved |
         *     | Status `dead-end` without a note | all | A dead-end recipe needs a note saying what blocked the checkout or signup. | rejected |
         *
         *     A maintainer's decision adds one of: "A maintainer merged the recipe.", "A
         *     maintainer verified the recipe and published its note as evidence.", "A
         *     maintainer verified the recipe." (no note), "A maintainer rejected the recipe."
         *
         *     **Verified recipes come first.** The specification makes a contribution live at its
         *     submitted status and lets only a maintainer set `verified`; it does not let an
         *     unreviewed contribution take a verified recipe's place, and this server does not.
         *     The verified recipes are the release's and those a maintainer verified. A
         *     contribution a maintainer has not merged that has the key of a verified recipe, or
         *     is of the same kind and lists a host a verified recipe serves (the host, or its
         *     registrable domain, is among that recipe's `match.hosts`), is accepted (202, and it
         *     counts toward the budget) but held back: the index, `full=1` and every lookup keep
         *     serving the verified recipe, and for its key the key's previous version, until a
         *     maintainer merges it. So no cache keeps a displaced verified recipe for the index's
         *     five minutes. A contribution that displaces nothing verified is live at once.
         *
         *     `verificationRequested: true` claims that a real purchase (or, for a signup
         *     recipe, an account creation) succeeded, and needs a non-empty `note`. The recipe
         *     goes live at its submitted status and the claim waits for a maintainer: only a
         *     maintainer sets `verified`, so a submitted `verified` status never goes live as
         *     `verified`. If the claim is approved, the note is published verbatim as the
         *     recipe's `evidence`.
         *
         *     **Limits.** Body at most 64 KB of JSON, counted while streaming; the request is cut
         *     at the cap (413 `invalid_recipe`), nested at most 64 levels deep. A `note` longer
         *     than 2,000 characters is
         *     truncated, not refused. 20 submissions per account in any rolling 24 hours (a
         *     deployment setting), shared by all keys of the account; beyond it, 429
         *     `rate_limited` without `Retry-After`.
         *
         *     **Sending it again.** A write sent with an `Idempotency-Key` and sent again with the
         *     same key and body within 24 hours gets the first answer back and writes and charges nothing again;
         *     the same key with another body answers 422 `idempotency_key_reused`, and while the
         *     first is still being processed, 409 `idempotency_key_in_use` (see the header). The
         *     specification gives writes no such key: this is the reference server's own.
         */
        post: operations["submitRecipe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/recipes/submissions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a submission's verdict
         * @description Returns a recipe submission made by the caller's account, with its status and the
         *     screening findings in `verdict` (fixed texts, empty while `pending`). While the
         *     status is `pending`, screening is still running: poll again later; do not
         *     resubmit. A submission made by another account answers 404 `not_found`, like an
         *     unknown id.
         */
        get: operations["getRecipeSubmission"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logins/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * File a signup request for the account holder
         * @description Asks the account holder to approve a new login for a site, with the exact email the
         *     agent signs up with (and the username, if the site already accepted one). The
         *     service generates the password within the password rule fields; the agent never
         *     sees it and fills it through the login's password token.
         *
         *     The answer is 202 with one of two statuses, and clients handle both:
         *     - `pending`: the account holder decides. Poll `GET /v1/logins/requests/{id}` until
         *       the status is `approved`, `denied` or `expired`. The request expires 24 hours
         *       after filing (`expiresAt`). Approval creates the login only when every approval
         *       check passes: the account holds fewer than 500 logins, a label is free for the
         *       site name, a scoped key's own login list has room, and the account's
         *       credential-change budget is not spent. Otherwise the request stays `pending`; the
         *       failure is shown only to the account holder. An approval charges the
         *       credential-change budget.
         *     - `approved`: the site and the exact email are on the account holder's pre-approved
         *       list, so the login exists already and the first poll carries its tokens. A
         *       pre-approved signup draws on the pre-approved allowance, not on the
         *       credential-change budget. It completes at once only within two ceilings: 2
         *       signups per listed site (reset only when the account holder removes and re-adds
         *       the site, or saves it with a different email), and 60 signups per account per
         *       24-hour window starting at the first pre-approved signup (a deployment setting).
         *       Beyond either ceiling, or when an approval check fails, the request falls back to
         *       `pending`.
         *
         *     When the account already holds 500 logins, the call is refused at once with 403
         *     `login_limit`, pre-approved or not, and no request is created; the account holder
         *     clears it only by deleting logins. The ceiling is checked again at approval.
         *
         *     **Limits.** Needs the key's signup permission. Body at most 4 KB of JSON (413
         *     `bad_request`, cut while streaming), nested at most 64 levels deep. 20 login
         *     writes per key per fixed minute,
         *     shared with the other two signup POST endpoints; filing counts (429 `rate_limited`
         *     with `Retry-After`). At most 5 requests per account await a decision; beyond that,
         *     429 `too_many_pending` without `Retry-After`, until a request is decided or
         *     expires. Filing an ordinary pending request does not charge the account's
         *     credential-change budget (25 changes per 24-hour window, a deployment setting);
         *     its approval does. Labels: 50 per site name (`<name>`, then `<name>2` to
         *     `<name>50`). A scoped key may add at most 50 logins to its own list. A refused
         *     request is not counted.
         *
         *     **Sending it again.** A write sent with an `Idempotency-Key` and sent again with the
         *     same key and body within 24 hours gets the first answer back and writes and charges nothing again;
         *     the same key with another body answers 422 `idempotency_key_reused`, and while the
         *     first is still being processed, 409 `idempotency_key_in_use` (see the header). The
         *     specification gives writes no such key: this is the reference server's own.
         */
        post: operations["fileSignupRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logins/requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Poll a signup request
         * @description Returns the state of a signup request this key filed. Poll while the status is
         *     `pending`; `approved`, `denied` and `expired` are final.
         *
         *     - `pending`: the account holder has not decided, or approved it but an approval
         *       check failed (the failure is shown only to the account holder). `expiresAt` says
         *       when it becomes `expired`: 24 hours after filing.
         *     - `approved`: the login exists. `login` is the same entry `GET /v1/tokens` lists
         *       for it, with its tokens; `passwordPolicy` gives the rules the generated password
         *       followed. The password itself is never returned.
         *     - `denied`, `expired`: nothing else. File a new request to try again.
         *
         *     `passwordOwnerManaged: true` means the account holder replaced the generated
         *     password before this poll: `passwordPolicy` describes a password that no longer
         *     exists, the password token resolves to the account holder's password and is filled
         *     as normal, and `POST /v1/logins/password` refuses this login permanently with
         *     `not_rotatable`. `false` or absent otherwise; an older deployment may omit it, and
         *     absent means `false`.
         *
         *     Only the key that filed the request can read it; for any other key it answers 404
         *     `request_not_found`, like an unknown id. When an approved login has since been
         *     removed from this key's scope, the poll answers 403 `scope_denied`. Decided and
         *     expired requests stay readable until the account is deleted.
         *
         *     **Limits.** Needs an API key, but not the signup permission. Polling is not counted
         *     against the 20 login writes per key per minute nor against the credential-change
         *     budget. A request expires 24 hours after filing.
         */
        get: operations["getSignupRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logins/username": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record the username of an agent-created login
         * @description Records the username the site accepted for a login this key created through an
         *     approved signup request. A username is recorded once: sending the identical
         *     username again succeeds with the same envelope (even after the window below); a
         *     different one answers 409 `username_already_set`.
         *
         *     Only the key that created the login may set it, only within seven days of the
         *     login's creation (a deployment setting), and, for a scoped key, only while the login
         *     is on the key's list. Any other key, a later request, an unknown label, or a login
         *     the account holder has removed from this key's scope answers 404 `not_found`, even
         *     when the username sent is the one recorded: a key never receives the entry of a
         *     login outside its scope.
         *
         *     The key's authority is read when the username is written, not only when the request
         *     arrived: a key revoked, or one that lost its signup permission or the login from its
         *     scope, while the body was arriving gets the answer it would get now (401
         *     `invalid_api_key`, 403 `signup_not_enabled`, 404 `not_found`), and nothing is
         *     written.
         *
         *     **Limits.** Needs the key's signup permission. Body at most 4 KB of JSON (413
         *     `bad_request`, cut while streaming), nested at most 64 levels deep. 20 login
         *     writes per key per fixed minute,
         *     shared with the other two signup POST endpoints (429 `rate_limited` with
         *     `Retry-After`). A write charges the account's credential-change budget: 25 changes
         *     per account per 24-hour window starting at the first counted change (a deployment
         *     setting); when it is spent, 429 `daily_limit` without `Retry-After`. Repeating the
         *     identical username writes nothing and charges nothing.
         *
         *     **Sending it again.** A write sent with an `Idempotency-Key` and sent again with the
         *     same key and body within 24 hours gets the first answer back and writes and charges nothing again;
         *     the same key with another body answers 422 `idempotency_key_reused`, and while the
         *     first is still being processed, 409 `idempotency_key_in_use` (see the header). The
         *     specification gives writes no such key: this is the reference server's own.
         */
        post: operations["setLoginUsername"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logins/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the password of an agent-created login
         * @description Generates a new password for a login this key created through an approved signup
         *     request, within the password rule fields sent (a site that refused the first
         *     password, for example). The tokens do not change: the login's existing password
         *     token resolves to the new password. The answer gives the login entry and the rules
         *     the new password followed, never the password; `passwordPolicy` has no
         *     `symbolAlphabet` when `noSymbols` was set.
         *
         *     Only the key that created the login may rotate it, only within seven days of the
         *     login's creation (a deployment setting), and only while the account holder has not
         *     replaced its password (a poll then shows `passwordOwnerManaged: true`; the refusal
         *     is permanent). A scoped key rotates only a login still on its list: once the account
         *     holder removes the login from the key's scope, the key may no longer rotate it. Every
         *     other case, an unknown label and a login outside the key's scope included, answers
         *     409 `not_rotatable`.
         *
         *     The key's authority is read when the password is written, not only when the request
         *     arrived: a key revoked, or one that lost its signup permission or the login from its
         *     scope, while the body was arriving gets the answer it would get now (401
         *     `invalid_api_key`, 403 `signup_not_enabled`, 409 `not_rotatable`), and nothing is
         *     written.
         *
         *     **Limits.** Needs the key's signup permission. Body at most 4 KB of JSON (413
         *     `bad_request`, cut while streaming), nested at most 64 levels deep. 20 login
         *     writes per key per fixed minute,
         *     shared with the other two signup POST endpoints (429 `rate_limited` with
         *     `Retry-After`). A rotation charges the account's credential-change budget: 25
         *     changes per account per 24-hour window starting at the first counted change (a
         *     deployment setting); when it is spent, 429 `daily_limit` without `Retry-After`. A
         *     refused request is not counted.
         *
         *     **Sending it again.** A write sent with an `Idempotency-Key` and sent again with the
         *     same key and body within 24 hours gets the first answer back and writes and charges nothing again;
         *     the same key with another body answers 422 `idempotency_key_reused`, and while the
         *     first is still being processed, 409 `idempotency_key_in_use` (see the header). The
         *     specification gives writes no such key: this is the reference server's own.
         */
        post: operations["rotateLoginPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/logins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a login directly (retired)
         * @deprecated
         * @description Retired. Agents can no longer create logins without the account holder's approval:
         *     every call answers 410 `signup_requires_approval`. File a signup request with
         *     `POST /v1/logins/requests` instead.
         *
         *     **Deprecated**, sunset 2027-06-01 (`x-sunset`): on or after that date the operation
         *     may be removed from the API and from the service.
         *
         *     The answer is the same whether or not an API key is sent, and whatever the key or
         *     the body, so the operation declares no security requirement: a key, valid or not,
         *     is ignored, and no call answers 401.
         */
        post: operations["createLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        /**
         * Show a purchase held for approval
         * @description The account holder's view of a purchase the proxy held for approval. This is an
         *     account-holder link, not an agent surface: the link's token is its only credential,
         *     no API key is sent, and agents never see the link.
         *
         *     The body shows `kind`, why the purchase is held, and `offersDeclared`, whether it may
         *     be approved at the declared total. Both decide what `POST
         *     /v1/approvals/{token}/decide` accepts: `at: declared` only when `offersDeclared` is
         *     `true`, and only `at: declared` for a hold of kind `amount_mismatch`. Other members
         *     of the body are not specified.
         *
         *     Reading does not use the link up; the decision does. A link that is unknown, already
         *     decided, expired, of another kind, or of a deleted account answers 404 `not_found`.
         *
         *     **In a browser.** A request whose `Accept` prefers `text/html` to
         *     `application/json`, as a browser's does, gets an HTML page instead: why the
         *     purchase is held, and, where the deployment knows them, the amount, the merchant
         *     and the declared total when it is offered; then a button for each decision the
         *     hold accepts (approve at the page total unless the hold is `amount_mismatch`,
         *     approve at the declared total when offered, deny). The buttons are plain forms that
         *     post to `/v1/approvals/{token}/decide`. Any other `Accept`, or none, gets JSON.
         *
         *     Answers carry `Cache-Control: no-store`, since the link is a credential, and,
         *     whichever the media type, the security headers each response lists.
         *
         *     **Limits.** The link lives 5 minutes from the hold.
         */
        get: operations["getPurchaseApproval"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals/{token}/decide": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or deny a held purchase
         * @description The account holder's decision on a purchase the proxy held for approval. This is an
         *     account-holder link, not an agent surface: the link's token is its only credential,
         *     no API key is sent, and agents never see the link.
         *
         *     `decision` is `approve` or `deny`. `at` chooses the total an approval stands for:
         *     `page` (the default) or `declared`.
         *
         *     - `at: declared` is accepted only when `GET /v1/approvals/{token}` shows
         *       `offersDeclared: true`; otherwise 400 `declared_not_offered`.
         *     - A hold of kind `amount_mismatch` accepts only `at: declared`; approving it at the
         *       page total, `at` omitted included, answers 400 `declared_required`.
         *
         *     After either refusal nothing is decided: the purchase stays pending and the link
         *     stays usable, so the account holder can decide again. A denial approves no total,
         *     so these two rules do not apply to it.
         *
         *     A decision that takes effect uses the link up: afterwards the link, `GET` included,
         *     answers 404 `not_found`, as does a link that is unknown, expired, of another kind,
         *     or of a deleted account. The answer's body names `status` and, on an approval, `at`;
         *     other members are not specified.
         *
         *     **In a browser.** The body may also be the form a browser posts,
         *     `application/x-www-form-urlencoded` (`decision=approve&at=declared`), under the same
         *     rules and the same 1 KB cap. A request whose `Accept` prefers `text/html` to
         *     `application/json` gets each answer as an HTML page: the outcome, or the refusal
         *     with a way back to the purchase.
         *
         *     Answers carry `Cache-Control: no-store`, since the link is a credential, and,
         *     whichever the media type, the security headers each response lists.
         *
         *     The link is looked up before the body is read: an unknown, used or expired link
         *     answers 404 at once, whatever body is on its way. With an `Idempotency-Key`, the
         *     body of a decision to a link that exists (used or expired included) is read first,
         *     since the key's first answer may be the one to send again.
         *
         *     **Limits.** The link lives 5 minutes from the hold. Body at most 1 KB of JSON (413
         *     `bad_request`, cut while streaming), nested at most 64 levels deep.
         *
         *     **Sending it again.** A decision sent with an `Idempotency-Key` and sent again with the
         *     same key and body within 24 hours gets the first answer back and decides nothing again;
         *     the same key with another body answers 422 `idempotency_key_reused`, and while the
         *     first is still being processed, 409 `idempotency_key_in_use` (see the header). The
         *     specification gives writes no such key: this is the reference server's own.
         */
        post: operations["decidePurchaseApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/signup-requests/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        /**
         * Show a signup request awaiting approval
         * @description The account holder's view of a signup request an agent filed with `POST
         *     /v1/logins/requests`. This is an account-holder link, not an agent surface: the
         *     link's token is its only credential, no API key is sent, and agents never see the
         *     link.
         *
         *     The body names the request's `status`, the `website` and `email` it was filed
         *     for, and, after an approval that could not complete, `approvalFailure`: the check
         *     that failed (`login_limit`, `label_unavailable`, `scope_full` or `daily_limit`).
         *     That reason is shown only here; the agent's poll keeps answering `pending`. Other
         *     members of the body are not specified.
         *
         *     Reading does not use the link up. A link whose request was approved or denied, or
         *     that is unknown, expired, of another kind, or of a deleted account answers 404
         *     `not_found`.
         *
         *     **In a browser.** A request whose `Accept` prefers `text/html` to
         *     `application/json`, as a browser's does, gets the same answer as an HTML page
         *     instead: the site and email to approve, the reason an earlier approval could not
         *     complete, and an Approve and a Deny button, plain forms that post
         *     `decision=approve` or `decision=deny` to this link. Any other `Accept`, or none,
         *     gets JSON.
         *
         *     Answers carry `Cache-Control: no-store`, since the link is a credential, and,
         *     whichever the media type, the security headers each response lists.
         *
         *     **Limits.** The link lives as long as the request: 24 hours from filing.
         */
        get: operations["getSignupApproval"];
        put?: never;
        /**
         * Approve or deny a signup request
         * @description The account holder's decision on a signup request an agent filed. This is an
         *     account-holder link, not an agent surface: the link's token is its only credential,
         *     no API key is sent, and agents never see the link.
         *
         *     `deny` makes the request `denied`. `approve` runs every approval check in one
         *     transaction, then creates the login and makes the request `approved`; the agent's
         *     next poll carries the login's tokens. If any check fails, nothing is created or
         *     charged: the request stays `pending`, the answer names the failed check in
         *     `approvalFailure`, and the link stays usable so the account holder can fix the
         *     cause and approve again. The checks:
         *
         *     - the account holds fewer than 500 logins (`login_limit`);
         *     - a label is free for the site name: `<name>`, then `<name>2` to `<name>50`
         *       (`label_unavailable`);
         *     - when the filing key is scoped, its own login list is not full: 50 entries
         *       added, or a list of over 200 entries (`scope_full`);
         *     - the account's credential-change budget is not spent (`daily_limit`).
         *
         *     The failure is shown only to the account holder, here and on `GET`; the agent
         *     keeps seeing `pending`. An approval that completes charges the account's
         *     credential-change budget.
         *
         *     A decision that takes effect uses the link up: afterwards the link answers 404
         *     `not_found`, as does a link that is unknown, expired, of another kind, or of a
         *     deleted account. The answer has the shape of `GET`'s; other members are not
         *     specified.
         *
         *     **In a browser.** The body may also be the form a browser posts,
         *     `application/x-www-form-urlencoded` (`decision=approve`), under the same rules and
         *     the same 1 KB cap. A request whose `Accept` prefers `text/html` to
         *     `application/json` gets each answer as an HTML page: the outcome, or the reason the
         *     approval could not complete with the buttons to try again, or the refusal.
         *
         *     Answers carry `Cache-Control: no-store`, since the link is a credential, and,
         *     whichever the media type, the security headers each response lists.
         *
         *     The link is looked up before the body is read: an unknown, used or expired link
         *     answers 404 at once, whatever body is on its way. With an `Idempotency-Key`, the
         *     body of a decision to a link that exists (used or expired included) is read first,
         *     since the key's first answer may be the one to send again.
         *
         *     **Limits.** Body at most 1 KB of JSON (413 `bad_request`, cut while streaming),
         *     nested at most 64 levels deep. The link lives as long as the request: 24 hours from filing. Approval
         *     checks the 500-login ceiling, the 50 labels per site name, the scoped key's list of
         *     50 entries, and charges the credential-change budget of 25 per account per 24-hour
         *     window starting at the first counted change (a deployment setting); none of these
         *     answers an error here, each leaves the request pending with its reason.
         *
         *     **Sending it again.** A decision sent with an `Idempotency-Key` and sent again with the
         *     same key and body within 24 hours gets the first answer back and decides nothing again;
         *     the same key with another body answers 422 `idempotency_key_reused`, and while the
         *     first is still being processed, 409 `idempotency_key_in_use` (see the header). The
         *     specification gives writes no such key: this is the reference server's own.
         */
        post: operations["decideSignupApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cvv-requests/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        /**
         * Open a live security-code prompt
         * @description The account holder's live prompt for a card's security code, which the service
         *     never stores. This is an account-holder link, not an agent surface: the link's
         *     token is its only credential, no API key is sent, and agents never see the link.
         *
         *     The link has only this `GET`, so opening it uses it up (it is single
         *     use): the first read answers 200 and every later one 404 `not_found`, as
         *     does a link that is unknown, expired, of another kind, or of a deleted account.
         *     `HEAD` is safe (RFC 9110 section 9.3.2) and does not use the link up: it answers
         *     as `GET` would, without a body, and the link stays open for the account holder (a
         *     mail scanner or link preview that asks for the head takes nothing from them). How
         *     the code itself is entered is not specified here, and neither is the body beyond
         *     being a JSON object. When the prompt is missed, the agent's fill fails with
         *     `cvv_entry_required`.
         *
         *     **In a browser.** A request whose `Accept` prefers `text/html` to
         *     `application/json`, as a browser's does, gets an HTML page instead, saying what
         *     the prompt is for and until when it is open. Any other `Accept`, or none, gets JSON.
         *
         *     Answers carry `Cache-Control: no-store`, since the link is a credential, and,
         *     whichever the media type, the security headers each response lists.
         *
         *     **Limits.** The link lives about 3 minutes.
         */
        get: operations["getCvvRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/challenge-requests/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        /**
         * Open a challenge handoff
         * @description The account holder's side of a challenge handoff: a challenge in the agent's
         *     browser session handed to the account holder. This is an account-holder link, not
         *     an agent surface: the link's token is its only credential, no API key is sent, and
         *     agents never see the link.
         *
         *     The link has only this `GET`, so opening it uses it up (it is single
         *     use): the first read answers 200 and every later one 404 `not_found`, as
         *     does a link that is unknown, expired, of another kind, or of a deleted account.
         *     `HEAD` is safe (RFC 9110 section 9.3.2) and does not use the link up: it answers
         *     as `GET` would, without a body, and the link stays open for the account holder (a
         *     mail scanner or link preview that asks for the head takes nothing from them). The
         *     body is not specified beyond being a JSON object.
         *
         *     **In a browser.** A request whose `Accept` prefers `text/html` to
         *     `application/json`, as a browser's does, gets an HTML page instead, saying what
         *     the handoff is for and until when it is open. Any other `Accept`, or none, gets JSON.
         *
         *     Answers carry `Cache-Control: no-store`, since the link is a credential, and,
         *     whichever the media type, the security headers each response lists.
         *
         *     **Limits.** The link lives about 10 minutes.
         */
        get: operations["getChallengeRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check the proxy's health
         * @description The proxy's health check, on its HTTP origin. It needs no API key. A healthy proxy
         *     answers 200 with a JSON object whose `ok` is `true`; other members are not
         *     specified. The specification lists no error for it; the reference server's HTTP
         *     layer can still answer 408 or 431, as on every operation.
         *
         *     The proxy itself speaks a WebSocket protocol at `{proxy_url}`, which this reference
         *     does not describe.
         */
        get: operations["getProxyHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    agentCardEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An agent card's event, delivered to its webhook endpoint
         * @description What an agent card's webhook endpoint receives: a `POST` of one event as
         *     JSON, signed with the card's signing secret in `Vault-Signature` (for 24 hours after a
         *     rotation, with the secret it replaced as well: see the header). Webhooks are
         *     delivered per agent card, on Plus and Enterprise (`x-plans` `webhookNotifications`);
         *     the account holder sets the endpoint, reads and rotates the signing secret, sends a
         *     test delivery and reads the recent deliveries in the dashboard (the reference
         *     server's back office stands in for it).
         *
         *     **The endpoint** is a public `https://` URL. The service refuses every address that
         *     IANA's IPv4 and IPv6 special-purpose registries do not mark globally reachable
         *     (private, loopback, link-local, shared, documentation, benchmarking, local-use NAT64,
         *     SRv6 and the rest), multicast, and IPv6 outside the global unicast space; an IPv4
         *     address carried in IPv6 (IPv4-mapped, NAT64, 6to4) is judged as that IPv4 address. A
         *     name is checked again, against every address it resolves to, each time a delivery is
         *     made, and the delivery connects to the address it checked. The delivery list says
         *     that a name resolved to an address that is not public, never which address.
         *
         *     **Answering.** Answer any 2xx to acknowledge: the body of the answer is ignored.
         *     The delivery fails when no complete 2xx answer comes back in time: nothing from the
         *     endpoint for 10 seconds (`noDataTimeout` of `x-webhook-delivery`), or no complete
         *     answer within 15 seconds of the start (`totalTimeout`). An answer is complete when its
         *     status, its headers and its body have arrived, the body to its end or to its first
         *     4,096 bytes (`responseBodyCap`), past which it is not read. A redirect (3xx) fails the
         *     delivery too and is never followed. Verify the signature before acting on the event,
         *     and answer quickly: do slow work after answering.
         *
         *     **Retries.** The reference sends each delivery once and does not retry a failed
         *     one (`retries` of `x-webhook-delivery` is empty): the account holder sees the failed
         *     attempt in the delivery list and sends again. The specification leaves retries open,
         *     so a receiver of another deployment may see an event more than once; `id` is the same
         *     on every attempt.
         */
        post: operations["deliverAgentCardEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * Token
         * @description An opaque placeholder that the proxy replaces with the real value. Tokens never
         *     expire and are never the real value. Each kind of token (card number, password,
         *     identity field, ...) is distinct: a token used for the wrong kind of field yields
         *     `token_not_found`. Do not parse tokens.
         */
        Token: string;
        /**
         * CardEntry
         * @description A card as the catalog lists it. A card is either limited to an allow list of sites
         *     (`anySite: false`) or usable on any site (`anySite: true`, though it may still have a
         *     private block list; a fill on a blocked host fails with `merchant_blocked`). The
         *     allow list and block list themselves are not listed. An agent card carries its id,
         *     `agentCardId`, the reference server's own member. Other members may be present; they are
         *     not specified, so do not rely on them.
         */
        CardEntry: {
            /**
             * @description `true`: the card is not limited to an allow list of sites (it may still have a
             *     private block list). `false`: the card fills only on the sites of its allow list.
             */
            anySite: boolean;
            /**
             * @description Present on an agent card: its id, which the card's webhook events name in
             *     `agent_card_id`, so an agent can tell which of the cards it holds
             *     an event is about. Absent on a card that is not an agent card. The API's card entry has
             *     no such member; it is this server's, and another deployment may not send it.
             * @example card_9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a49
             */
            agentCardId?: string;
            /**
             * @description The card's tokens: the card number (`number`) and the security code
             *     (`securityCode`).
             */
            tokens: {
                /** @description Card number token. */
                number: components["schemas"]["Token"];
                /**
                 * @description Security-code token. The security code is never stored: filling this token
                 *     asks the account holder to enter the code live (about 3 minutes); when that is
                 *     missed or unavailable the fill fails with `cvv_entry_required`.
                 */
                securityCode: components["schemas"]["Token"];
            };
        };
        /**
         * LoginLabel
         * @description A login's label: lowercase letters and digits, at most 32 characters, derived
         *     from the site name. On collision `<name>2` up to `<name>50` are used.
         */
        LoginLabel: string;
        /**
         * LoginEntry
         * @description A site login as the catalog lists it. The login entry returned by the signup
         *     endpoints is the same entry that `GET /v1/tokens` later returns for that login.
         *     Further members: not specified.
         */
        LoginEntry: {
            label: components["schemas"]["LoginLabel"];
            /**
             * @description The login's registered site, a registrable domain, in its ASCII form (an
             *     internationalised name as `xn--...`; the document's introduction, "Sites and host
             *     names"). A login token resolves only on this site or its extra sites.
             */
            website: string;
            /** @description Additional sign-in sites (hosts), at most 10. */
            extraWebsites: string[];
            /** @description Whether the login has an email. */
            hasEmail: boolean;
            /** @description Present (and true) once a username exists. */
            hasUsername?: boolean;
            /** @description Whether a TOTP secret is stored; the `totp` token is present only when true. */
            hasTotp: boolean;
            /** @description Tokens of the login's fields. */
            tokens: {
                password: components["schemas"]["Token"];
                email?: components["schemas"]["Token"];
                username?: components["schemas"]["Token"];
                totp?: components["schemas"]["Token"];
            };
        };
        /**
         * IdentityTokens
         * @description The account holder's identity data as tokens, one per field. Identity field names
         *     other than the six phone tokens are not specified, and other members may be present:
         *     do not rely on them.
         */
        IdentityTokens: {
            /**
             * @description Field name → token. A field that is empty still has a token here; it is listed in
             *     `missing` and its token resolves to `token_not_found` until the account holder
             *     fills it. The six phone tokens split one phone number; `phone_area`,
             *     `phone_prefix` and `phone_line` resolve only for numbers in country code +1.
             */
            tokens: {
                /** @description The full number. */
                phone: components["schemas"]["Token"];
                /** @description The country calling code. */
                phone_country: components["schemas"]["Token"];
                /** @description The national number. */
                phone_national: components["schemas"]["Token"];
                /** @description Area code; resolves only for country code +1. */
                phone_area: components["schemas"]["Token"];
                /** @description Exchange (central-office) prefix; resolves only for country code +1. */
                phone_prefix: components["schemas"]["Token"];
                /** @description Line number; resolves only for country code +1. */
                phone_line: components["schemas"]["Token"];
            } & {
                [key: string]: components["schemas"]["Token"];
            };
            /**
             * @description Names of the fields that are empty (keys of `tokens`). Their tokens resolve to
             *     `token_not_found` until filled. Always present, empty when every field is filled.
             */
            missing: string[];
        };
        /**
         * AddressEntry
         * @description A saved address as the catalog lists it. Other members may be present; they are not specified, so do not rely on them.
         */
        AddressEntry: {
            /**
             * @description The address's label: 1 to 16 lowercase letters or digits, never a reserved word
             *     (such as `card`, `city`, `email`).
             */
            label: string;
            /** @description Field name → token. The address field names are not specified. */
            tokens: {
                [key: string]: components["schemas"]["Token"];
            };
        };
        /**
         * TokenCatalog
         * @description The token catalog (`GET /v1/tokens`): tokens in place of the account holder's cards,
         *     logins, identity data and addresses. The agent fills forms with these tokens in the
         *     proxied browser, where the real values are substituted; it never sees a real value.
         *
         *     Identity data is under `identity` and saved addresses under `addresses`. Other members
         *     may be present; they are not specified, so do not rely on them.
         */
        TokenCatalog: {
            /**
             * @description The account's cards. With a `url` (or `host`) filter: only the cards registered for
             *     that page, then every card with `anySite: true`.
             */
            cards: components["schemas"]["CardEntry"][];
            /**
             * @description The account's site logins. With a `url` (or `host`) filter: only the logins
             *     registered for that page (none when the value does not parse).
             */
            logins: components["schemas"]["LoginEntry"][];
            /**
             * @description Present only when a `url` (or `host`) filter is given. The account's other logins
             *     that share the page's site name (the registrable domain's label without its public
             *     suffix: `acme` for both `acme.com` and `acme.co.uk`) but are not registered for the
             *     page. Empty when the value does not parse.
             */
            relatedLogins?: components["schemas"]["LoginEntry"][];
            identity: components["schemas"]["IdentityTokens"];
            /** @description The account's saved addresses. Not narrowed by the `url` filter. */
            addresses: components["schemas"]["AddressEntry"][];
        };
        /**
         * ApiErrorCode
         * @description Every `code` the HTTP API returns. Each operation narrows
         *     `code` to the values it can return for a given status.
         * @enum {string}
         */
        ApiErrorCode: "bad_request" | "invalid_website" | "invalid_email" | "invalid_username" | "password_too_short" | "invalid_policy" | "invalid_recipe" | "declared_not_offered" | "declared_required" | "unauthorized" | "invalid_api_key" | "signup_not_enabled" | "login_limit" | "scope_denied" | "not_found" | "request_not_found" | "username_already_set" | "not_rotatable" | "signup_requires_approval" | "rate_limited" | "too_many_pending" | "daily_limit" | "idempotency_key_reused" | "idempotency_key_in_use" | "storage_full";
        /**
         * ClientErrorCode
         * @description Codes raised by the client library, the proxy and the dashboard, in the same `{code, error}` shape. The HTTP API described here never
         *     returns them, and their HTTP statuses are not specified. `label_unavailable` is an
         *     internal failure reason of an approval and is never returned to an agent. The
         *     reference's section "Client and proxy error codes" gives each code's meaning and
         *     what to do.
         * @enum {string}
         */
        ClientErrorCode: "token_not_found" | "scope_denied" | "cross_user_denied" | "key_auto_revoked" | "login_blocked" | "merchant_blocked" | "card_blocked" | "limit_reached" | "checkout_total_unknown" | "plan_quota_reached" | "cvv_entry_required" | "sensitive_data_blocked" | "fill_rejected" | "session_limit" | "unavailable" | "unanswered" | "request_timeout" | "action_timeout" | "connection_resumed" | "idle_timeout" | "hard_timeout" | "insecure_site" | "egress_unavailable" | "write_outcome_unknown" | "invalid_hint" | "hint_unresolved" | "too_many_credentials" | "too_many_connections" | "attested_checkout_busy" | "signup_preapproval_too_many" | "login_extra_sites_limit" | "api_key_label_too_long" | "login_username_too_short" | "login_password_too_short" | "address_label_shape" | "address_label_reserved" | "phone_shape" | "agent_card_cap_not_enforceable" | "feedback_rate_limited" | "label_unavailable";
        /**
         * RecipeProblem
         * @description One problem found while validating a submitted recipe.
         */
        RecipeProblem: {
            /** @description JSON Pointer to the offending member of the submitted body (`""` for the body itself). */
            path?: string;
            /** @description What is wrong, in words. */
            message: string;
        };
        /**
         * Error
         * @description Every error response. Clients branch on `code`; `error` is for people and its
         *     wording may change. The same shape carries the client and proxy codes of
         *     `ClientErrorCode`; the HTTP API returns only `ApiErrorCode` values.
         */
        Error: {
            /** @description Stable, machine-readable error code. */
            code: components["schemas"]["ApiErrorCode"] | components["schemas"]["ClientErrorCode"];
            /** @description Human-readable explanation. Never contains a secret. */
            error: string;
            /** @description Present only with a 400 `invalid_recipe`; every problem found in the submitted recipe (absent on the 413 `invalid_recipe`, whose body was not read). */
            errors?: components["schemas"]["RecipeProblem"][];
        };
        /**
         * RecipeKindRules
         * @description Rules that tie a recipe's `kind` to its `key` and `platform`, shared by the recipe
         *     body and the index entry:
         *     - the key of a `signup` or `signup-platform` recipe is `signup:` followed by the
         *       site or platform it covers; no other kind has a key starting with `signup:`;
         *     - `custom` (for a `platform` recipe) and `signup:custom` (for a `signup-platform`
         *       recipe) are reserved keys: a recipe names `custom` for a site's own checkout or
         *       signup;
         *     - a `merchant` recipe names a platform recipe or `custom`, never a `signup:` key; a
         *       `signup` recipe names a `signup:` key (a signup-platform recipe) or `custom`;
         *     - a `platform` or `signup-platform` recipe carries no `platform` member.
         */
        RecipeKindRules: unknown & unknown & unknown & unknown & unknown & unknown & unknown;
        /**
         * RecipeKey
         * @description A recipe's id, without spaces or control characters. Keys of `signup` and
         *     `signup-platform` recipes start with `signup:` (see `RecipeKindRules`).
         */
        RecipeKey: string;
        /**
         * RecipeKind
         * @description What a recipe covers: a merchant's checkout (`merchant`), a checkout platform that
         *     merchants share (`platform`), a site's account creation (`signup`), or a signup
         *     platform that sites share (`signup-platform`).
         * @enum {string}
         */
        RecipeKind: "merchant" | "platform" | "signup" | "signup-platform";
        /**
         * RecipePlatform
         * @description The platform recipe that a `merchant` or `signup` recipe names: the key of a
         *     `platform` recipe (for a merchant) or of a `signup-platform` recipe (for a signup),
         *     or `custom` when the site runs its own checkout or signup.
         */
        RecipePlatform: string;
        /**
         * RecipeStatus
         * @description How far a recipe is known to work. Only a maintainer sets `verified`; a contributed
         *     recipe never goes live as `verified` on its own claim.
         * @enum {string}
         */
        RecipeStatus: "verified" | "partial" | "unverified" | "dead-end";
        /**
         * Recipe
         * @description A recipe body: how an agent completes a checkout or an account creation on a site.
         *
         *     Besides the optional `evidence` and `preconditions`, the members here are the fewest
         *     that let the registry index the recipe, answer per-URL lookups and validate a
         *     submission. The object is open: further members are kept as sent (except names
         *     starting with `$`, removed on parse).
         */
        Recipe: {
            key: components["schemas"]["RecipeKey"];
            kind: components["schemas"]["RecipeKind"];
            status: components["schemas"]["RecipeStatus"];
            platform?: components["schemas"]["RecipePlatform"];
            /**
             * @description The pages the recipe serves. A page is covered when one
             *     of `hosts` equals the page's host or the host's registrable domain (Public Suffix
             *     List; compared in lower case), and its path starts with one of `paths`. Among the
             *     recipes covering a page, an exact host ranks above a registrable domain, then the
             *     longer path prefix, then the status (`verified`, `partial`, `unverified`,
             *     `dead-end`), then a contribution over a release recipe, then the key.
             *     A recipe without `match` fills no lookup slot through it; a platform
             *     recipe can still fill a platform slot when a merchant or signup recipe names it.
             */
            match?: {
                /**
                 * @description Host names the recipe serves (`www.acme.com`): labels of letters, digits and
                 *     hyphens joined by dots, no label starting or ending with a hyphen, an optional
                 *     final dot; no scheme, port, path or wildcard. An internationalised name is
                 *     compared in its ASCII form (the document's introduction, "Sites and host
                 *     names"), so it must also convert to one: every label of the ASCII form at most
                 *     63 characters, the whole at most 253. The pattern checks the characters; the
                 *     conversion is the service's check.
                 */
                hosts: string[];
                /** @description Path prefixes, each starting with `/`. Default (absent) is every path. */
                paths?: string[];
            };
            /**
             * @description Proof that the recipe worked, published verbatim from the `note` of a
             *     submission whose verification claim a maintainer approved.
             */
            evidence?: string;
            /**
             * @description What must hold before the recipe can run. The known value is `delivery_location`
             *     (the session needs a delivery location); other values may appear.
             */
            preconditions?: string[];
            /** @description The steps an agent follows. Their structure is not specified. */
            steps?: unknown[];
        } & components["schemas"]["RecipeKindRules"];
        /**
         * RecipeIndexEntry
         * @description One recipe of the registry, as `GET /v1/recipes` lists it without `url`.
         */
        RecipeIndexEntry: {
            key: components["schemas"]["RecipeKey"];
            kind: components["schemas"]["RecipeKind"];
            /**
             * @description The platform recipe this merchant or signup recipe names, or `custom`. Not always
             *     present; omitted on `platform` and `signup-platform` entries.
             */
            platform?: components["schemas"]["RecipePlatform"];
            status: components["schemas"]["RecipeStatus"];
            /**
             * @description The registry release the recipe was loaded from, or the literal `submission` for
             *     a contributed recipe.
             * @example 2025.06.2
             * @example submission
             */
            registryVersion: string;
            /** @description The recipe body; present only with `full=1`. */
            recipe?: components["schemas"]["Recipe"];
        } & components["schemas"]["RecipeKindRules"];
        /**
         * RecipeIndex
         * @description The recipe index (`GET /v1/recipes` without `url`): every recipe of the registry,
         *     with its body only when `full=1` is sent.
         */
        RecipeIndex: {
            recipes: components["schemas"]["RecipeIndexEntry"][];
        };
        /**
         * RecipeSummary
         * @description A recipe as one slot of a per-URL lookup names it.
         */
        RecipeSummary: {
            /**
             * @description The recipe's key: the value the index and a recipe carry as `key`, under the name
             *     the lookup gives it. Look a slot's recipe up in the index by `key` equal to this `id`.
             */
            id: components["schemas"]["RecipeKey"];
            kind: components["schemas"]["RecipeKind"];
            /**
             * @description As in the index entry: the platform recipe this merchant or signup recipe names,
             *     or `custom`; omitted on `platform` and `signup-platform` recipes.
             */
            platform?: components["schemas"]["RecipePlatform"];
            status: components["schemas"]["RecipeStatus"];
        };
        /**
         * RecipeLookup
         * @description The per-URL lookup (`GET /v1/recipes?url=...`): exactly four slots, each the summary
         *     of the recipe that serves the page or `null`. A URL that does not parse gives four
         *     `null` slots.
         */
        RecipeLookup: {
            /** @description The `merchant` recipe whose `match` covers the page, or `null`. */
            merchant: components["schemas"]["RecipeSummary"] | null;
            /**
             * @description The `platform` recipe for the page, or `null`: the one the merchant recipe names in
             *     `platform` when it names one (not `custom`), otherwise the `platform` recipe whose
             *     `match` covers the page.
             */
            platform: components["schemas"]["RecipeSummary"] | null;
            /** @description The `signup` recipe whose `match` covers the page, or `null`. */
            signup: components["schemas"]["RecipeSummary"] | null;
            /**
             * @description The `signup-platform` recipe for the page, or `null`: the one the signup recipe
             *     names in `platform` when it names one (not `custom`), otherwise the
             *     `signup-platform` recipe whose `match` covers the page.
             */
            signupPlatform: components["schemas"]["RecipeSummary"] | null;
        };
        /**
         * RecipeSubmissionWrapperRules
         * @description Rule of the submission wrapper: `verificationRequested: true` needs a `note` with at
         *     least one character that is not white space. A separate schema so that it can be
         *     applied through `allOf`.
         */
        RecipeSubmissionWrapperRules: unknown;
        /**
         * RecipeSubmissionWrapper
         * @description The wrapper form of a recipe submission: the recipe plus an optional note and
         *     verification claim.
         */
        RecipeSubmissionWrapper: {
            recipe: components["schemas"]["Recipe"];
            /**
             * @description Free text for the maintainers, up to 2,000 characters: a longer note is truncated
             *     to 2,000, not refused. Published verbatim as the recipe's `evidence` if a
             *     verification claim is approved.
             */
            note?: string;
            /**
             * @description Claims that a real purchase (or, for a signup recipe, an account creation)
             *     succeeded with this recipe. Requires a non-empty `note`. The recipe goes live at
             *     its submitted status; the claim waits for a maintainer, the only one who can set
             *     `verified`.
             */
            verificationRequested?: boolean;
        } & components["schemas"]["RecipeSubmissionWrapperRules"];
        /**
         * RecipeSubmissionRequest
         * @description Body of `POST /v1/recipes`: either the wrapper (`recipe`, optional `note` and
         *     `verificationRequested`) or the recipe object alone. A body that matches both is read
         *     as the wrapper. Member names starting with `$` are removed, at every depth, before
         *     the body is validated.
         */
        RecipeSubmissionRequest: components["schemas"]["RecipeSubmissionWrapper"] | components["schemas"]["Recipe"];
        /**
         * RecipeSubmissionAccepted
         * @description Answer of `POST /v1/recipes`; screening runs after it is sent. The reference server
         *     sends these two members and nothing else; the API allows others, so
         *     another deployment may add members: ignore those you do not know.
         */
        RecipeSubmissionAccepted: {
            /** @description The submission id, for `GET /v1/recipes/submissions/{id}`. */
            id: string;
            /**
             * @description Always `pending`.
             * @constant
             */
            status: "pending";
        };
        /**
         * RecipeSubmissionRules
         * @description Rule of a recipe submission: `verdict` is empty while the status is `pending`.
         *     A separate schema so that it can be applied through `allOf`.
         */
        RecipeSubmissionRules: unknown;
        /**
         * RecipeSubmission
         * @description A recipe submission and its screening verdict. A new submission is `pending` while
         *     screening runs; afterwards its status is one of the others. The transitions after
         *     `pending`, including what leads to `needs_human` and `merged`, are not specified.
         */
        RecipeSubmission: {
            /** @description The submission id. */
            id: string;
            /** @description The key of the submitted recipe. */
            key: components["schemas"]["RecipeKey"];
            /** @enum {string} */
            status: "pending" | "approved" | "merged" | "rejected" | "needs_human";
            /** @description Screening findings, each a fixed text. Empty while `pending`. */
            verdict: string[];
        } & components["schemas"]["RecipeSubmissionRules"];
        /**
         * PasswordRules
         * @description The password rule fields of `POST /v1/logins/requests` and `POST /v1/logins/password`:
         *     what the site accepts, for the service to generate a password that fits. All are
         *     optional. A value of the wrong type is ignored and the service's stricter defaults
         *     apply (`"minLength": "20"` is not an error), so these members carry no `type`; see
         *     `x-ignore-wrong-type`. The rule checks on a value of the right type (`invalid_policy`,
         *     `password_too_short`) are the service's.
         *
         *     The generated password has 12 to 64 characters (24 by default) and always at least
         *     one lowercase letter, one uppercase letter and one digit, plus one symbol unless
         *     `noSymbols` is true. The rules actually used come back as `passwordPolicy`.
         *
         *     **Length.** The service takes the range the rules allow, from the larger of 12 and
         *     `minLength` to the smaller of 64 and `maxLength`, and uses 24 when it lies in that
         *     range, otherwise the end of the range nearest to 24: `maxLength: 16` gives 16
         *     characters, `minLength: 30` gives 30, `minLength: 12, maxLength: 20` gives 20, and no
         *     length rule gives 24. It never picks a length at random.
         *
         *     **Each call stands alone.** The rules apply to the one password that call generates
         *     and are not stored with the login. A rotation (`POST /v1/logins/password`) sent with
         *     only `label` uses the service's defaults, not the rules given when the login was
         *     filed: 24 characters, all four classes, symbols from the whole safe set, repeats
         *     allowed. Send the site's rules again with every rotation.
         *
         *     A number is judged as JSON parsers commonly read it, as an IEEE 754 double: a number
         *     too large for a double is an infinity, a whole number beyond every bound, so
         *     `maxLength: -1e400` is below 12 (`password_too_short`), `minLength: 1e400` is above 64
         *     (`invalid_policy`) and `maxLength: 1e400` sets no upper limit; digits beyond a
         *     double's precision are rounded (`maxLength: 12.0000000000000001` is 12).
         */
        PasswordRules: {
            /**
             * @description Number. The fewest characters the site accepts: a whole number, at most 64 and
             *     not above `maxLength`; otherwise 400 `invalid_policy`. Ignored when not a number.
             */
            minLength?: unknown;
            /**
             * @description Number. The most characters the site accepts: a whole number (otherwise 400
             *     `invalid_policy`); below 12 gives 400 `password_too_short`. Ignored when not a
             *     number.
             */
            maxLength?: unknown;
            /**
             * @description Boolean. `true` when the site rejects punctuation: the password then has no
             *     symbol and `passwordPolicy` has no `symbolAlphabet`. Ignored when not a boolean.
             */
            noSymbols?: unknown;
            /**
             * @description String. The exact punctuation the site accepts. It narrows the safe set
             *     `!@#$*+-_=.?`: characters outside that set are ignored, and a string with none
             *     of them gives 400 `invalid_policy`. Ignored when not a string.
             */
            symbols?: unknown;
            /**
             * @description Boolean. `true` when the site rejects three identical characters in a row: the
             *     password then never has one character three times in a row. Ignored when not a
             *     boolean.
             */
            noRepeats?: unknown;
        };
        /**
         * Username
         * @description A username the site already accepted; at least 4 characters, no control characters.
         */
        Username: string;
        /**
         * SignupRequestCreate
         * @description Body of `POST /v1/logins/requests`: the site and the exact email of the new login,
         *     the username if the site already accepted one, and the site's password rules.
         */
        SignupRequestCreate: {
            /**
             * @description The registrable domain of the site (`acme.com`, `acme.co.uk`), as a host name:
             *     labels of letters, digits and hyphens joined by dots, no label starting or
             *     ending with a hyphen (`a_b.com` is not one). The name is first converted by the
             *     WHATWG URL host rules (UTS #46, as browsers convert it) to its ASCII form in
             *     lower case, and the label rules apply to that form: so an internationalised name
             *     (`exÿ.com`, `xn--ex-7ka.com`; `😀.com`, `xn--e28h.com`) is accepted, and so are the
             *     characters the rules map or drop (`example。org` with an ideographic full stop, a
             *     fullwidth letter, a soft hyphen), exactly as the catalog's `url` filter reads a
             *     page. The ASCII form is what is stored, compared and returned; a name that does
             *     not convert is not a host name. Both checks, and the Public Suffix List's, are
             *     the service's. Anything else gives 400 `invalid_website`.
             */
            website: string;
            /**
             * @description The one email address the login signs up with: 4 to 254 characters, exactly one
             *     `@`, no whitespace (otherwise 400 `invalid_email`). A pre-approved site completes
             *     at once only for the exact email saved with it. Whitespace is every Unicode
             *     White_Space character (U+0085 too, which the pattern's `\s` misses), and control
             *     characters (NUL, ESC, DEL, the C1 controls) are refused as well; the service checks both.
             */
            email: string;
            /** @description Only when the site already accepted it; at least 4 characters, no control characters (otherwise 400 `invalid_username`). */
            username?: components["schemas"]["Username"];
        } & components["schemas"]["PasswordRules"];
        /**
         * SignupRequestExpiresAt
         * Format: int64
         * @description When a pending signup request expires: 24 hours after filing, in milliseconds since
         *     the Unix epoch (UTC). A request still pending then becomes `expired`.
         */
        SignupRequestExpiresAt: number;
        /**
         * SignupRequestFiled
         * @description Answer of `POST /v1/logins/requests`. Handle both statuses: `pending` waits for the
         *     account holder (poll `GET /v1/logins/requests/{id}`); `approved` means the login
         *     already exists and the first poll carries its tokens. The reference server sends these
         *     three members and nothing else; the API allows others, so
         *     another deployment may add members: ignore those you do not know.
         */
        SignupRequestFiled: {
            /** @description The request id, for `GET /v1/logins/requests/{id}`. */
            requestId: string;
            /**
             * @description `approved` when a pre-approved signup completed at once; otherwise `pending`.
             * @enum {string}
             */
            status: "pending" | "approved";
            expiresAt: components["schemas"]["SignupRequestExpiresAt"];
        };
        /**
         * SignupRequestPending
         * @description The account holder has not decided yet (or an approval could not complete). Poll again later.
         */
        SignupRequestPending: {
            /** @constant */
            status: "pending";
            expiresAt: components["schemas"]["SignupRequestExpiresAt"];
        };
        /**
         * PasswordPolicy
         * @description The rules the generated password followed. Never the password itself. Every generated
         *     password has a lowercase letter, an uppercase letter and a digit, and a symbol unless
         *     the request set `noSymbols`; `symbolAlphabet` is present exactly when `classes`
         *     contains `symbol`.
         */
        PasswordPolicy: {
            /** @description Number of characters of the generated password (24 unless the rules asked otherwise). */
            length: number;
            /** @description The character classes the password contains. */
            classes: ("lowercase" | "uppercase" | "digit" | "symbol")[];
            /**
             * @description The symbols the password was drawn from: the safe set `!@#$*+-_=.?`, or the part of
             *     it the request's `symbols` named. Omitted when the password has no symbols.
             */
            symbolAlphabet?: string;
        };
        /**
         * SignupRequestApproved
         * @description The login exists. `login` is the entry `GET /v1/tokens` lists for it. The password is
         *     never returned, only the rules it was generated with.
         */
        SignupRequestApproved: {
            /** @constant */
            status: "approved";
            login: components["schemas"]["LoginEntry"];
            passwordPolicy: components["schemas"]["PasswordPolicy"];
            /**
             * @description `true` when the account holder replaced the generated password before this poll.
             *     `passwordPolicy` then describes a password that no longer exists, the login's
             *     password token resolves to the account holder's password and fills as normal, and
             *     `POST /v1/logins/password` refuses this login permanently with `not_rotatable`.
             *     `false` otherwise. An older deployment may omit it: absent means `false`.
             */
            passwordOwnerManaged?: boolean;
        };
        /**
         * SignupRequestDenied
         * @description The account holder denied the request. Final. The body holds nothing else, so any other member breaks the contract.
         */
        SignupRequestDenied: {
            /** @constant */
            status: "denied";
        };
        /**
         * SignupRequestExpired
         * @description The request was still pending 24 hours after filing. Final; file a new request to try
         *     again. The body holds nothing else, so any other member breaks the
         *     contract.
         */
        SignupRequestExpired: {
            /** @constant */
            status: "expired";
        };
        /**
         * SignupRequestStatus
         * @description Answer of `GET /v1/logins/requests/{id}`, by `status`: `pending` with `expiresAt`;
         *     `approved` with `login`, `passwordPolicy` and `passwordOwnerManaged`; `denied` and
         *     `expired` with nothing else. Never a password.
         */
        SignupRequestStatus: components["schemas"]["SignupRequestPending"] | components["schemas"]["SignupRequestApproved"] | components["schemas"]["SignupRequestDenied"] | components["schemas"]["SignupRequestExpired"];
        /**
         * SetUsernameRequest
         * @description Body of `POST /v1/logins/username`.
         */
        SetUsernameRequest: {
            /** @description The label of a login this key created. */
            label: string;
            username: components["schemas"]["Username"];
        };
        /**
         * LoginEnvelope
         * @description A login entry in its envelope, the answer of `POST /v1/logins/username`. The reference
         *     server sends `login` and nothing else; the API allows others, so
         *     another deployment may add members. The login entry itself stays open
         *     (`LoginEntry`).
         */
        LoginEnvelope: {
            login: components["schemas"]["LoginEntry"];
        };
        /**
         * RotatePasswordRequest
         * @description Body of `POST /v1/logins/password`: the label of the login and the site's password
         *     rules.
         */
        RotatePasswordRequest: {
            /** @description The label of a login this key created. Any label this key may not rotate, unknown ones included, answers 409 `not_rotatable`. */
            label: string;
        } & components["schemas"]["PasswordRules"];
        /**
         * RotatePasswordResult
         * @description Answer of `POST /v1/logins/password`. The tokens do not change: the login's existing
         *     password token now resolves to the new password. The password itself is never returned.
         *     The reference server sends these three members and nothing else; the API allows others, so
         *     another deployment may add members.
         */
        RotatePasswordResult: {
            login: components["schemas"]["LoginEntry"];
            passwordPolicy: components["schemas"]["PasswordPolicy"];
            /**
             * @description Always `true`.
             * @constant
             */
            rotated: true;
        };
        /**
         * PurchaseApproval
         * @description What `GET /v1/approvals/{token}` shows the account holder about a purchase held for
         *     approval, when it asks for JSON: `kind` and `offersDeclared`. Other members may be
         *     present; their names and meaning are not specified, so do not rely on them.
         */
        PurchaseApproval: {
            /**
             * @description Why the purchase is held. The one value the specification names is
             *     `amount_mismatch`: such a hold can be approved only at the declared total
             *     (`at: declared`), so it always shows `offersDeclared: true`. Other values are not
             *     listed; treat an unknown value as an ordinary hold.
             * @example amount_mismatch
             */
            kind: string;
            /**
             * @description `true` when the purchase may be approved at the declared total
             *     (`at: declared`); otherwise `POST .../decide` refuses `at: declared` with
             *     `declared_not_offered`.
             */
            offersDeclared: boolean;
        };
        /**
         * LinkPage
         * @description An HTML page for the account holder, answered instead of the JSON body when the
         *     request's `Accept` prefers `text/html` to `application/json`, as a browser's does. It
         *     needs no script and loads nothing (no image, font or stylesheet from anywhere); its
         *     decision buttons are plain forms that post `application/x-www-form-urlencoded` to the
         *     same link. Its wording and markup are not part of the contract: read the JSON
         *     answer in a program.
         */
        LinkPage: string;
        /**
         * LinkDecision
         * @description The account holder's decision on an account-holder link.
         * @enum {string}
         */
        LinkDecision: "approve" | "deny";
        /**
         * PurchaseDecision
         * @description Body of `POST /v1/approvals/{token}/decide`.
         */
        PurchaseDecision: {
            decision: components["schemas"]["LinkDecision"];
            /**
             * @description Which total an approval stands for: `page`, the total on the checkout page (the
             *     default), or `declared`, the total that was declared for the purchase. `declared`
             *     is accepted only when `GET /v1/approvals/{token}` shows `offersDeclared: true`
             *     (otherwise `declared_not_offered`); a hold of kind `amount_mismatch` accepts only
             *     `declared` (otherwise `declared_required`). A denial approves no total, so these
             *     two rules do not apply to it.
             * @default page
             * @enum {string}
             */
            at?: "declared" | "page";
        };
        /**
         * LinkDecisionResult
         * @description Answer of `POST /v1/approvals/{token}/decide` once the decision took effect. It names
         *     `status` and `at`. Other members may be present; their names and meaning are not
         *     specified, so do not rely on them.
         */
        LinkDecisionResult: {
            /**
             * @description The held purchase's state after the decision.
             * @enum {string}
             */
            status: "approved" | "denied";
            /**
             * @description Present on an approval only; the total the approval stands for, as decided (`page` when `at` was not sent).
             * @enum {string}
             */
            at?: "declared" | "page";
        };
        /**
         * SignupApproval
         * @description What the account holder sees on a signup request's link (`GET` and `POST
         *     /v1/signup-requests/{token}`) when it asks for JSON: `status`, `website`, `email` and
         *     `approvalFailure`, and `expiresAt`. Other members may be present; their names and meaning are not
         *     specified, so do not rely on them.
         */
        SignupApproval: {
            /**
             * @description The signup request's status. A live link always shows `pending` on `GET`; after
             *     `POST` it is `approved` or `denied`, or still `pending` when an approval check
             *     failed (see `approvalFailure`).
             * @enum {string}
             */
            status: "pending" | "approved" | "denied";
            /** @description The registrable domain of the site the agent asked to sign up on, as filed. */
            website: string;
            /** @description The email address the agent asked to sign up with, as filed. */
            email: string;
            /**
             * @description Present only while the request is `pending` after an approval that could not
             *     complete: the check that failed. Shown only here, to the account holder; the
             *     agent keeps seeing `pending` and never this reason.
             *
             *     - `login_limit`: the account holds 500 logins.
             *     - `label_unavailable`: no free label for this site name (`<name>` and
             *       `<name>2` to `<name>50` are taken).
             *     - `scope_full`: the filing key is scoped and its own login list is full (50
             *       entries added, or a list of over 200 entries).
             *     - `daily_limit`: the account's credential-change budget is spent (25 per
             *       24-hour window by default).
             *
             *     The link stays usable until the request expires: the account holder may delete
             *     logins, free a label or list entries, or wait for the budget, and approve again.
             * @enum {string}
             */
            approvalFailure?: "login_limit" | "label_unavailable" | "scope_full" | "daily_limit";
            /**
             * Format: int64
             * @description When the signup request expires, and the link with it: 24 hours after filing, in
             *     milliseconds since the Unix epoch (UTC). It stays the same after a decision.
             */
            expiresAt?: number;
        };
        /**
         * SignupDecision
         * @description Body of `POST /v1/signup-requests/{token}`.
         */
        SignupDecision: {
            decision: components["schemas"]["LinkDecision"];
        };
        /**
         * CvvRequest
         * @description What `GET /v1/cvv-requests/{token}` shows the account holder: the live prompt for a
         *     card's security code, which is never stored. The specification does not show this
         *     body and names none of its members; it is a JSON object whose contents are not
         *     specified.
         */
        CvvRequest: Record<string, never>;
        /**
         * ChallengeRequest
         * @description What `GET /v1/challenge-requests/{token}` shows the account holder: a challenge
         *     handoff, a challenge in the agent's browser session handed to the account holder. The
         *     specification does not show this body and names none of its members; it is a JSON
         *     object whose contents are not specified.
         */
        ChallengeRequest: Record<string, never>;
        /**
         * ProxyHealth
         * @description Answer of the proxy's `GET /health`. Only `ok` is specified; other members may be
         *     present and are not specified.
         */
        ProxyHealth: {
            /**
             * @description Always `true`.
             * @constant
             */
            ok: true;
        };
        /**
         * @description The envelope of every delivery: one event of one agent card, as JSON. The sandbox sends
         *     one kind, `test`, when the account holder asks for a test delivery; the API names no other kinds
         *     and no other payload fields, so the reference invents none. A
         *     receiver ignores a `type` it does not know and members it does not know.
         */
        WebhookEvent: {
            /**
             * @description The event's id, the same on every attempt to deliver it; use it to ignore a repeat.
             * @example evt_4f1c2b3a5d6e7f8091a2b3c4d5e6f708
             */
            id: string;
            /**
             * @description The kind of event. The sandbox sends only `test`.
             * @example test
             */
            type: string;
            /**
             * Format: date-time
             * @description When the event happened (a test delivery, when it was asked for).
             */
            created_at: string;
            /**
             * @description The agent card the event is about; its signing secret signs the
             *     delivery. An agent finds the card among those it holds by the `agentCardId` of the
             *     catalog's card entries (GET `/v1/tokens`).
             * @example card_9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a49
             */
            agent_card_id: string;
        };
    };
    responses: {
        /**
         * @description The `Authorization` header is missing or not in Bearer form (`unauthorized`), or
         *     the key is unknown or revoked (`invalid_api_key`).
         */
        Unauthorized: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code: "unauthorized" | "invalid_api_key";
                };
            };
        };
        /**
         * @description The request line and headers did not arrive within 10 seconds, or the whole request
         *     (headers and body) within 30 seconds (root `x-limits` `request-headers-timeout` and
         *     `request-timeout`, deployment settings). Answered by the server's HTTP layer, whatever
         *     the operation; the connection closes after it. Send the request again, faster. A
         *     server that is stopping also answers 408 to a request still arriving 10 seconds after
         *     the stop began (`shutdown-drain`); send it again on a new connection.
         */
        RequestTimeout: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "bad_request";
                };
            };
        };
        /**
         * @description The request line and headers together are over 16 KB (root `x-limits`
         *     `request-header-size`, a deployment setting). Answered by the server's HTTP layer
         *     before any operation is matched; the connection closes after it.
         */
        RequestHeadersTooLarge: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "bad_request";
                };
            };
        };
        /**
         * @description The service's storage is full, so what this request must record (a write, or the
         *     count of a per-minute limit) cannot be kept; nothing of it was. Send it again,
         *     unchanged, after `Retry-After` seconds. An intermediary may answer 503 too, in its
         *     own words: branch on `code`, and wait as this answer asks.
         */
        StorageFull: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "Retry-After": components["headers"]["RetryAfterStorageFull"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "storage_full";
                };
            };
        };
        /**
         * @description A request with this `Idempotency-Key` is still being processed. Nothing was done
         *     with this one: send it again, with the same key, after `Retry-After` seconds.
         */
        IdempotencyKeyInUse: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "Retry-After": components["headers"]["RetryAfterKeyInUse"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "idempotency_key_in_use";
                };
            };
        };
        /**
         * @description The `Idempotency-Key` was already used, within its 24 hours, for a request with
         *     another body or to another path. Nothing was written. Send this request with a new key.
         */
        IdempotencyKeyReused: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "idempotency_key_reused";
                };
            };
        };
        /** @description The body is over 4 KB; the request was cut at the cap without reading the rest. */
        LoginWriteTooLarge: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "bad_request";
                };
            };
        };
        /** @description The key lacks the signup permission (off by default; the account holder grants it per key). */
        SignupNotEnabled: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "signup_not_enabled";
                };
            };
        };
        /**
         * @description The link is unknown, already used, past its lifetime, a link of another kind, or a
         *     link of an account that has since been deleted. All of these read the same, so a
         *     token reveals nothing about which one applies.
         */
        LinkNotFound: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                Vary: components["headers"]["VaryAccept"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "not_found";
                };
                "text/html": components["schemas"]["LinkPage"];
            };
        };
        /**
         * @description A decision with this `Idempotency-Key` is still being processed. Nothing was done
         *     with this one: send it again, with the same key, after `Retry-After` seconds.
         */
        LinkIdempotencyKeyInUse: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "Retry-After": components["headers"]["RetryAfterKeyInUse"];
                "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                Vary: components["headers"]["VaryAccept"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "idempotency_key_in_use";
                };
            };
        };
        /**
         * @description The body is over 1 KB (root `x-limits` `link-decision-body`); the request was cut at
         *     the cap without reading the rest, and nothing was decided.
         */
        LinkDecisionTooLarge: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                Vary: components["headers"]["VaryAccept"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "bad_request";
                };
                "text/html": components["schemas"]["LinkPage"];
            };
        };
        /**
         * @description The `Idempotency-Key` was already used with this link, within its 24 hours, for a
         *     request with another body or to another path. Nothing was decided. Send this
         *     decision with a new key.
         */
        LinkIdempotencyKeyReused: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                Vary: components["headers"]["VaryAccept"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "idempotency_key_reused";
                };
            };
        };
        /**
         * @description The service's storage is full, so what this request must record (the account
         *     holder's decision, or that a single-use link was opened) cannot be kept; nothing
         *     of it was, and the link stays as it was. Send it again, unchanged, after
         *     `Retry-After` seconds.
         */
        LinkStorageFull: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "Retry-After": components["headers"]["RetryAfterStorageFull"];
                "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                Vary: components["headers"]["VaryAccept"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @constant */
                    code: "storage_full";
                };
            };
        };
    };
    parameters: {
        /**
         * @description The page the agent is on (`https://www.acme.com/checkout`). Narrows `cards` and
         *     `logins` to those registered for that page and adds `relatedLogins`. A card or login
         *     is registered for a page when the registrable domain (Public Suffix List) of the
         *     page's host equals the registrable domain of the login's `website` or of one of its
         *     `extraWebsites` (for a card: of one of the sites on its allow list). Cards with
         *     `anySite: true` are always kept, after the page-specific ones.
         *
         *     A plain string, not checked as a URL: a value that does not parse (an empty value
         *     included) is not an error, it matches no site. Every site-scoped card and every login
         *     is then dropped, every `anySite` card is kept and `relatedLogins` is empty.
         * @example https://www.acme.com/checkout
         */
        TokenCatalogUrl: string;
        /**
         * @description Alias of `url`, with the same effect; it may carry just the page's host name
         *     (`www.acme.com`). When both are sent, `url` is used and `host` is ignored.
         * @example www.acme.com
         */
        TokenCatalogHost: string;
        /**
         * @description The page to look recipes up for; the answer is the four-slot lookup. Send only
         *     scheme, host and path (`https://www.acme.com/checkout`): remove the query, the
         *     fragment and any hosted-checkout session token. For hosts whose checkout path
         *     carries a session token, send only scheme and host (`https://checkout.payco.com`).
         *     The server matches on scheme, host and path only. A value that does not parse is not
         *     an error: the four slots are `null`.
         * @example https://www.acme.com/checkout
         */
        RecipeLookupUrl: string;
        /**
         * @description `1` returns every recipe body (the `recipe` member of each index entry); any other
         *     value returns the index without bodies. Ignored when `url` is set.
         * @example 1
         */
        RecipeIndexFull: string;
        /**
         * @description Makes a write safe to send again when no answer came. Send a value of your own, new
         *     for each write (a UUID), and send the same value again with the same body when you
         *     repeat that write: the write happens once.
         *
         *     A key belongs to the credential that sent it (the API key, or an account-holder
         *     link's token) for 24 hours from its first request (root `x-limits`
         *     `idempotency-key-window`):
         *     - **The same key with the same body** to the same path gets the first answer again:
         *       its status, its body byte for byte and its headers (all but `Date` and
         *       `X-Request-Id`, which are the new request's), with `Idempotent-Replayed: true`.
         *       Nothing is written again, and no rate limit or budget is charged again.
         *     - **The same key with another body or another path** answers 422
         *       `idempotency_key_reused`, and nothing is written.
         *     - **The same key while its first request is still being processed**, by this or
         *       another instance of the service, answers 409 `idempotency_key_in_use` with
         *       `Retry-After: 1`. Send it again after that second.
         *
         *     Only final answers are kept: every 2xx, and every 4xx except 401, 408, 409
         *     `idempotency_key_in_use` and 429. A 5xx or a 429 keeps nothing, so the same key tries
         *     the write again. Refusals that come before the key is looked up (a missing or unknown
         *     API key, a missing signup permission, a body over the cap or of another charset) keep
         *     nothing either. An instance that stops while it processes a request holds that key
         *     for at most 60 seconds (`idempotency-key-in-flight`); then the key is free again.
         *
         *     Keys and kept answers are stored in the service's database, which every instance
         *     shares, so a key holds across instances; an answer is stored encrypted, and the
         *     request's body only as a keyed hash to compare with.
         *
         *     Every answer to a request that carries a well-formed key carries it back in an
         *     `Idempotency-Key` header: a deployment whose answers do not is not honouring keys,
         *     and a write sent to it again may happen twice. The value is 1 to 255 visible ASCII
         *     characters (`!` to `~`); any other value answers 400 with the operation's validation
         *     code and nothing is written.
         * @example 5f0c6d2e-8a4b-4f3e-9d1c-2b7a6e5f4d3c
         */
        IdempotencyKey: string;
        /**
         * @description The submission id returned by `POST /v1/recipes`.
         * @example sub_01J8ZK4Q2M7X9R3T5V6W8Y0A1B
         */
        SubmissionId: string;
        /**
         * @description The `requestId` returned by `POST /v1/logins/requests`.
         * @example sreq_01J9B2C4D6E8F0G2H4J6K8M0NP
         */
        SignupRequestId: string;
        /**
         * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
         *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
         *     link's only credential, so the whole link is a secret; it works for one kind of link
         *     only. Its format is not specified: treat it as an opaque string.
         * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
         */
        LinkToken: string;
        /**
         * @description The delivery's signature: `t=<t>,v1=<signature>`. `t` is the Unix time of the
         *     delivery in seconds; `signature` is the HMAC-SHA256, in lowercase hex, keyed with the
         *     UTF-8 bytes of the signing secret of the agent card named in the body's
         *     `agent_card_id`, over `t`, a period and the raw body. Verify it over
         *     the raw request bytes, never a re-serialised body, compare in constant time, and refuse
         *     a `t` far from your own clock (the client's `verifyWebhookRequest` allows 300 seconds
         *     either way).
         *
         *     **Several signatures.** For 24 hours after the account holder rotates the card's
         *     signing secret (`rotationOverlap`), the secret it replaced stays valid beside the new
         *     one, and the header carries one `v1` entry per valid secret, the current secret's
         *     first: `t=<t>,v1=<signature with the new secret>,v1=<signature with the previous>`.
         *     Every entry signs the same `t` and body. A receiver accepts the delivery when any
         *     `v1` entry verifies with a secret it holds, so it can change secrets at its own pace
         *     within the overlap; it ignores entries it cannot verify, and any other `name=value`
         *     entry it does not know.
         *
         *     The header's name, this format, the algorithm, the unit of `t` and the overlap are the
         *     reference server's choices (the API leaves them open), machine-readable in
         *     `x-signature-format`; the client reads them from there.
         * @example t=1764201600,v1=0c5f6bbb5b0ad2b7a2f1b1a3d9e5a0f7c1c8d2e4b6a8f0e2d4c6b8a0f2e4d6c8
         */
        WebhookSignature: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description Authenticated responses and per-URL recipe lookups are never cached.
         * @example no-store
         */
        CacheControlNoStore: "no-store";
        /**
         * @description Whole seconds until the limit's window ends, at least 1.
         * @example 17
         */
        RetryAfter: number;
        /**
         * @description Whole seconds to wait before sending the request again, at least 1. Room is made
         *     by an operator, not by time, so the wait asked for is long (30 seconds on the
         *     reference server) and a request sent again may be refused the same way.
         * @example 30
         */
        RetryAfterStorageFull: number;
        /**
         * @description `public, max-age=300` on the index and on the full bundle (`full=1`); `no-store` on a
         *     per-URL lookup (`url` set).
         * @example public, max-age=300
         */
        CacheControlRecipes: "public, max-age=300" | "no-store";
        /**
         * @description Seconds to wait before sending the request again with the same `Idempotency-Key`:
         *     always 1.
         * @example 1
         */
        RetryAfterKeyInUse: number;
        /**
         * @description Whole seconds until the per-minute window ends, at least 1. Sent with
         *     `rate_limited` only; absent on the other codes of this status. An intermediary
         *     may strip it, so branch on `code`, not on this header.
         */
        RetryAfterWhenRateLimited: number;
        /**
         * @description Seconds to wait before sending the request again with the same `Idempotency-Key`:
         *     always 1. Sent with `idempotency_key_in_use` only; absent on the other codes of this
         *     status.
         */
        RetryAfterWhenKeyInUse: number;
        /**
         * @description On every answer of an account-holder link: no script, no frame, no resource from
         *     anywhere, and forms post only to the same origin. The page's one inline stylesheet
         *     is allowed by its hash.
         * @example default-src 'none'; style-src 'sha256-3yrv6kZ7Vt5LdVHQoX1UxRqY+7qPkV1yL4kqyq4bXJM='; form-action 'self'; frame-ancestors 'none'; base-uri 'none'
         */
        LinkContentSecurityPolicy: string;
        /**
         * @description On every answer of an account-holder link; a browser takes the `Content-Type` as sent.
         * @example nosniff
         */
        NoSniff: "nosniff";
        /**
         * @description On every answer of an account-holder link; the link is a credential, so a page never names it to another site.
         * @example no-referrer
         */
        NoReferrer: "no-referrer";
        /**
         * @description On every answer of an account-holder link; the body depends on `Accept` (an HTML page or JSON).
         * @example Accept
         */
        VaryAccept: "Accept";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getTokenCatalog: {
        parameters: {
            query?: {
                /**
                 * @description The page the agent is on (`https://www.acme.com/checkout`). Narrows `cards` and
                 *     `logins` to those registered for that page and adds `relatedLogins`. A card or login
                 *     is registered for a page when the registrable domain (Public Suffix List) of the
                 *     page's host equals the registrable domain of the login's `website` or of one of its
                 *     `extraWebsites` (for a card: of one of the sites on its allow list). Cards with
                 *     `anySite: true` are always kept, after the page-specific ones.
                 *
                 *     A plain string, not checked as a URL: a value that does not parse (an empty value
                 *     included) is not an error, it matches no site. Every site-scoped card and every login
                 *     is then dropped, every `anySite` card is kept and `relatedLogins` is empty.
                 * @example https://www.acme.com/checkout
                 */
                url?: components["parameters"]["TokenCatalogUrl"];
                /**
                 * @description Alias of `url`, with the same effect; it may carry just the page's host name
                 *     (`www.acme.com`). When both are sent, `url` is used and `host` is ignored.
                 * @example www.acme.com
                 */
                host?: components["parameters"]["TokenCatalogHost"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token catalog, narrowed to the page when `url` or `host` is sent. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenCatalog"];
                };
            };
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            /** @description The key's or the account's catalog requests of this minute are spent. */
            429: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        code: "rate_limited";
                    };
                };
            };
            431: components["responses"]["RequestHeadersTooLarge"];
            503: components["responses"]["StorageFull"];
        };
    };
    getRecipes: {
        parameters: {
            query?: {
                /**
                 * @description The page to look recipes up for; the answer is the four-slot lookup. Send only
                 *     scheme, host and path (`https://www.acme.com/checkout`): remove the query, the
                 *     fragment and any hosted-checkout session token. For hosts whose checkout path
                 *     carries a session token, send only scheme and host (`https://checkout.payco.com`).
                 *     The server matches on scheme, host and path only. A value that does not parse is not
                 *     an error: the four slots are `null`.
                 * @example https://www.acme.com/checkout
                 */
                url?: components["parameters"]["RecipeLookupUrl"];
                /**
                 * @description `1` returns every recipe body (the `recipe` member of each index entry); any other
                 *     value returns the index without bodies. Ignored when `url` is set.
                 * @example 1
                 */
                full?: components["parameters"]["RecipeIndexFull"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The per-URL lookup when `url` is set; otherwise the index, with bodies when `full=1`. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlRecipes"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecipeIndex"] | components["schemas"]["RecipeLookup"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeadersTooLarge"];
        };
    };
    submitRecipe: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a write safe to send again when no answer came. Send a value of your own, new
                 *     for each write (a UUID), and send the same value again with the same body when you
                 *     repeat that write: the write happens once.
                 *
                 *     A key belongs to the credential that sent it (the API key, or an account-holder
                 *     link's token) for 24 hours from its first request (root `x-limits`
                 *     `idempotency-key-window`):
                 *     - **The same key with the same body** to the same path gets the first answer again:
                 *       its status, its body byte for byte and its headers (all but `Date` and
                 *       `X-Request-Id`, which are the new request's), with `Idempotent-Replayed: true`.
                 *       Nothing is written again, and no rate limit or budget is charged again.
                 *     - **The same key with another body or another path** answers 422
                 *       `idempotency_key_reused`, and nothing is written.
                 *     - **The same key while its first request is still being processed**, by this or
                 *       another instance of the service, answers 409 `idempotency_key_in_use` with
                 *       `Retry-After: 1`. Send it again after that second.
                 *
                 *     Only final answers are kept: every 2xx, and every 4xx except 401, 408, 409
                 *     `idempotency_key_in_use` and 429. A 5xx or a 429 keeps nothing, so the same key tries
                 *     the write again. Refusals that come before the key is looked up (a missing or unknown
                 *     API key, a missing signup permission, a body over the cap or of another charset) keep
                 *     nothing either. An instance that stops while it processes a request holds that key
                 *     for at most 60 seconds (`idempotency-key-in-flight`); then the key is free again.
                 *
                 *     Keys and kept answers are stored in the service's database, which every instance
                 *     shares, so a key holds across instances; an answer is stored encrypted, and the
                 *     request's body only as a keyed hash to compare with.
                 *
                 *     Every answer to a request that carries a well-formed key carries it back in an
                 *     `Idempotency-Key` header: a deployment whose answers do not is not honouring keys,
                 *     and a write sent to it again may happen twice. The value is 1 to 255 visible ASCII
                 *     characters (`!` to `~`); any other value answers 400 with the operation's validation
                 *     code and nothing is written.
                 * @example 5f0c6d2e-8a4b-4f3e-9d1c-2b7a6e5f4d3c
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecipeSubmissionRequest"];
            };
        };
        responses: {
            /** @description Accepted; screening runs after this response. */
            202: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecipeSubmissionAccepted"];
                };
            };
            /**
             * @description The body is not JSON text in UTF-8 (or nests deeper than 64 levels), or the
             *     recipe failed validation (`invalid_recipe`); every problem is listed in `errors`.
             */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        code: "invalid_recipe";
                        errors: unknown;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            /** @description The body is over 64 KB; the request was cut at the cap without reading the rest. */
            413: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        code: "invalid_recipe";
                    };
                };
            };
            422: components["responses"]["IdempotencyKeyReused"];
            /** @description The account's 20 submissions of the last 24 hours are spent. No `Retry-After`. */
            429: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        code: "rate_limited";
                    };
                };
            };
            431: components["responses"]["RequestHeadersTooLarge"];
            503: components["responses"]["StorageFull"];
        };
    };
    getRecipeSubmission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The submission id returned by `POST /v1/recipes`.
                 * @example sub_01J8ZK4Q2M7X9R3T5V6W8Y0A1B
                 */
                id: components["parameters"]["SubmissionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The submission. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecipeSubmission"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description No submission with this id was made by the caller's account. */
            404: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        code: "not_found";
                    };
                };
            };
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeadersTooLarge"];
        };
    };
    fileSignupRequest: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a write safe to send again when no answer came. Send a value of your own, new
                 *     for each write (a UUID), and send the same value again with the same body when you
                 *     repeat that write: the write happens once.
                 *
                 *     A key belongs to the credential that sent it (the API key, or an account-holder
                 *     link's token) for 24 hours from its first request (root `x-limits`
                 *     `idempotency-key-window`):
                 *     - **The same key with the same body** to the same path gets the first answer again:
                 *       its status, its body byte for byte and its headers (all but `Date` and
                 *       `X-Request-Id`, which are the new request's), with `Idempotent-Replayed: true`.
                 *       Nothing is written again, and no rate limit or budget is charged again.
                 *     - **The same key with another body or another path** answers 422
                 *       `idempotency_key_reused`, and nothing is written.
                 *     - **The same key while its first request is still being processed**, by this or
                 *       another instance of the service, answers 409 `idempotency_key_in_use` with
                 *       `Retry-After: 1`. Send it again after that second.
                 *
                 *     Only final answers are kept: every 2xx, and every 4xx except 401, 408, 409
                 *     `idempotency_key_in_use` and 429. A 5xx or a 429 keeps nothing, so the same key tries
                 *     the write again. Refusals that come before the key is looked up (a missing or unknown
                 *     API key, a missing signup permission, a body over the cap or of another charset) keep
                 *     nothing either. An instance that stops while it processes a request holds that key
                 *     for at most 60 seconds (`idempotency-key-in-flight`); then the key is free again.
                 *
                 *     Keys and kept answers are stored in the service's database, which every instance
                 *     shares, so a key holds across instances; an answer is stored encrypted, and the
                 *     request's body only as a keyed hash to compare with.
                 *
                 *     Every answer to a request that carries a well-formed key carries it back in an
                 *     `Idempotency-Key` header: a deployment whose answers do not is not honouring keys,
                 *     and a write sent to it again may happen twice. The value is 1 to 255 visible ASCII
                 *     characters (`!` to `~`); any other value answers 400 with the operation's validation
                 *     code and nothing is written.
                 * @example 5f0c6d2e-8a4b-4f3e-9d1c-2b7a6e5f4d3c
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignupRequestCreate"];
            };
        };
        responses: {
            /** @description The request is filed. `pending` awaits the account holder; `approved` is a pre-approved signup whose login already exists. */
            202: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupRequestFiled"];
                };
            };
            /**
             * @description The body is not JSON text in UTF-8 (or nests deeper than 64 levels) or misses
             *     `website` or `email` (`bad_request`); `website` is not a host name that is a
             *     registrable domain (`invalid_website`); `email` is not one address of 4 to
             *     254 characters with one `@` and no whitespace of any Unicode kind, or has a control
             *     character (`invalid_email`); `username` is
             *     under 4 characters or contains control characters (`invalid_username`);
             *     `maxLength` is below 12 (`password_too_short`); `minLength` is above 64 or above
             *     `maxLength`, a length is not a whole number, or `symbols` has none of the safe
             *     set (`invalid_policy`).
             */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code: "bad_request" | "invalid_website" | "invalid_email" | "invalid_username" | "password_too_short" | "invalid_policy";
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            /**
             * @description The key lacks the signup permission (`signup_not_enabled`), or the account
             *     already holds 500 logins (`login_limit`; no request was created).
             */
            403: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code: "signup_not_enabled" | "login_limit";
                    };
                };
            };
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["LoginWriteTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            /**
             * @description The key's 20 login writes of this minute are spent (`rate_limited`, with
             *     `Retry-After`), or five of the account's signup requests already await a
             *     decision (`too_many_pending`, without `Retry-After`).
             */
            429: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Retry-After": components["headers"]["RetryAfterWhenRateLimited"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code: "rate_limited" | "too_many_pending";
                    };
                };
            };
            431: components["responses"]["RequestHeadersTooLarge"];
            503: components["responses"]["StorageFull"];
        };
    };
    getSignupRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The `requestId` returned by `POST /v1/logins/requests`.
                 * @example sreq_01J9B2C4D6E8F0G2H4J6K8M0NP
                 */
                id: components["parameters"]["SignupRequestId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request's status, with the members that status carries. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupRequestStatus"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The request was approved, but its login has since been removed from this key's scope. */
            403: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        code: "scope_denied";
                    };
                };
            };
            /** @description No signup request with this id was filed by this key. */
            404: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        code: "request_not_found";
                    };
                };
            };
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeadersTooLarge"];
        };
    };
    setLoginUsername: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a write safe to send again when no answer came. Send a value of your own, new
                 *     for each write (a UUID), and send the same value again with the same body when you
                 *     repeat that write: the write happens once.
                 *
                 *     A key belongs to the credential that sent it (the API key, or an account-holder
                 *     link's token) for 24 hours from its first request (root `x-limits`
                 *     `idempotency-key-window`):
                 *     - **The same key with the same body** to the same path gets the first answer again:
                 *       its status, its body byte for byte and its headers (all but `Date` and
                 *       `X-Request-Id`, which are the new request's), with `Idempotent-Replayed: true`.
                 *       Nothing is written again, and no rate limit or budget is charged again.
                 *     - **The same key with another body or another path** answers 422
                 *       `idempotency_key_reused`, and nothing is written.
                 *     - **The same key while its first request is still being processed**, by this or
                 *       another instance of the service, answers 409 `idempotency_key_in_use` with
                 *       `Retry-After: 1`. Send it again after that second.
                 *
                 *     Only final answers are kept: every 2xx, and every 4xx except 401, 408, 409
                 *     `idempotency_key_in_use` and 429. A 5xx or a 429 keeps nothing, so the same key tries
                 *     the write again. Refusals that come before the key is looked up (a missing or unknown
                 *     API key, a missing signup permission, a body over the cap or of another charset) keep
                 *     nothing either. An instance that stops while it processes a request holds that key
                 *     for at most 60 seconds (`idempotency-key-in-flight`); then the key is free again.
                 *
                 *     Keys and kept answers are stored in the service's database, which every instance
                 *     shares, so a key holds across instances; an answer is stored encrypted, and the
                 *     request's body only as a keyed hash to compare with.
                 *
                 *     Every answer to a request that carries a well-formed key carries it back in an
                 *     `Idempotency-Key` header: a deployment whose answers do not is not honouring keys,
                 *     and a write sent to it again may happen twice. The value is 1 to 255 visible ASCII
                 *     characters (`!` to `~`); any other value answers 400 with the operation's validation
                 *     code and nothing is written.
                 * @example 5f0c6d2e-8a4b-4f3e-9d1c-2b7a6e5f4d3c
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetUsernameRequest"];
            };
        };
        responses: {
            /** @description The username is recorded (or was already recorded with the same value). */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginEnvelope"];
                };
            };
            /** @description The body is not JSON text in UTF-8 (or nests deeper than 64 levels) or misses a member (`bad_request`), or the username is under 4 characters or contains control characters (`invalid_username`). */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code: "bad_request" | "invalid_username";
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["SignupNotEnabled"];
            /** @description Unknown label, a login this key did not create, a login older than the change window, or a login no longer in this scoped key's list. */
            404: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        code: "not_found";
                    };
                };
            };
            408: components["responses"]["RequestTimeout"];
            /**
             * @description The login already has a different username (`username_already_set`), or a request
             *     with this `Idempotency-Key` is still being processed (`idempotency_key_in_use`,
             *     with `Retry-After`; the reference server's own answer): send it again, with the
             *     same key, after `Retry-After` seconds.
             */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Retry-After": components["headers"]["RetryAfterWhenKeyInUse"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code: "username_already_set" | "idempotency_key_in_use";
                    };
                };
            };
            413: components["responses"]["LoginWriteTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            /**
             * @description The key's 20 login writes of this minute are spent (`rate_limited`, with
             *     `Retry-After`), or the account's credential-change budget is spent
             *     (`daily_limit`, without `Retry-After`).
             */
            429: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Retry-After": components["headers"]["RetryAfterWhenRateLimited"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code: "rate_limited" | "daily_limit";
                    };
                };
            };
            431: components["responses"]["RequestHeadersTooLarge"];
            503: components["responses"]["StorageFull"];
        };
    };
    rotateLoginPassword: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a write safe to send again when no answer came. Send a value of your own, new
                 *     for each write (a UUID), and send the same value again with the same body when you
                 *     repeat that write: the write happens once.
                 *
                 *     A key belongs to the credential that sent it (the API key, or an account-holder
                 *     link's token) for 24 hours from its first request (root `x-limits`
                 *     `idempotency-key-window`):
                 *     - **The same key with the same body** to the same path gets the first answer again:
                 *       its status, its body byte for byte and its headers (all but `Date` and
                 *       `X-Request-Id`, which are the new request's), with `Idempotent-Replayed: true`.
                 *       Nothing is written again, and no rate limit or budget is charged again.
                 *     - **The same key with another body or another path** answers 422
                 *       `idempotency_key_reused`, and nothing is written.
                 *     - **The same key while its first request is still being processed**, by this or
                 *       another instance of the service, answers 409 `idempotency_key_in_use` with
                 *       `Retry-After: 1`. Send it again after that second.
                 *
                 *     Only final answers are kept: every 2xx, and every 4xx except 401, 408, 409
                 *     `idempotency_key_in_use` and 429. A 5xx or a 429 keeps nothing, so the same key tries
                 *     the write again. Refusals that come before the key is looked up (a missing or unknown
                 *     API key, a missing signup permission, a body over the cap or of another charset) keep
                 *     nothing either. An instance that stops while it processes a request holds that key
                 *     for at most 60 seconds (`idempotency-key-in-flight`); then the key is free again.
                 *
                 *     Keys and kept answers are stored in the service's database, which every instance
                 *     shares, so a key holds across instances; an answer is stored encrypted, and the
                 *     request's body only as a keyed hash to compare with.
                 *
                 *     Every answer to a request that carries a well-formed key carries it back in an
                 *     `Idempotency-Key` header: a deployment whose answers do not is not honouring keys,
                 *     and a write sent to it again may happen twice. The value is 1 to 255 visible ASCII
                 *     characters (`!` to `~`); any other value answers 400 with the operation's validation
                 *     code and nothing is written.
                 * @example 5f0c6d2e-8a4b-4f3e-9d1c-2b7a6e5f4d3c
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RotatePasswordRequest"];
            };
        };
        responses: {
            /** @description The password is replaced; the tokens are unchanged. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatePasswordResult"];
                };
            };
            /**
             * @description The body is not JSON text in UTF-8 (or nests deeper than 64 levels) or misses
             *     `label` (`bad_request`); `maxLength` is below 12
             *     (`password_too_short`); `minLength` is above 64 or above `maxLength`, a length
             *     is not a whole number, or `symbols` has none of the safe set (`invalid_policy`).
             */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code: "bad_request" | "password_too_short" | "invalid_policy";
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["SignupNotEnabled"];
            408: components["responses"]["RequestTimeout"];
            /**
             * @description This key may not rotate this login: another key created it, it is older than the
             *     change window, the account holder replaced its password, it is no longer in this
             *     scoped key's list, or the label is unknown (`not_rotatable`). Or a request with
             *     this `Idempotency-Key` is still being processed (`idempotency_key_in_use`, with
             *     `Retry-After`; the reference server's own answer): send it again, with the same
             *     key, after `Retry-After` seconds.
             */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Retry-After": components["headers"]["RetryAfterWhenKeyInUse"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code: "not_rotatable" | "idempotency_key_in_use";
                    };
                };
            };
            413: components["responses"]["LoginWriteTooLarge"];
            422: components["responses"]["IdempotencyKeyReused"];
            /**
             * @description The key's 20 login writes of this minute are spent (`rate_limited`, with
             *     `Retry-After`), or the account's credential-change budget is spent
             *     (`daily_limit`, without `Retry-After`).
             */
            429: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Retry-After": components["headers"]["RetryAfterWhenRateLimited"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code: "rate_limited" | "daily_limit";
                    };
                };
            };
            431: components["responses"]["RequestHeadersTooLarge"];
            503: components["responses"]["StorageFull"];
        };
    };
    createLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Ignored, whatever its content; the answer is 410 with a body or without one. */
        requestBody?: {
            content: {
                "*/*": unknown;
            };
        };
        responses: {
            408: components["responses"]["RequestTimeout"];
            /** @description Always. Use `POST /v1/logins/requests`. */
            410: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        code: "signup_requires_approval";
                    };
                };
            };
            431: components["responses"]["RequestHeadersTooLarge"];
        };
    };
    getPurchaseApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The held purchase, awaiting the account holder's decision. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    "Referrer-Policy": components["headers"]["NoReferrer"];
                    Vary: components["headers"]["VaryAccept"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PurchaseApproval"];
                    "text/html": components["schemas"]["LinkPage"];
                };
            };
            404: components["responses"]["LinkNotFound"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeadersTooLarge"];
        };
    };
    decidePurchaseApproval: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a write safe to send again when no answer came. Send a value of your own, new
                 *     for each write (a UUID), and send the same value again with the same body when you
                 *     repeat that write: the write happens once.
                 *
                 *     A key belongs to the credential that sent it (the API key, or an account-holder
                 *     link's token) for 24 hours from its first request (root `x-limits`
                 *     `idempotency-key-window`):
                 *     - **The same key with the same body** to the same path gets the first answer again:
                 *       its status, its body byte for byte and its headers (all but `Date` and
                 *       `X-Request-Id`, which are the new request's), with `Idempotent-Replayed: true`.
                 *       Nothing is written again, and no rate limit or budget is charged again.
                 *     - **The same key with another body or another path** answers 422
                 *       `idempotency_key_reused`, and nothing is written.
                 *     - **The same key while its first request is still being processed**, by this or
                 *       another instance of the service, answers 409 `idempotency_key_in_use` with
                 *       `Retry-After: 1`. Send it again after that second.
                 *
                 *     Only final answers are kept: every 2xx, and every 4xx except 401, 408, 409
                 *     `idempotency_key_in_use` and 429. A 5xx or a 429 keeps nothing, so the same key tries
                 *     the write again. Refusals that come before the key is looked up (a missing or unknown
                 *     API key, a missing signup permission, a body over the cap or of another charset) keep
                 *     nothing either. An instance that stops while it processes a request holds that key
                 *     for at most 60 seconds (`idempotency-key-in-flight`); then the key is free again.
                 *
                 *     Keys and kept answers are stored in the service's database, which every instance
                 *     shares, so a key holds across instances; an answer is stored encrypted, and the
                 *     request's body only as a keyed hash to compare with.
                 *
                 *     Every answer to a request that carries a well-formed key carries it back in an
                 *     `Idempotency-Key` header: a deployment whose answers do not is not honouring keys,
                 *     and a write sent to it again may happen twice. The value is 1 to 255 visible ASCII
                 *     characters (`!` to `~`); any other value answers 400 with the operation's validation
                 *     code and nothing is written.
                 * @example 5f0c6d2e-8a4b-4f3e-9d1c-2b7a6e5f4d3c
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PurchaseDecision"];
                "application/x-www-form-urlencoded": components["schemas"]["PurchaseDecision"];
            };
        };
        responses: {
            /** @description The decision took effect; the link is used up. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    "Referrer-Policy": components["headers"]["NoReferrer"];
                    Vary: components["headers"]["VaryAccept"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkDecisionResult"];
                    "text/html": components["schemas"]["LinkPage"];
                };
            };
            /**
             * @description Nothing was decided; the purchase stays pending. The body is not JSON text in
             *     UTF-8 (or nests deeper than 64 levels), not an object, or has no valid `decision` or an `at` other than `declared` or `page`
             *     (`bad_request`); `at: declared` on a hold that does not show `offersDeclared:
             *     true` (`declared_not_offered`); or an `amount_mismatch` hold approved at the
             *     page total (`declared_required`).
             */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    "Referrer-Policy": components["headers"]["NoReferrer"];
                    Vary: components["headers"]["VaryAccept"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code: "bad_request" | "declared_not_offered" | "declared_required";
                    };
                    "text/html": components["schemas"]["LinkPage"];
                };
            };
            404: components["responses"]["LinkNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LinkIdempotencyKeyInUse"];
            413: components["responses"]["LinkDecisionTooLarge"];
            422: components["responses"]["LinkIdempotencyKeyReused"];
            431: components["responses"]["RequestHeadersTooLarge"];
            503: components["responses"]["LinkStorageFull"];
        };
    };
    getSignupApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signup request, awaiting the account holder's decision. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    "Referrer-Policy": components["headers"]["NoReferrer"];
                    Vary: components["headers"]["VaryAccept"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupApproval"];
                    "text/html": components["schemas"]["LinkPage"];
                };
            };
            404: components["responses"]["LinkNotFound"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeadersTooLarge"];
        };
    };
    decideSignupApproval: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a write safe to send again when no answer came. Send a value of your own, new
                 *     for each write (a UUID), and send the same value again with the same body when you
                 *     repeat that write: the write happens once.
                 *
                 *     A key belongs to the credential that sent it (the API key, or an account-holder
                 *     link's token) for 24 hours from its first request (root `x-limits`
                 *     `idempotency-key-window`):
                 *     - **The same key with the same body** to the same path gets the first answer again:
                 *       its status, its body byte for byte and its headers (all but `Date` and
                 *       `X-Request-Id`, which are the new request's), with `Idempotent-Replayed: true`.
                 *       Nothing is written again, and no rate limit or budget is charged again.
                 *     - **The same key with another body or another path** answers 422
                 *       `idempotency_key_reused`, and nothing is written.
                 *     - **The same key while its first request is still being processed**, by this or
                 *       another instance of the service, answers 409 `idempotency_key_in_use` with
                 *       `Retry-After: 1`. Send it again after that second.
                 *
                 *     Only final answers are kept: every 2xx, and every 4xx except 401, 408, 409
                 *     `idempotency_key_in_use` and 429. A 5xx or a 429 keeps nothing, so the same key tries
                 *     the write again. Refusals that come before the key is looked up (a missing or unknown
                 *     API key, a missing signup permission, a body over the cap or of another charset) keep
                 *     nothing either. An instance that stops while it processes a request holds that key
                 *     for at most 60 seconds (`idempotency-key-in-flight`); then the key is free again.
                 *
                 *     Keys and kept answers are stored in the service's database, which every instance
                 *     shares, so a key holds across instances; an answer is stored encrypted, and the
                 *     request's body only as a keyed hash to compare with.
                 *
                 *     Every answer to a request that carries a well-formed key carries it back in an
                 *     `Idempotency-Key` header: a deployment whose answers do not is not honouring keys,
                 *     and a write sent to it again may happen twice. The value is 1 to 255 visible ASCII
                 *     characters (`!` to `~`); any other value answers 400 with the operation's validation
                 *     code and nothing is written.
                 * @example 5f0c6d2e-8a4b-4f3e-9d1c-2b7a6e5f4d3c
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignupDecision"];
                "application/x-www-form-urlencoded": components["schemas"]["SignupDecision"];
            };
        };
        responses: {
            /**
             * @description The decision was applied: the request is `approved` or `denied` (the link is
             *     used up), or still `pending` with `approvalFailure` when an approval check
             *     failed (the link stays usable).
             */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    "Referrer-Policy": components["headers"]["NoReferrer"];
                    Vary: components["headers"]["VaryAccept"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupApproval"];
                    "text/html": components["schemas"]["LinkPage"];
                };
            };
            /**
             * @description The body is not JSON text in UTF-8 (or nests deeper than 64 levels), not an
             *     object, or has no `decision` of `approve` or
             *     `deny`. Nothing was decided; the request stays pending.
             */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    "Referrer-Policy": components["headers"]["NoReferrer"];
                    Vary: components["headers"]["VaryAccept"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @constant */
                        code: "bad_request";
                    };
                    "text/html": components["schemas"]["LinkPage"];
                };
            };
            404: components["responses"]["LinkNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LinkIdempotencyKeyInUse"];
            413: components["responses"]["LinkDecisionTooLarge"];
            422: components["responses"]["LinkIdempotencyKeyReused"];
            431: components["responses"]["RequestHeadersTooLarge"];
            503: components["responses"]["LinkStorageFull"];
        };
    };
    getCvvRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The prompt, opened. Its contents are not specified. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    "Referrer-Policy": components["headers"]["NoReferrer"];
                    Vary: components["headers"]["VaryAccept"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CvvRequest"];
                    "text/html": components["schemas"]["LinkPage"];
                };
            };
            404: components["responses"]["LinkNotFound"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeadersTooLarge"];
            503: components["responses"]["LinkStorageFull"];
        };
    };
    getChallengeRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The token of an account-holder link: the path segment after `/v1/approvals/`,
                 *     `/v1/signup-requests/`, `/v1/cvv-requests/` or `/v1/challenge-requests/`. It is the
                 *     link's only credential, so the whole link is a secret; it works for one kind of link
                 *     only. Its format is not specified: treat it as an opaque string.
                 * @example lnk_Qm9vZ2xlLWlzLW5vdC1hLXRva2VuLWF0LWFsbA
                 */
                token: components["parameters"]["LinkToken"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The handoff, opened. Its contents are not specified. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "Content-Security-Policy": components["headers"]["LinkContentSecurityPolicy"];
                    "X-Content-Type-Options": components["headers"]["NoSniff"];
                    "Referrer-Policy": components["headers"]["NoReferrer"];
                    Vary: components["headers"]["VaryAccept"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChallengeRequest"];
                    "text/html": components["schemas"]["LinkPage"];
                };
            };
            404: components["responses"]["LinkNotFound"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeadersTooLarge"];
            503: components["responses"]["LinkStorageFull"];
        };
    };
    getProxyHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proxy is up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyHealth"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeadersTooLarge"];
        };
    };
    deliverAgentCardEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The delivery's signature: `t=<t>,v1=<signature>`. `t` is the Unix time of the
                 *     delivery in seconds; `signature` is the HMAC-SHA256, in lowercase hex, keyed with the
                 *     UTF-8 bytes of the signing secret of the agent card named in the body's
                 *     `agent_card_id`, over `t`, a period and the raw body. Verify it over
                 *     the raw request bytes, never a re-serialised body, compare in constant time, and refuse
                 *     a `t` far from your own clock (the client's `verifyWebhookRequest` allows 300 seconds
                 *     either way).
                 *
                 *     **Several signatures.** For 24 hours after the account holder rotates the card's
                 *     signing secret (`rotationOverlap`), the secret it replaced stays valid beside the new
                 *     one, and the header carries one `v1` entry per valid secret, the current secret's
                 *     first: `t=<t>,v1=<signature with the new secret>,v1=<signature with the previous>`.
                 *     Every entry signs the same `t` and body. A receiver accepts the delivery when any
                 *     `v1` entry verifies with a secret it holds, so it can change secrets at its own pace
                 *     within the overlap; it ignores entries it cannot verify, and any other `name=value`
                 *     entry it does not know.
                 *
                 *     The header's name, this format, the algorithm, the unit of `t` and the overlap are the
                 *     reference server's choices (the API leaves them open), machine-readable in
                 *     `x-signature-format`; the client reads them from there.
                 * @example t=1764201600,v1=0c5f6bbb5b0ad2b7a2f1b1a3d9e5a0f7c1c8d2e4b6a8f0e2d4c6b8a0f2e4d6c8
                 */
                "Vault-Signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvent"];
            };
        };
        responses: {
            /** @description The delivery is acknowledged. The answer's body is ignored. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Any other answer fails the delivery: a redirect (never followed), any other
             *     status, or no answer in time.
             */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
