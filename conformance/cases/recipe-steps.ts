import type { CaseContext } from '../runner/context.js';
import type { Node } from '../runner/document.js';
import type { Exchange } from '../runner/exchange.js';
import { reference, spec, type Rule } from '../runner/basis.js';
import { describeResponse } from '../runner/context.js';
import type { RecipeRequest } from '../drivers/driver.js';
import { expectCacheControl } from './headers.js';
import { body, entries } from '../runner/by-meaning.js';

/**
 * What the recipe cases share: reading the registry, contributing to it in the deployment's own
 * format where its driver writes one, and waiting for what screening shows after the 202.
 */

export const LOOKUP_SLOTS = ['merchant', 'platform', 'signup', 'signupPlatform'] as const;
export const INDEX_CACHE = 'public, max-age=300';
export const CONTRIBUTES = 'a public recipe contribution, which only a maintainer can remove';

/** The runner writes recipes in the reference's format unless the driver writes the deployment's: another deployment may refuse them as invalid. */
export const FORMAT = reference(
  "Section 2.2 does not show the structure of a recipe body; without the driver's sample recipes the runner submits the reference's, which another deployment may refuse.",
  "give the driver a sampleRecipe that writes recipes in the deployment's own format (drivers/driver.ts)",
);
/** Which pages a recipe serves follows from its body. */
export const MATCHING = reference('Which pages a recipe serves follows from its body (`match` hosts and paths), whose structure section 2.2 does not show.');

/** A lookup slot by the members section 2.3 names, whatever else it carries. */
export const summary = (slot: Node) => (slot && typeof slot === 'object' ? Object.fromEntries(['id', 'kind', 'platform', 'status'].filter((k) => k in slot).map((k) => [k, slot[k]])) : slot);

/** GET /v1/recipes, expected to succeed (section 4.2 has no refusal of its own). */
export async function recipes(ctx: CaseContext, query?: Record<string, string> | string): Promise<Exchange> {
  const ex = await ctx.call('getRecipes', { query });
  ctx.expectSuccess(ex, spec('recipes-no-errors-of-their-own'), { status: 200, basis: reference('Section 4.2 gives no status for its answers: any success conforms. The reference answers 200.') });
  return ex;
}

/** The entries of an index or bundle answer. */
export function indexEntries(ex: Exchange): Node[] {
  return entries(body(ex).recipes);
}

/** The answer's Cache-Control holds `value` (section 4.2 states the index's and a lookup's). */
export function expectCache(ctx: CaseContext, ex: Exchange, value: string): void {
  expectCacheControl(ctx, ex, value, '', value === 'no-store' ? spec('recipes-lookup-no-store') : spec('recipes-index-cacheable'));
}

export async function lookup(ctx: CaseContext, url: string): Promise<Record<string, Node>> {
  const ex = await recipes(ctx, { url });
  expectCache(ctx, ex, 'no-store');
  return body(ex);
}

/**
 * The release's own recipes among an answer's entries: contributions (`registryVersion`
 * "submission") come and go with the cases running beside the one reading them.
 */
export function releaseEntries(ex: Exchange): Node[] {
  return indexEntries(ex).filter((e: Node) => e?.registryVersion !== 'submission');
}

/** The entry of `key` in the index (or the full bundle), read once. */
export async function indexEntry(ctx: CaseContext, key: string, full = false): Promise<Node | undefined> {
  return indexEntries(await recipes(ctx, full ? { full: '1' } : undefined)).find((r: Node) => r?.key === key);
}

/**
 * The entry of a contribution once it shows, and shows as `until` asks: screening runs after the
 * 202 (section 3), so the index is polled, within the run's settle time.
 */
export async function listed(ctx: CaseContext, key: string, options: { full?: boolean; until?: (entry: Node) => boolean } = {}): Promise<Node | undefined> {
  const until = options.until ?? (() => true);
  return ctx.eventually(`${key} in the ${options.full ? 'full bundle' : 'index'}`, () => indexEntry(ctx, key, options.full), (e) => e !== undefined && until(e));
}

/** A lookup of `url`, polled until `until` holds (a contribution's pages show after screening). */
export async function lookedUp(ctx: CaseContext, url: string, until: (slots: Record<string, Node>) => boolean): Promise<Record<string, Node>> {
  return ctx.eventually(`the lookup of ${url}`, () => lookup(ctx, url), until);
}

/** A merchant recipe of a fresh site in the reference's format: its key is the site, it serves `/checkout` on `www.<site>`. */
export function merchantRecipe(ctx: CaseContext, extra: Record<string, unknown> = {}) {
  const site = ctx.site();
  return { key: site, kind: 'merchant', status: 'partial', platform: 'custom', match: { hosts: [`www.${site}`], paths: ['/checkout'] }, steps: [], ...extra };
}

/** A recipe to contribute: its body, its key, a page it serves, and whether the deployment's driver wrote it. */
export interface Contribution {
  recipe: Record<string, unknown>;
  key: string;
  page?: string;
  /** Written by the driver in the deployment's own format (else the reference's). */
  own: boolean;
}

/** The reference's format of a recipe of each kind, for a fresh site, with the page it serves. */
function referenceRecipe(ctx: CaseContext, request: RecipeRequest): Contribution {
  const { kind, site, status } = request;
  if (kind === 'platform') {
    const key = ctx.unique('platform');
    return { recipe: { key, kind, status, match: { hosts: [`pay.${site}`] }, steps: [] }, key, page: `https://pay.${site}/session`, own: false };
  }
  if (kind === 'signup-platform') {
    const key = `signup:${ctx.unique('auth')}`;
    return { recipe: { key, kind, status, steps: [] }, key, own: false };
  }
  const signup = kind === 'signup';
  const key = signup ? `signup:${site}` : site;
  const recipe = { key, kind, status, platform: request.platform ?? 'custom', match: { hosts: [`www.${site}`], paths: [signup ? '/join' : '/checkout'] }, steps: [] };
  return { recipe, key, page: `https://www.${site}${signup ? '/join' : '/checkout'}`, own: false };
}

/**
 * A recipe of a fresh site: the deployment's own sample when its driver writes one (section 2.2
 * does not show the structure of a recipe body), else the reference's format.
 */
export async function recipeFor(ctx: CaseContext, request: Partial<RecipeRequest> = {}): Promise<Contribution> {
  const full: RecipeRequest = { kind: 'merchant', status: 'partial', site: ctx.site(), ...request };
  if (full.kind === 'merchant' && full.platform === undefined) full.platform = 'custom';
  const sample = await ctx.sampleRecipe(full);
  if (sample) return { ...sample, own: true };
  return referenceRecipe(ctx, full);
}

/** The case's rule needs the contribution accepted: a refusal ends it `not run` (by the reference's judgement, a refusal of its own format fails). */
export function expectAccepted(ctx: CaseContext, ex: Exchange, contribution: Pick<Contribution, 'own'>, pointer?: string): void {
  const samples = typeof ctx.env.driver?.sampleRecipe === 'function';
  const remedy = contribution.own
    ? "a sample recipe the deployment's registry accepts, from the driver's sampleRecipe"
    : samples
      ? "a registry that takes the reference's recipe format: this case proves the reference's handling of recipes in that format, which no sample can stand in for"
      : FORMAT.remedy!;
  ctx.precondition(ex.response.status === 202, 'a recipe contribution accepted (202)', () => describeResponse(ex), remedy, ex, contribution.own ? undefined : { ...FORMAT, pointer });
}

/** A page the contribution serves in lookups: given by the driver's sample, or the reference format's own. */
export function pageOf(ctx: CaseContext, contribution: Contribution): string {
  ctx.precondition(contribution.page !== undefined, `a page the recipe ${contribution.key} serves`, 'a sample without a page', "the driver's sampleRecipe to name a page each recipe serves (`page`)");
  return contribution.page!;
}

export const NOTE = 'Completed a test checkout with this recipe.';

/** Contributes a recipe with a verification claim and its note; expects it accepted, with a submission id. */
export async function submit(ctx: CaseContext, key: string, recipe: Record<string, unknown> | Contribution, note = NOTE): Promise<{ id: string; exchange: Exchange }> {
  const contribution: Contribution = isContribution(recipe) ? recipe : { recipe, key: String(recipe.key), own: false };
  const ex = await ctx.call('submitRecipe', { key, json: { recipe: contribution.recipe, note, verificationRequested: true } });
  expectAccepted(ctx, ex, contribution);
  ctx.expectStatus(ex, 202, spec('submit-answer-202-pending'));
  ctx.step(`submitted recipe ${contribution.key}`);
  const id = body(ex).id;
  ctx.check(typeof id === 'string', 'a submission id', () => `id ${JSON.stringify(id)}`, spec('submit-answer-202-pending'), ex);
  return { id: id as string, exchange: ex };
}

function isContribution(value: Record<string, unknown> | Contribution): value is Contribution {
  return typeof value.own === 'boolean' && typeof value.recipe === 'object' && typeof value.key === 'string';
}

/** The JSON of a value padded with trailing whitespace (still the same JSON) to exactly `bytes`. */
export function padded(value: unknown, bytes: number): Buffer {
  const text = JSON.stringify(value);
  return Buffer.from(text + ' '.repeat(Math.max(0, bytes - Buffer.byteLength(text))));
}

/**
 * The two readings of a size in kilobytes (sections 4.3, 4.5): 1,024 or 1,000 bytes each. A body at
 * the lower is within both; one over the higher is over both.
 */
export function kilobyteReadings(bytes: number): { within: number; over: number } {
  const decimal = (bytes / 1024) * 1000;
  return { within: Math.min(bytes, decimal), over: Math.max(bytes, decimal) + 1 };
}

/** The rule of a contribution refused for its format: a refusal in the reference's format is the reference's to explain. */
export function refusalRule(contribution: Contribution, own: Rule): Rule {
  return contribution.own ? own : { ...FORMAT, pointer: own.pointer };
}
