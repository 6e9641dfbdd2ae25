import type { Contract } from '../contract.js';
import type * as store from '../store/recipes.js';
import { ApiError } from './errors.js';
import { registrableDomain } from './sites.js';
import {
  CUSTOM_PLATFORM,
  SIGNUP_PREFIX,
  dedupeProblems,
  isObject,
  normalizeHost,
  platformKindFor,
  recipeProblems,
  schemaValidator,
  type Problem,
  type Recipe,
} from './registry.js';
import { liveBody, type LiveSet } from './served-recipes.js';

/**
 * Submissions to the registry (docs/recipes.md, "Contributions"): how a body is read and what
 * makes it invalid, and the screening rules with their fixed verdict texts.
 */

/** Screening findings and maintainer decisions: fixed texts, the only words a verdict holds. */
export const VERDICT = {
  wellFormed: 'Recipe body is well formed.',
  hostsOnSite: "Match hosts belong to the recipe key's site.",
  hostOffSite: "A match host is outside the recipe key's site.",
  keyNotSite: 'The recipe key does not name a site, so its match hosts cannot be checked against it.',
  noMatch: 'The recipe has no match, so no page lookup returns it; it is listed in the index only.',
  unknownPlatform: 'The recipe names a platform recipe that the registry does not have.',
  kindChanged: 'The recipe key belongs to a recipe of another kind.',
  coversVerified: 'The recipe covers a host or key that a verified recipe already serves.',
  verificationClaimed: 'Verification claimed; a maintainer reviews the note before setting verified.',
  verifiedDowngraded: 'Submitted as verified; live as unverified, since only a maintainer sets verified.',
  evidenceNotPublished: 'The evidence member of the recipe is not published; only a maintainer publishes evidence, from the note.',
  deadEndWithoutNote: 'A dead-end recipe needs a note saying what blocked the checkout or signup.',
  merged: 'A maintainer merged the recipe.',
  verified: 'A maintainer verified the recipe and published its note as evidence.',
  verifiedWithoutNote: 'A maintainer verified the recipe.',
  rejected: 'A maintainer rejected the recipe.',
} as const;

export type Outcome = 'approved' | 'needs_human' | 'rejected';
const SEVERITY: Record<Outcome, number> = { approved: 0, needs_human: 1, rejected: 2 };

/**
 * The body of POST /v1/recipes: the recipe, the note (truncated to the document's length) and
 * the claim, with every problem of the body (submissionProblems).
 */
export function readSubmission(
  contract: Contract,
  body: unknown,
): { recipe: Recipe; note: string | null; verificationRequested: boolean; problems: Problem[] } {
  const { wrapped, problems } = formOf(contract, body);
  const b = body as { recipe: Recipe; note?: string; verificationRequested?: boolean };
  const recipe = wrapped ? b.recipe : (body as Recipe);
  const note = wrapped && typeof b.note === 'string' ? truncate(b.note, contract.limit('recipe-note-length').value!) : null;
  return { recipe, note, verificationRequested: wrapped && b.verificationRequested === true, problems };
}

/** 400 `invalid_recipe`: every problem in `errors`, and the same problems as one sentence in `error`. */
export function invalidRecipe(problems: Problem[]): ApiError {
  const listed = problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ');
  return new ApiError(400, 'invalid_recipe', `The recipe failed validation: ${listed}.`, { errors: problems });
}

/**
 * Every problem of a submission body, as `errors` of a 400 `invalid_recipe` lists them: the
 * document's schema problems of the form the body is read as, then the server's own checks
 * (registry.ts recipeProblems, and a claim's note). Exported so that the error handler can list
 * the same problems for a body the request validator refused.
 */
export function submissionProblems(contract: Contract, body: unknown): Problem[] {
  return formOf(contract, body).problems;
}

/**
 * The form of a submission: the wrapper when the body matches the wrapper schema (the document
 * reads a body that matches both as the wrapper), the recipe alone when it matches that; when it
 * matches neither, the form it was meant as (the wrapper when it has a `recipe` member).
 */
function formOf(contract: Contract, body: unknown): { wrapped: boolean; problems: Problem[] } {
  const asWrapper = schemaValidator(contract, 'RecipeSubmissionWrapper')(body);
  const asRecipe = asWrapper.length === 0 ? [] : schemaValidator(contract, 'Recipe')(body);
  const b = (isObject(body) ? body : {}) as { recipe?: unknown; note?: unknown; verificationRequested?: unknown };
  const wrapped = asWrapper.length === 0 || (asRecipe.length > 0 && 'recipe' in b);
  const problems = wrapped ? asWrapper : asRecipe;
  const recipe = wrapped ? b.recipe : body;
  // The server's own check, where the schema has not already found a problem at the same place.
  const seen = new Set(problems.map((p) => p.path));
  if (isObject(recipe)) problems.push(...recipeProblems(recipe as Recipe, wrapped ? '/recipe' : '').filter((p) => !seen.has(p.path)));
  // A claim's note that is missing, empty or blank fails three rules of the schema, each with the
  // document's one message for it at /note: listed once.
  return { wrapped, problems: dedupeProblems(problems) };
}

/** Cuts after `max` characters (code points, so a character is never split in two). */
function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/**
 * The screening rules (docs/recipes.md, "Screening"). Each rule adds a fixed text; the outcome is
 * the most severe of the rules that fired: rejected, then needs_human, else approved.
 */
export function screenSubmission(row: store.SubmissionRow, live: LiveSet): { outcome: Outcome; verdict: string[] } {
  const body = JSON.parse(row.body) as Recipe;
  const recipe = liveBody(row.body, row.live_status, row.evidence);
  const findings: [Outcome, string][] = [['approved', VERDICT.wellFormed]];

  if (recipe.kind === 'merchant' || recipe.kind === 'signup') {
    const site = recipe.key.startsWith(SIGNUP_PREFIX) ? recipe.key.slice(SIGNUP_PREFIX.length) : recipe.key;
    const siteDomain = normalizeHost(site) ? registrableDomain(site) : null;
    const hosts = recipe.match?.hosts ?? [];
    if (hosts.length === 0) findings.push(['approved', VERDICT.noMatch]);
    else if (!siteDomain) findings.push(['needs_human', VERDICT.keyNotSite]);
    else if (hosts.every((h) => registrableDomain(h) === siteDomain)) findings.push(['approved', VERDICT.hostsOnSite]);
    else findings.push(['needs_human', VERDICT.hostOffSite]);

    if (recipe.platform !== undefined && recipe.platform !== CUSTOM_PLATFORM) {
      const kind = platformKindFor(recipe.kind);
      if (live.get(recipe.platform)?.recipe.kind !== kind) findings.push(['needs_human', VERDICT.unknownPlatform]);
    }
  }

  // The key's release recipe, and its live recipe unless that is this submission.
  const current = live.get(recipe.key);
  const sameKey = [live.release.byKey.get(recipe.key), current?.submissionId === row.id ? undefined : current];
  if (sameKey.some((l) => l !== undefined && l.recipe.kind !== recipe.kind)) findings.push(['needs_human', VERDICT.kindChanged]);

  if (live.displacesVerified(recipe)) findings.push(['needs_human', VERDICT.coversVerified]);

  if (row.verification_requested === 1) findings.push(['needs_human', VERDICT.verificationClaimed]);
  if (body.status === 'verified') findings.push(['approved', VERDICT.verifiedDowngraded]);
  if (body.evidence !== undefined) findings.push(['approved', VERDICT.evidenceNotPublished]);
  if (body.status === 'dead-end' && !row.note?.trim()) findings.push(['rejected', VERDICT.deadEndWithoutNote]);

  const outcome = findings.reduce<Outcome>((worst, [o]) => (SEVERITY[o] > SEVERITY[worst] ? o : worst), 'approved');
  return { outcome, verdict: findings.map(([, text]) => text) };
}

