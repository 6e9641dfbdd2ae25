/**
 * The back office's request bodies, generated from its bundled document (openapi/back-office.yaml) by the
 * repository's `npm run generate` (openapi-typescript 7.13.0). Do not edit by hand: change the
 * document and regenerate (`npm run check:generated` fails when this file is stale).
 */

export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * AddPreapprovedSitesRequest
         * @description Sites the account holder pastes into the pre-approved signup list, one per line, with
         *     the exact email an agent must file with. Each line is a URL or host, saved as its
         *     registrable domain. A site already on the list keeps its count of pre-approved signups
         *     when saved with the same email; saved with another email, its count starts again.
         */
        AddPreapprovedSitesRequest: {
            /**
             * @description One site per line; blank lines are skipped. At most 100 lines per add (400
             *     `signup_preapproval_too_many`); a line without a registrable domain is 400
             *     `invalid_website`.
             */
            sites: string;
            /** @description The exact email a signup request must carry to be pre-approved; one address of 4 to 254 characters with one `@` and no whitespace. */
            email: string;
        };
        /**
         * AdvanceClockRequest
         * @description How far to move the manual clock forward.
         */
        AdvanceClockRequest: {
            /** @description Milliseconds to add; the clock never moves back. */
            ms: number;
        };
        /**
         * ChangePlanRequest
         * @description The account's new plan. Upgrading raises quotas without resetting any count; existing
         *     agent cards are kept when a plan allows fewer.
         */
        ChangePlanRequest: {
            plan: components["schemas"]["PlanName"];
        };
        /**
         * CreateAccountRequest
         * @description A new account on a plan.
         */
        CreateAccountRequest: {
            plan: components["schemas"]["PlanName"];
            /**
             * @description The account holder's display name.
             * @default Fixture account
             */
            name?: string;
        };
        /**
         * CreateAddressRequest
         * @description A saved address. Fields not given are stored empty (their tokens resolve to
         *     `token_not_found`). Values are sealed at rest and never returned.
         */
        CreateAddressRequest: {
            /**
             * @description 1 to 16 lowercase letters or digits (`address_label_shape`), not a reserved word such
             *     as `card`, `city` or `email` (`address_label_reserved`), unique in the account.
             */
            label: string;
            /** @description Addressee. */
            name?: string | null;
            /** @description First address line. */
            line1?: string | null;
            /** @description Second address line. */
            line2?: string | null;
            /** @description City. */
            city?: string | null;
            /** @description Region or state. */
            region?: string | null;
            /** @description Postal code. */
            postal_code?: string | null;
            /** @description Country. */
            country?: string | null;
            phone?: components["schemas"]["PhoneNumber"];
        };
        /**
         * CreateApiKeyRequest
         * @description A new API key, as the account holder issues it from the dashboard.
         */
        CreateApiKeyRequest: {
            /**
             * @description The key's name; stored trimmed. At most 200 characters after trimming, otherwise
             *     `api_key_label_too_long`.
             */
            name: string;
            /**
             * @description The key's signup permission; off unless granted.
             * @default false
             */
            signup?: boolean;
            scope?: components["schemas"]["KeyScope"];
        };
        /**
         * CreateCardRequest
         * @description A new card. Either `anySite: true` (usable on any site, with an optional private block
         *     list) or `anySite: false` with an allow list of sites. Sites are URLs or hosts with a
         *     registrable domain (`invalid_website` otherwise).
         */
        CreateCardRequest: {
            /** @description The card number, 12 to 19 digits. Sealed at rest and never returned. */
            number: string;
            /** @description `true`: not limited to an allow list. `false`: fills only on the sites of `allow`. */
            anySite: boolean;
            /**
             * @description The allow list; only with `anySite: false`.
             * @default []
             */
            allow?: string[];
            /**
             * @description The private block list (hosts).
             * @default []
             */
            block?: string[];
            /**
             * @description An agent card, whose tokens agents may use. Agent cards count toward the plan's agent-card quota
             *     (`x-plans` `agentCards`: 1 on Free, 5 on Plus, unlimited on Enterprise); beyond it,
             *     403 `plan_quota_reached`.
             * @default false
             */
            agent?: boolean;
            limits?: components["schemas"]["SpendingLimits"];
        };
        /**
         * CreateLoginRequest
         * @description A login saved by the account holder. Its label is derived from the site name
         *     (`acme.co.uk` → `acme`), then `acme2` up to `acme50` on collision. Secrets are sealed at
         *     rest and never returned.
         */
        CreateLoginRequest: {
            /** @description The login's site, a URL or host; stored as its registrable domain (`invalid_website` when it has none). */
            website: string;
            /**
             * @description Additional sign-in sites (URLs or hosts), reduced to distinct hosts. More than 10
             *     hosts is refused with `login_extra_sites_limit` and nothing is saved.
             * @default []
             */
            extraWebsites?: string[];
            /** @description The login's email. */
            email?: string;
            /** @description The login's username; at least 4 characters (`login_username_too_short`). */
            username?: string;
            /** @description The password; at least 4 characters (`login_password_too_short`). */
            password: string;
            /** @description The login's TOTP secret; the catalog then lists a `totp` token. */
            totpSecret?: string;
        };
        /**
         * CreatePurchaseApprovalRequest
         * @description A purchase the proxy holds for the account holder's approval.
         */
        CreatePurchaseApprovalRequest: {
            /**
             * @description Why the purchase is held. `amount_mismatch` (the page total differs from the total
             *     the agent declared) can only be approved at the declared total; other kinds are
             *     free-form (the specification does not list them).
             * @default over_threshold
             */
            kind?: string;
            /**
             * @description Whether the account holder may approve at the declared total (`at: declared`).
             *     Defaults to true for `amount_mismatch`, which must offer it, and false otherwise.
             */
            offersDeclared?: boolean;
            /**
             * @description The total on the checkout page, as the page shows it (`$52.40`, `48,90 EUR`). The
             *     link's page shows it; the JSON answers of the link do not carry it.
             */
            amount?: string;
            /** @description The host of the checkout page (`shop.acme.com`), shown on the link's page. */
            merchant?: string;
            /**
             * @description The total the agent declared for the purchase, shown on the link's page when the
             *     hold offers approval at the declared total (`offersDeclared`).
             */
            declaredTotal?: string;
        };
        /**
         * IdentityFields
         * @description Identity fields to set; fields not named keep their value. A `null` or empty value
         *     clears the field, which is then listed in `missing` and its tokens resolve to
         *     `token_not_found`. Values are sealed at rest and never returned.
         */
        IdentityFields: {
            /** @description First name. */
            first_name?: string | null;
            /** @description Last name. */
            last_name?: string | null;
            /** @description Full name. */
            full_name?: string | null;
            /** @description Email. */
            email?: string | null;
            /** @description Date of birth. */
            date_of_birth?: string | null;
            phone?: components["schemas"]["PhoneNumber"];
        };
        /**
         * KeyScope
         * @description Which logins a key may see: `all`, or a list of login labels (the
         *     key's own list; an empty list sees no login).
         */
        KeyScope: "all" | components["schemas"]["LoginLabel"][];
        /**
         * LoginLabel
         * @description A login's label: lowercase letters and digits, at most 32 characters, derived
         *     from the site name. On collision `<name>2` up to `<name>50` are used.
         */
        LoginLabel: string;
        /**
         * PhoneNumber
         * @description A phone number in international form, `+<country code> <number>` (spaces, dots, dashes
         *     and brackets may separate digits). At least 4 digits after the country code and at
         *     most 15 digits in all, otherwise `phone_shape`. Stored as `+<digits>`; `null` or `""`
         *     clears it.
         */
        PhoneNumber: string | null;
        /**
         * PlanName
         * @description The account's plan. The plan's figures are the main document's `x-plans`.
         * @enum {string}
         */
        PlanName: "Free" | "Plus" | "Enterprise";
        /**
         * RecipeDecisionRequest
         * @description A maintainer's decision on a recipe submission.
         */
        RecipeDecisionRequest: {
            /**
             * @description `merge`: the submission becomes `merged` and its recipe the live version of its key
             *     again, at the status it went live at. `verify`: the same, and the recipe goes live as
             *     `verified` with the submission's note published verbatim as its `evidence` (no
             *     evidence when the submission has no note). `reject`: the submission becomes
             *     `rejected` and its recipe leaves the registry (the key's previous live version, a
             *     release recipe or an older contribution, serves again).
             * @enum {string}
             */
            decision: "merge" | "verify" | "reject";
        };
        /**
         * ReplacePasswordRequest
         * @description The password the account holder saves in place of the login's password.
         */
        ReplacePasswordRequest: {
            /** @description At least 4 characters (`login_password_too_short`). Sealed at rest and never returned. */
            password: string;
        };
        /**
         * ResolveTokenRequest
         * @description A token to check.
         */
        ResolveTokenRequest: {
            /** @description Any string; a token of the catalog or not. */
            token: string;
        };
        /** SetWebhookRequest */
        SetWebhookRequest: {
            /**
             * @description The endpoint: a public `https://` URL of at most 2,048 characters, with no user
             *     name, password or fragment. With the deployment setting
             *     `VAULT_WEBHOOKS_ALLOW_LOOPBACK=1` (on in the `npm start` demo), a receiver on this
             *     machine is accepted too, over `http://` (`http://127.0.0.1:4242/hooks`).
             */
            url: string;
        };
        /**
         * SpendingLimits
         * @description An agent card's spending limits in US dollars. Each is greater than zero,
         *     or blank (`null` or absent) for no limit; zero or a negative value is refused with
         *     `agent_card_cap_not_enforceable`. No starter defaults are applied.
         */
        SpendingLimits: {
            /** @description Per transaction. */
            perTransaction?: number | null;
            /** @description Per day (the dashboard offers it on Plus and Enterprise). */
            perDay?: number | null;
            /** @description Per week. */
            perWeek?: number | null;
            /** @description Per rolling 30 days. */
            per30Days?: number | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
