import { createHash } from 'node:crypto';
import { cacheControl, cardTokenNames, headers, laterRetryAfter, linksJsonOnly, openObjects, recipeProblemsAsText, relatedLoginsOtherwise, wording, type Variant } from './variants.js';
import { documentLimit, type Passing, type ProxyOptions } from './tamper.js';
import { OWN_RECIPE_FORMAT } from './recipe-format.js';
import {
  cardTokensListed,
  catalogKeyedByLabel,
  linkDecisions,
  linkRefusals,
  memberCodes,
  missingLabelUnknown,
  ownerManagedAbsent,
  ownRecipeFormat,
  ownTokens,
  perAnswerMembers,
  problemJsonErrors,
  vendorMediaType,
} from './team-choices.js';
import { anchoredCatalogWindows, decimalBodyCaps, lateContributions } from './team-limits.js';

/**
 * Deployments other teams wrote from the specification alone: each differs from the reference
 * wherever the specification leaves a choice, in every class of choice at once, and the two
 * differ from each other too. Each is a proxy in front of a reference server of its own, started
 * with the settings the team chose (`serverEnv`), and the runner is told what the team declares
 * (`runnerArgs`).
 */

/** The second team's recipe format: the same members as the first's, under another tag. */
export const THIRD_RECIPE_FORMAT = 'orbit-recipe/1';

/** Several variants at once: each one's changes in turn, in the order given; one request body rewritten by each in turn. */
function together(name: string, parts: Variant[], more: { options?: ProxyOptions; limits?: string[]; declared?: string[]; runnerArgs?: string[] }): Variant {
  const counts = new Proxy({} as Record<string, number>, {
    get: (_t, key: string) => parts.map((p) => p.counts[key]).find((n) => n !== undefined),
    ownKeys: () => [...new Set(parts.flatMap((p) => Object.keys(p.counts)))],
    getOwnPropertyDescriptor: (_t, key: string) => ({ enumerable: true, configurable: true, value: parts.map((p) => p.counts[key]).find((n) => n !== undefined) }),
  });
  const limits = [...parts.flatMap((p) => (p.serverEnv?.VAULT_LIMITS ? [p.serverEnv.VAULT_LIMITS] : [])), ...(more.limits ?? []), ...(more.declared ?? [])];
  return {
    name,
    allowedBy: parts.map((p) => p.allowedBy).join('; '),
    counts,
    options: more.options,
    serverEnv: limits.length > 0 ? { VAULT_LIMITS: limits.join(',') } : {},
    runnerArgs: [...(more.declared ?? []).flatMap((d) => ['--limit', d]), ...(more.runnerArgs ?? [])],
    behind: (server) => parts.forEach((p) => p.behind?.(server)),
    fault: {
      forward: (head) => parts.reduce((h, p) => p.fault.forward?.({ ...head, headers: h }) ?? h, head.headers),
      request: (seen) => parts.forEach((p) => p.fault.request?.(seen)),
      response: (passing) =>
        parts.reduce<Passing | Promise<Passing>>((out, p) => {
          const change = p.fault.response;
          if (!change) return out;
          return out instanceof Promise ? out.then((o) => change(o)) : change(out);
        }, passing),
      rewrite: (head) => {
        const steps = parts.map((p) => p.fault.rewrite?.(head)).filter((r) => r !== undefined);
        if (steps.length === 0) return undefined;
        return async (body) => {
          let current = body;
          for (const step of steps) {
            const out = await step(current);
            if (!Buffer.isBuffer(out)) return out;
            current = out;
          }
          return current;
        };
      },
    },
  };
}

/** The first team's token format: opaque, and nothing like the reference's. */
const acmeToken = (token: string) => `acme.${Buffer.from(token).toString('base64url')}`;
/** The second team's: a digest of the reference's, the same for the same token. */
const orbitToken = (token: string) => `tok_${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;

/**
 * The first other team: behind an edge that answers an oversized request head itself with an
 * empty 431; errors as problem+json; card tokens as a list; decisions 204, a blocked approval 409;
 * a security-code link of 190 s; contributions shown 250 ms late; `meta` in every answer; catalog
 * windows from the first counted request; `passwordOwnerManaged` left out when false; 5
 * pre-approved signups a day, declared; idle connections closed after 200 ms unannounced; a
 * recipe's format checked before its note; and the choices of the single variants.
 */
export function anotherTeam(): Variant {
  const parts = [
    anchoredCatalogWindows(),
    lateContributions(250),
    ownRecipeFormat(OWN_RECIPE_FORMAT, false),
    linkDecisions(204, 409),
    linkRefusals(410, 'link_used'),
    memberCodes(),
    ownerManagedAbsent(),
    ownTokens(acmeToken, { object: 'catalog', schemaVersion: 2 }),
    cardTokensListed(),
    relatedLoginsOtherwise(),
    recipeProblemsAsText(),
    linksJsonOnly(),
    wording(),
    openObjects(),
    perAnswerMembers('meta'),
    laterRetryAfter(),
    cacheControl(),
    // Last of what reads an error's media type, and the header names last of all.
    problemJsonErrors(),
    headers(),
  ];
  return together('another team: every open choice taken otherwise, behind an edge', parts, {
    options: { edgeHeadCap: documentLimit('request-header-size'), connections: { idleCloseMs: 200 } },
    limits: ['cvv-request-lifetime=190'],
    declared: ['preapproved-signups-per-account=5'],
  });
}

/**
 * The second other team, choosing otherwise in the same classes: every JSON answer of a vendor
 * media type; cards, logins and related logins as objects keyed by label, card tokens under names
 * of its own; decisions 201, a blocked approval 202; a security-code link of 170 s and a
 * challenge handoff of 650 s; contributions shown 800 ms late; `traceId` and `generatedAt` in every
 * answer; body caps of 64,000 and 4,000 bytes; a write without a label is for no login; 30
 * credential changes, 12 submissions and a 3-day change window, declared; each connection closed
 * after its third answer, unannounced, with a Keep-Alive it does not keep; a body's format checked
 * before its JSON.
 */
export function thirdTeam(): Variant {
  const parts = [
    decimalBodyCaps(),
    lateContributions(800),
    ownRecipeFormat(THIRD_RECIPE_FORMAT, true),
    linkDecisions(201, 202),
    linkRefusals(403, 'link_inactive'),
    missingLabelUnknown(),
    ownTokens(orbitToken),
    cardTokenNames(),
    catalogKeyedByLabel(),
    perAnswerMembers('top'),
    vendorMediaType(),
  ];
  return together('a third team: other choices in the same classes', parts, {
    options: { connections: { maxRequests: 3, announce: 2 } },
    limits: ['cvv-request-lifetime=170', 'challenge-request-lifetime=650'],
    declared: ['credential-changes-per-account=30', 'recipe-submissions-per-account=12', 'login-change-window=259200'],
    runnerArgs: ['--driver-option', `format=${THIRD_RECIPE_FORMAT}`],
  });
}
