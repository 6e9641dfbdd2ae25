import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Node } from '../runner/document.js';
import type { Exchange } from '../runner/exchange.js';
import { reference } from '../runner/basis.js';
import { describeResponse } from '../runner/context.js';
import type { LookupSlot, RecipeRequest } from '../drivers/driver.js';
import { expectCacheControl } from './headers.js';

/**
 * Sections 2.2 to 2.4, 4.2 to 4.4 and 8.3: the recipe registry. Reads are public and need nothing;
 * contributions are public and permanent, so the cases that submit run only with --spend. Every
 * contribution claims verification with a note, which the specification says leaves the recipe
 * live at its submitted status (sections 3 and 4.3) whatever screening later finds.
 */

const LOOKUP_SLOTS = ['merchant', 'platform', 'signup', 'signupPlatform'];
export const INDEX_CACHE = 'public, max-age=300';
export const CONTRIBUTES = 'a public recipe contribution, which only a maintainer can remove';

/** The runner writes recipes in the reference's format unless the driver writes the deployment's: another deployment may refuse them as invalid. */
export const FORMAT = reference(
  "Section 2.2 does not show the structure of a recipe body; without the driver's sample recipes the runner submits the reference's, which another deployment may refuse.",
  "give the driver a sampleRecipe that writes recipes in the deployment's own format (drivers/driver.ts)",
);
/** Which pages a recipe serves follows from its body. */
const MATCHING = reference('Which pages a recipe serves follows from its body (`match` hosts and paths), whose structure section 2.2 does not show.');
const UNLISTED = reference('The specification does not say what an unlisted or repeated query parameter does; the document (Query parameters) states the reference\'s reading.');

/** A lookup slot by the members section 2.3 names, whatever else it carries. */
const summary = (slot: Node) => (slot && typeof slot === 'object' ? Object.fromEntries(['id', 'kind', 'platform', 'status'].filter((k) => k in slot).map((k) => [k, slot[k]])) : slot);

export async function recipes(ctx: CaseContext, query?: Record<string, string> | string): Promise<Exchange> {
  const ex = await ctx.call('getRecipes', { query });
  ctx.expectStatus(ex, 200);
  return ex;
}

/** The answer's Cache-Control, compared as a set of directives (section 4.2 states the index's and a lookup's). */
export function expectCache(ctx: CaseContext, ex: Exchange, value: string): void {
  expectCacheControl(ctx, ex, value, '', { sections: ['4.2'] });
}

function expectFourNulls(ctx: CaseContext, ex: Exchange, what: string): void {
  ctx.expectEqual(ex.response.json, Object.fromEntries(LOOKUP_SLOTS.map((s) => [s, null])), `four null slots for ${what}:`, { sections: ['4.2', '2.3'] }, ex);
  expectCache(ctx, ex, 'no-store');
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
    return { recipe: { key: ctx.unique('platform'), kind, status, match: { hosts: [`pay.${site}`] }, steps: [] }, key: '', page: `https://pay.${site}/session`, own: false };
  }
  if (kind === 'signup-platform') return { recipe: { key: `signup:${ctx.unique('auth')}`, kind, status, steps: [] }, key: '', own: false };
  const signup = kind === 'signup';
  const recipe = { key: signup ? `signup:${site}` : site, kind, status, platform: request.platform ?? 'custom', match: { hosts: [`www.${site}`], paths: [signup ? '/join' : '/checkout'] }, steps: [] };
  return { recipe, key: '', page: `https://www.${site}${signup ? '/join' : '/checkout'}`, own: false };
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
  const made = referenceRecipe(ctx, full);
  return { ...made, key: String(made.recipe.key) };
}

/** The case's rule needs the contribution accepted: a refusal ends it `not run` (by the reference's judgement, a refusal of its own format fails). */
export function expectAccepted(ctx: CaseContext, ex: Exchange, contribution: Pick<Contribution, 'own'>, pointer?: string): void {
  const samples = typeof ctx.env.driver?.sampleRecipe === 'function';
  const remedy = contribution.own
    ? "a sample recipe the deployment's registry accepts, from the driver's sampleRecipe"
    : samples
      ? "a registry that takes the reference's recipe format: this case proves the reference's handling of recipes in that format, which no sample can stand in for"
      : FORMAT.kind === 'reference'
        ? FORMAT.remedy!
        : '';
  ctx.precondition(ex.response.status === 202, 'a recipe contribution accepted (202)', () => describeResponse(ex), remedy, ex, contribution.own ? undefined : { basis: FORMAT, pointer });
}

/** A page the contribution serves in lookups: given by the driver's sample, or the reference format's own. */
export function pageOf(ctx: CaseContext, contribution: Contribution): string {
  ctx.precondition(contribution.page !== undefined, `a page the recipe ${contribution.key} serves`, 'a sample without a page', "the driver's sampleRecipe to name a page each recipe serves (`page`)");
  return contribution.page!;
}

export async function submit(ctx: CaseContext, key: string, recipe: Record<string, unknown> | Contribution, note = 'Completed a test checkout with this recipe.'): Promise<{ id: string; exchange: Exchange }> {
  const contribution: Contribution = isContribution(recipe) ? recipe : { recipe, key: String(recipe.key), own: false };
  const ex = await ctx.call('submitRecipe', { key, json: { recipe: contribution.recipe, note, verificationRequested: true } });
  expectAccepted(ctx, ex, contribution);
  ctx.step(`submitted recipe ${contribution.key}`);
  return { id: (ex.response.json as { id: string }).id, exchange: ex };
}

function isContribution(value: Record<string, unknown> | Contribution): value is Contribution {
  return typeof value.own === 'boolean' && typeof value.recipe === 'object' && typeof value.key === 'string';
}

export async function lookup(ctx: CaseContext, url: string): Promise<Record<string, Node>> {
  const ex = await recipes(ctx, { url });
  expectCache(ctx, ex, 'no-store');
  return ex.response.json as Record<string, Node>;
}

/**
 * The release's own recipes among an answer's entries: contributions (`registryVersion`
 * "submission") come and go with the cases running beside the one reading them.
 */
export function releaseEntries(ex: Exchange): Node[] {
  return (ex.response.json as { recipes: Node[] }).recipes.filter((e: Node) => e.registryVersion !== 'submission');
}

export async function indexEntry(ctx: CaseContext, key: string, full = false): Promise<Node | undefined> {
  const ex = await recipes(ctx, full ? { full: '1' } : undefined);
  return (ex.response.json as { recipes: Node[] }).recipes.find((r: Node) => r.key === key);
}

/** A sample with `$` names added at the top and in its first nested object (section 4.3 removes them at every depth). */
function withDollarNames(recipe: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(recipe);
  const nested = (value: unknown): Record<string, unknown> | undefined => {
    if (Array.isArray(value)) return value.map(nested).find(Boolean);
    if (value && typeof value === 'object') return value as Record<string, unknown>;
    return undefined;
  };
  const inner = Object.values(copy).map(nested).find(Boolean);
  if (inner) inner.$comment = 'a note';
  return { ...copy, $schema: 'https://example.com/recipe.json', $id: 'x' };
}

function keysWithDollar(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keysWithDollar(v, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k.startsWith('$') ? [`${at}/${k}`] : keysWithDollar(v, `${at}/${k}`)));
}

function readCases(): Case[] {
  return [
    defineCase({
      id: 'getRecipes/index-without-bodies',
      title: 'Lists the index without bodies, cacheable for five minutes',
      sections: ['4.2', '2.2', '1'],
      needs: {},
      costs: {},
      async run(ctx) {
        const ex = await recipes(ctx);
        expectCache(ctx, ex, INDEX_CACHE);
        const entries = (ex.response.json as { recipes: Node[] }).recipes;
        const withBody = entries.filter((e: Node) => 'recipe' in e).map((e: Node) => e.key);
        ctx.expectEqual(withBody, [], 'no entry with a recipe body without full=1 (keys with one):', { sections: ['2.2'] }, ex);
      },
    }),
    defineCase({
      id: 'getRecipes/full-bundle-with-bodies',
      title: 'Adds every recipe body with full=1, cacheable for five minutes',
      sections: ['4.2', '2.2'],
      needs: {},
      costs: {},
      async run(ctx) {
        const index = await recipes(ctx);
        const ex = await recipes(ctx, { full: '1' });
        expectCache(ctx, ex, INDEX_CACHE);
        const entries = (ex.response.json as { recipes: Node[] }).recipes;
        const withoutBody = entries.filter((e: Node) => typeof e.recipe !== 'object' || e.recipe === null).map((e: Node) => e.key);
        ctx.expectEqual(withoutBody, [], 'a recipe body on every entry with full=1 (keys without one):', { sections: ['2.2'] }, ex);
        const keys = (answer: Exchange) => releaseEntries(answer).map((e: Node) => e.key).sort();
        ctx.expectEqual(keys(ex), keys(index), "the same recipes as the index (the release's):", {}, ex);
      },
    }),
    defineCase({
      id: 'getRecipes/full-other-than-one-is-the-index',
      title: 'Answers the index without bodies for a full value other than 1',
      sections: ['4.2'],
      level: 'should',
      needs: {},
      costs: {},
      async run(ctx) {
        for (const full of ['0', 'true', '']) {
          const ex = await recipes(ctx, { full });
          const withBody = (ex.response.json as { recipes: Node[] }).recipes.filter((e: Node) => 'recipe' in e).length;
          ctx.expectEqual(withBody, 0, `entries with a body for full=${JSON.stringify(full)}:`, {}, ex);
        }
      },
    }),
    defineCase({
      id: 'getRecipes/lookup-has-four-slots',
      title: 'Answers a page with exactly four slots, never cached',
      sections: ['4.2', '2.3'],
      needs: {},
      costs: {},
      async run(ctx) {
        const ex = await recipes(ctx, { url: `https://www.${ctx.site()}/checkout` });
        expectCache(ctx, ex, 'no-store');
        ctx.expectEqual(Object.keys(ex.response.json as object).sort(), [...LOOKUP_SLOTS].sort(), 'the four slots:', {}, ex);
      },
    }),
    defineCase({
      id: 'getRecipes/unparseable-url-four-nulls',
      title: 'Answers four null slots, not an error, for a url that does not parse',
      sections: ['4.2', '2.3'],
      needs: {},
      costs: {},
      async run(ctx) {
        for (const url of ['not a url', '', '::::', 'http://']) expectFourNulls(ctx, await recipes(ctx, { url }), `url=${JSON.stringify(url)}`);
      },
    }),
    defineCase({
      id: 'getRecipes/full-ignored-with-url',
      title: 'Ignores full when url is set',
      sections: ['4.2'],
      needs: {},
      costs: {},
      async run(ctx) {
        const url = `https://www.${ctx.site()}/checkout`;
        const plain = await recipes(ctx, { url });
        const withFull = await recipes(ctx, { url, full: '1' });
        ctx.expectEqual(withFull.response.json, plain.response.json, 'the same lookup with full=1 as without:', {}, withFull);
        expectCache(ctx, withFull, 'no-store');
      },
    }),
    defineCase({
      id: 'getRecipes/read-needs-no-key',
      title: 'Serves recipe reads with no Authorization header',
      sections: ['1', '4.2', '5'],
      needs: {},
      costs: {},
      async run(ctx) {
        const ex = await ctx.call('getRecipes', {});
        ctx.expectStatus(ex, 200, { sections: ['1', '4.2'] });
      },
    }),
    defineCase({
      id: 'getRecipes/unlisted-query-parameters-ignored',
      title: 'Ignores query parameters it does not list',
      sections: ['4.2'],
      basis: UNLISTED,
      needs: {},
      costs: {},
      async run(ctx) {
        const plain = await recipes(ctx);
        const extra = await recipes(ctx, 'page=2&sort=key&foo[]=bar');
        ctx.expectEqual(releaseEntries(extra), releaseEntries(plain), 'the same index (its release recipes) with unlisted parameters as without:', {}, extra);
        expectCache(ctx, extra, INDEX_CACHE);
      },
    }),
    defineCase({
      id: 'getRecipes/repeated-url-reads-empty',
      title: 'Reads a url sent twice as an empty value: four null slots',
      sections: ['4.2'],
      basis: UNLISTED,
      needs: {},
      costs: {},
      async run(ctx) {
        const site = ctx.site();
        expectFourNulls(ctx, await recipes(ctx, `url=https://www.${site}/checkout&url=https://www.${site}/cart`), 'url sent twice');
      },
    }),
    defineCase({
      id: 'getRecipes/lookup-finds-the-registry',
      title: "Fills a slot for a page of one of the registry's own recipes",
      sections: ['4.2', '2.3'],
      basis: MATCHING,
      needs: {},
      costs: {},
      async run(ctx) {
        const given = await ctx.registryPages();
        if (given) {
          const slots = Object.entries(given).filter((e): e is [LookupSlot, string] => typeof e[1] === 'string');
          ctx.precondition(slots.length > 0, 'a page the registry serves, for a lookup slot', 'none from the driver', "the driver's registryPages to name a page for each slot its registry fills");
          for (const [slot, page] of slots) {
            const found = await lookup(ctx, page);
            ctx.check(found[slot] !== null && found[slot] !== undefined, `the ${slot} slot filled for ${page} (the driver names it a page of the registry)`, `${JSON.stringify(found[slot])}`, { sections: ['4.2', '2.3'] });
          }
          return;
        }
        const entries = releaseEntries(await recipes(ctx, { full: '1' }));
        const slotOf: Record<string, string> = { merchant: 'merchant', signup: 'signup', platform: 'platform', 'signup-platform': 'signupPlatform' };
        const served = entries.filter((e: Node) => Array.isArray(e.recipe?.match?.hosts) && e.recipe.match.hosts.length > 0 && slotOf[e.kind]);
        // The pages come from the reference's format (`match`); a registry in another format names its pages through the driver.
        ctx.precondition(served.length > 0, "a page the registry serves, read from the full bundle in the reference's format (`match`)", 'no entry with match hosts', "the driver's registryPages to name a page for each slot its registry fills");
        for (const entry of served.slice(0, 6)) {
          const host = entry.recipe.match.hosts[0] as string;
          const path = (entry.recipe.match.paths?.[0] as string | undefined) ?? '/';
          const found = await lookup(ctx, `https://${host}${path}`);
          const slot = found[slotOf[entry.kind]!];
          ctx.check(slot !== null && slot.kind === entry.kind, `the ${slotOf[entry.kind]} slot filled for https://${host}${path} (recipe ${entry.key} covers it)`, `${JSON.stringify(slot)}`, { pointer: '#/components/schemas/Recipe/properties/match', basis: MATCHING });
        }
      },
    }),
  ];
}

function contributionCases(): Case[] {
  return [
    defineCase({
      id: 'submitRecipe/accepted-as-pending',
      title: 'Accepts a recipe with 202 and status pending',
      sections: ['4.3', '2.4', '3'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const contribution = await recipeFor(ctx);
        const ex = await ctx.call('submitRecipe', { key, json: contribution.recipe });
        expectAccepted(ctx, ex, contribution);
        ctx.expectEqual((ex.response.json as Node).status, 'pending', 'status', {}, ex);
        ctx.check(typeof (ex.response.json as Node).id === 'string', 'a submission id', 'no id', {}, ex);
      },
    }),
    defineCase({
      id: 'submitRecipe/contribution-is-live',
      title: 'Lists a contribution as a submission and serves it in lookups',
      sections: ['4.3', '2.2', '2.3', '3'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const recipe = await recipeFor(ctx);
        await submit(ctx, key, recipe);
        const entry = await indexEntry(ctx, recipe.key);
        ctx.expectEqual(entry && { key: entry.key, kind: entry.kind, platform: entry.platform, status: entry.status, registryVersion: entry.registryVersion },
          { key: recipe.key, kind: 'merchant', platform: 'custom', status: 'partial', registryVersion: 'submission' }, 'the index entry:');
        const served = pageOf(ctx, recipe);
        // Below the page the recipe names, in the reference's format (`/checkout` covers `/checkout/payment`).
        const deeper = recipe.own ? served : `${served}/payment`;
        const page = await lookup(ctx, deeper);
        const at = { pointer: '#/components/schemas/Recipe/properties/match', basis: MATCHING };
        ctx.expectEqual(summary(page.merchant), { id: recipe.key, kind: 'merchant', platform: 'custom', status: 'partial' }, 'the merchant slot:', at);
        const query = await lookup(ctx, `${deeper}?session=abc#top`);
        ctx.expectEqual(query.merchant?.id, recipe.key, 'the same merchant with a query and fragment (matched on scheme, host and path only):', { pointer: '#/components/parameters/RecipeLookupUrl', basis: MATCHING });
        if (!recipe.own) {
          const cart = await lookup(ctx, `https://www.${recipe.key}/cart`);
          ctx.expectEqual(cart.merchant, null, 'no merchant outside the recipe\'s paths:', at);
        }
      },
    }),
    defineCase({
      id: 'getRecipes/registrable-domain-host-covers-subdomains',
      title: "Serves a recipe matched on a site's domain on its subdomains",
      sections: ['4.2', '2.3'],
      basis: MATCHING,
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const site = ctx.site();
        await submit(ctx, key, { key: site, kind: 'merchant', status: 'unverified', platform: 'custom', match: { hosts: [site] }, steps: [] });
        const page = await lookup(ctx, `https://shop.${site}/anything`);
        ctx.expectEqual(page.merchant?.id, site, 'the merchant slot on a subdomain:', { pointer: '#/components/schemas/Recipe/properties/match' });
      },
    }),
    defineCase({
      id: 'getRecipes/platform-slot-follows-the-merchant',
      title: 'Fills platform with the platform recipe the merchant names',
      sections: ['4.2', '2.3', '2.2'],
      basis: MATCHING,
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "two of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const platform = await recipeFor(ctx, { kind: 'platform' });
        const platformKey = platform.key;
        await submit(ctx, key, platform);
        const merchant = await recipeFor(ctx, { platform: platformKey });
        await submit(ctx, key, merchant);
        const page = await lookup(ctx, pageOf(ctx, merchant));
        ctx.expectEqual(summary(page.platform), { id: platformKey, kind: 'platform', status: 'partial' }, 'the platform slot (named by the merchant):');
        ctx.expectEqual(page.merchant?.platform, platformKey, "the merchant summary's platform:");
        const hosted = await lookup(ctx, pageOf(ctx, platform));
        ctx.expectEqual([hosted.merchant, hosted.platform?.id], [null, platformKey], 'a hosted checkout page: no merchant, the platform:');
      },
    }),
    defineCase({
      id: 'getRecipes/signup-slots',
      title: 'Fills signup and signupPlatform for a signup recipe',
      sections: ['4.2', '2.3', '2.2'],
      basis: MATCHING,
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "two of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const platform = await recipeFor(ctx, { kind: 'signup-platform' });
        const platformKey = platform.key;
        await submit(ctx, key, platform);
        const signup = await recipeFor(ctx, { kind: 'signup', status: 'unverified', platform: platformKey });
        await submit(ctx, key, signup);
        const page = await lookup(ctx, pageOf(ctx, signup));
        ctx.expectEqual(summary(page.signup), { id: signup.key, kind: 'signup', platform: platformKey, status: 'unverified' }, 'the signup slot:');
        ctx.expectEqual(summary(page.signupPlatform), { id: platformKey, kind: 'signup-platform', status: 'partial' }, 'the signupPlatform slot:');
      },
    }),
    defineCase({
      id: 'submitRecipe/dollar-names-removed',
      title: 'Removes member names starting with $ at every depth',
      sections: ['4.3'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const contribution = await recipeFor(ctx);
        const body = contribution.own ? withDollarNames(contribution.recipe) : { ...contribution.recipe, $schema: 'https://example.com/recipe.json', steps: [{ action: 'click', target: 'Pay', $comment: 'a note' }], $id: 'x' };
        const nested = keysWithDollar(body).filter((at) => at.split('/').length > 2);
        ctx.step(`$ names sent at ${keysWithDollar(body).join(', ')}`);
        await submit(ctx, key, { ...contribution, recipe: body });
        const entry = await indexEntry(ctx, contribution.key, true);
        ctx.check(entry !== undefined, 'the recipe in the full bundle', 'not listed');
        ctx.expectEqual(keysWithDollar(entry.recipe), [], 'no $-prefixed member in the published body (found at):');
        if (!contribution.own) {
          ctx.expectEqual(entry.recipe.steps, [{ action: 'click', target: 'Pay' }], 'the steps, with their other members kept:', { basis: reference('Section 4.3 removes `$` names; that the rest of the body is published as sent is the reference\'s choice (section 2.2 does not show the body).') });
        } else if (nested.length === 0) ctx.step('the sample has no nested object: $ names tried at the top level only');
      },
    }),
    defineCase({
      id: 'submitRecipe/submitted-verified-is-not-verified',
      title: 'Never serves a contribution as verified before a maintainer does',
      sections: ['3', '4.3'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const recipe = await recipeFor(ctx, { status: 'verified' });
        await submit(ctx, key, recipe);
        const entry = await indexEntry(ctx, recipe.key);
        ctx.check(entry?.status !== 'verified', 'a status other than verified', `status ${entry?.status}`);
      },
    }),
    defineCase({
      id: 'submitRecipe/note-published-verbatim',
      title: "Publishes a verified note verbatim as evidence, cut at the cap",
      sections: ['4.3', '8.7', '2.2'],
      needs: { keys: ['key'], driver: ['decideRecipeSubmission'] },
      costs: { createsData: CONTRIBUTES, spends: "two of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const kept = ctx.limits.value('recipe-note-length');
        const spaced = '  \n Ordered a cable to a saved address; confirmation reached.\n\n  ';
        const first = await recipeFor(ctx);
        const { id } = await submit(ctx, key, first, spaced);
        await ctx.maintainer(id, 'verify');
        ctx.expectEqual((await indexEntry(ctx, first.key, true))?.recipe?.evidence, spaced, 'evidence, exactly the note:', { pointer: '#/components/schemas/Recipe/properties/evidence' });
        const long = `${'é'.repeat(kept - 1)}🛒 and more`;
        const second = await recipeFor(ctx);
        const made = await submit(ctx, key, second, long);
        await ctx.maintainer(made.id, 'verify');
        const evidence = (await indexEntry(ctx, second.key, true))?.recipe?.evidence as string | undefined;
        ctx.expectEqual(evidence, [...long].slice(0, kept).join(''), `evidence, the note's first ${kept} characters:`, { pointer: ctx.limits.pointer('recipe-note-length') });
      },
    }),
  ];
}

function refusalCases(): Case[] {
  const invalid = (id: string, title: string, body: () => unknown, raw = false, format = false) =>
    defineCase({
      id: `submitRecipe/${id}`,
      title,
      sections: ['4.3', '7.1'],
      ...(format ? { basis: reference('What makes a recipe body invalid follows from its structure, which section 2.2 does not show; these are the reference\'s rules (RecipeKindRules).') } : {}),
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        const key = await ctx.key('key');
        const value = body();
        const ex = await ctx.call('submitRecipe', { key, ...(raw ? { body: value as string } : { json: value }) });
        ctx.expectError(ex, 'invalid_recipe');
        const errors = (ex.response.json as { errors?: unknown }).errors;
        ctx.check(Array.isArray(errors) && errors.length > 0, 'the problems listed in errors', `errors ${JSON.stringify(errors)}`, { sections: ['4.3'] }, ex);
      },
    });
  return [
    invalid('not-json', 'Refuses a body that is not JSON as invalid_recipe', () => '{"key": "acme.com", "kind": ', true),
    invalid('missing-kind', 'Refuses a recipe without kind, listing the problem', () => ({ key: 'cf-missing-kind.com', status: 'partial' }), false, true),
    invalid('signup-kind-without-prefix', 'Refuses a signup recipe whose key lacks signup:', () => ({ key: 'cf-signup.com', kind: 'signup', status: 'partial' }), false, true),
    invalid('platform-kind-names-a-platform', 'Refuses a platform recipe that names a platform', () => ({ key: 'cf-platform', kind: 'platform', status: 'partial', platform: 'other' }), false, true),
    invalid('verification-without-note', 'Refuses a verification claim without a note', () => ({
      recipe: { key: 'cf-claim.com', kind: 'merchant', status: 'partial' },
      verificationRequested: true,
    })),
    invalid('verification-with-empty-note', 'Refuses a verification claim with an empty note', () => ({
      recipe: { key: 'cf-claim.com', kind: 'merchant', status: 'partial' },
      note: '',
      verificationRequested: true,
    })),
    defineCase({
      id: 'submitRecipe/body-over-cap-refused',
      title: 'Refuses a body one byte over 64 KB with 413, chunked or not',
      sections: ['4.3', '8.7', '7.1'],
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        const key = await ctx.key('key');
        const cap = ctx.limits.value('recipe-submission-body');
        for (const chunked of [false, true]) {
          const ex = await ctx.call('submitRecipe', { key, body: padded(merchantRecipe(ctx), cap + 1), chunked });
          ctx.expectError(ex, 'invalid_recipe', { status: 413, pointer: ctx.limits.pointer('recipe-submission-body') });
        }
      },
    }),
    defineCase({
      id: 'submitRecipe/body-at-cap-accepted',
      title: 'Accepts a body of exactly 64 KB, chunked or not',
      sections: ['4.3', '8.7'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "two of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const cap = ctx.limits.value('recipe-submission-body');
        for (const chunked of [false, true]) {
          const contribution = await recipeFor(ctx);
          const ex = await ctx.call('submitRecipe', { key, body: padded(contribution.recipe, cap), chunked });
          ctx.check(ex.response.status !== 413, `a body of exactly ${cap} bytes taken in (not 413)`, `${ex.response.status}`, { pointer: ctx.limits.pointer('recipe-submission-body') }, ex);
          expectAccepted(ctx, ex, contribution, ctx.limits.pointer('recipe-submission-body'));
        }
      },
    }),
  ];
}

/** The recipe as JSON, padded with trailing whitespace (still the same JSON) to exactly `bytes`. */
function padded(recipe: unknown, bytes: number): Buffer {
  const text = JSON.stringify(recipe);
  return Buffer.from(text + ' '.repeat(bytes - Buffer.byteLength(text)));
}

function submissionCases(): Case[] {
  return [
    defineCase({
      id: 'getRecipeSubmission/own-submission',
      title: "Shows a submission to its own account; empty verdict while pending",
      sections: ['4.4', '2.4'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const recipe = await recipeFor(ctx);
        const { id } = await submit(ctx, key, recipe);
        const ex = await ctx.call('getRecipeSubmission', { key, params: { id } });
        ctx.expectStatus(ex, 200);
        const body = ex.response.json as Node;
        ctx.expectEqual([body.id, body.key], [id, recipe.key], 'the id and key:', {}, ex);
        if (body.status === 'pending') ctx.expectEqual(body.verdict, [], 'an empty verdict while pending:', { sections: ['2.4'] }, ex);
      },
    }),
    defineCase({
      id: 'getRecipeSubmission/other-account-not-found',
      title: "Answers 404 for another account's submission",
      sections: ['4.4', '5'],
      needs: { keys: ['key', 'otherAccountKey'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const { id } = await submit(ctx, await ctx.key('key'), await recipeFor(ctx));
        ctx.expectError(await ctx.call('getRecipeSubmission', { key: await ctx.key('otherAccountKey'), params: { id } }), 'not_found');
      },
    }),
    defineCase({
      id: 'getRecipeSubmission/unknown-id-not-found',
      title: 'Answers 404 not_found for an unknown submission id',
      sections: ['4.4', '7.1'],
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        ctx.expectError(await ctx.call('getRecipeSubmission', { key: await ctx.key('key'), params: { id: `sub_${ctx.unique()}` } }), 'not_found');
      },
    }),
  ];
}

function budgetCases(): Case[] {
  const BUDGET = 'recipe-submissions-per-account';
  return [
    defineCase({
      id: 'submitRecipe/budget-per-account',
      title: "Refuses the submission after the account's budget, recording nothing",
      sections: ['8.3', '4.3', '9'],
      needs: { driver: true },
      costs: { createsData: CONTRIBUTES, spends: "an account's recipe submissions for 24 hours" },
      async run(ctx) {
        const account = await ctx.account();
        const keys = [(await account.issueKey()).key, (await account.issueKey()).key];
        const budget = ctx.limits.value(BUDGET);
        for (let i = 0; i < budget; i++) {
          const contribution = await recipeFor(ctx);
          const ex = await ctx.call('submitRecipe', { key: keys[i % 2]!, json: contribution.recipe });
          if (i === 0) expectAccepted(ctx, ex, contribution);
          ctx.expectStatus(ex, 202, { pointer: ctx.limits.pointer(BUDGET) });
        }
        ctx.step(`${budget} submissions accepted from two keys of one account`);
        const refused = await recipeFor(ctx);
        const ex = await ctx.call('submitRecipe', { key: keys[0]!, json: refused.recipe });
        ctx.expectError(ex, 'rate_limited', { pointer: ctx.limits.pointer(BUDGET) });
        ctx.expectEqual(await indexEntry(ctx, refused.key), undefined, 'no index entry for the refused recipe:', { sections: ['8.1'] });
      },
    }),
    defineCase({
      id: 'submitRecipe/budget-window-is-rolling',
      title: 'Frees submissions as they age out of the rolling 24 hours',
      sections: ['8.3', '4.3'],
      needs: { driver: true, manualClock: true },
      costs: { createsData: CONTRIBUTES, spends: "an account's recipe submissions for 24 hours" },
      async run(ctx) {
        const account = await ctx.account();
        const { key } = await account.issueKey();
        const budget = ctx.limits.value(BUDGET);
        const windowMs = ctx.limits.windowMs(BUDGET);
        const early = Math.ceil(budget / 2);
        const send = async (expected: 202 | 'refused') => {
          const ex = await ctx.call('submitRecipe', { key, json: (await recipeFor(ctx)).recipe });
          if (expected === 202) ctx.expectStatus(ex, 202, { pointer: ctx.limits.pointer(BUDGET) });
          else ctx.expectError(ex, 'rate_limited', { pointer: ctx.limits.pointer(BUDGET) });
        };
        const contribution = await recipeFor(ctx);
        const first = await ctx.call('submitRecipe', { key, json: contribution.recipe });
        expectAccepted(ctx, first, contribution);
        for (let i = 1; i < early; i++) await send(202);
        await ctx.clock.advance(windowMs / 2);
        for (let i = early; i < budget; i++) await send(202);
        await send('refused');
        ctx.step(`${early} submissions, then ${budget - early} more half a window later`);
        await ctx.clock.advance(windowMs / 2 - 1000);
        await send('refused');
        // Two seconds on: the first submissions are now more than a window old, the later ones are not.
        await ctx.clock.advance(2000);
        for (let i = 0; i < early; i++) await send(202);
        await send('refused');
      },
    }),
  ];
}

export function recipeCases(): Case[] {
  return [...readCases(), ...contributionCases(), ...refusalCases(), ...submissionCases(), ...budgetCases()];
}
