/**
 * Generated from openapi/extensions/limit.schema.json by the repository's `npm run generate`
 * (openapi-typescript 7.13.0). Do not edit by hand: change the schema and regenerate
 * (`npm run check:generated` fails when this file is stale).
 */

export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * Limit
         * @description One member of the root `x-limits`: a rate limit, budget, ceiling, lifetime, body cap or truncation the HTTP API enforces. The reference server and the conformance runner read their types from this schema (npm run generate).
         */
        Limit: {
            /**
             * @description rate: a count per window; ceiling: a standing count; lifetime: seconds something lives; body: bytes of a request body; truncation: characters kept; range: a length between min and max, value by default; depth: how deep arrays and objects nest in a JSON body; size: bytes of another part of a request; timeout: seconds the server waits for a client.
             * @enum {unknown}
             */
            kind: "rate" | "ceiling" | "lifetime" | "body" | "truncation" | "range" | "depth" | "size" | "timeout";
            /**
             * @description What is counted per; connection is one TCP connection, across the requests it carries.
             * @enum {unknown}
             */
            scope: "key" | "account" | "site" | "login" | "request" | "connection";
            /** @description The figure, where it is the same on every plan. */
            value?: number;
            /** @description The name of the `x-plans` member that gives the figure per plan. */
            plan?: string;
            /** @description Rates: fixed windows are aligned to multiples of seconds since the epoch; rolling is any span of seconds; anchored starts at the first counted event and resets seconds later. */
            window?: {
                /** @enum {unknown} */
                type: "fixed" | "rolling" | "anchored";
                seconds: number;
            };
            /**
             * @description Where the figure is not a count.
             * @enum {unknown}
             */
            unit?: "seconds" | "bytes" | "characters" | "levels";
            /** @description The answer's status when the limit refuses a request; absent when it never refuses (a pre-approval ceiling that falls back to pending, an idle connection closed without an answer). Without code, the answer carries the operation's x-validation-error-code. */
            status?: number;
            /** @description The answer's error code; without status, the internal reason shown only to the account holder. */
            code?: string;
            /** @description Whether the refusal carries Retry-After. */
            retryAfter?: boolean;
            /** @description The figure is a default a deployment may change (section 9 item 4). */
            deploymentSetting?: boolean;
            /** @description Ceilings: a count above which the list is full whatever was added. */
            fullAbove?: number;
            /** @description Ranges: the lower bound, inclusive. */
            min?: number;
            /** @description Ranges: the upper bound, inclusive. */
            max?: number;
            /** @description The sections of the specification that state the limit. */
            sections: string[];
            description: string;
        } & (unknown | unknown);
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;

/** A member of the root `x-limits`, with the id it is keyed by. */
export type LimitDef = components['schemas']['Limit'] & { id: string };
