import { defineCase, type Case } from '../runner/case.js';
import type { Node } from '../runner/document.js';
import type { Exchange } from '../runner/exchange.js';
import { reference, spec } from '../runner/basis.js';
import type { LookupSlot } from '../drivers/driver.js';
import { INDEX_CACHE, LOOKUP_SLOTS, MATCHING, expectCache, indexEntries, lookup, recipes, releaseEntries } from './recipe-steps.js';
import { body } from '../runner/by-meaning.js';

/** Sections 2.2, 2.3 and 4.2: reading the recipe registry, which needs no key and no driver. */

const UNLISTED = reference("The specification does not say what an unlisted or repeated query parameter does; the document (Query parameters) states the reference's reading.");

function expectFourNulls(ctx: Parameters<Case['run']>[0], ex: Exchange, what: string): void {
  ctx.expectEqual(ex.response.json, Object.fromEntries(LOOKUP_SLOTS.map((s) => [s, null])), `four null slots for ${what}:`, spec('lookup-unparseable-four-nulls', 'lookup-four-slots'), ex);
  expectCache(ctx, ex, 'no-store');
}

export function recipeReadCases(): Case[] {
  return [
    defineCase({
      id: 'getRecipes/index-without-bodies',
      title: 'Lists the index without bodies, cacheable for five minutes',
      requirements: ['recipes-index', 'index-entry-recipe-only-with-full', 'recipes-index-cacheable', 'index-signup-key-prefix'],
      needs: {},
      costs: {},
      async run(ctx) {
        const ex = await recipes(ctx);
        expectCache(ctx, ex, INDEX_CACHE);
        ctx.check(Array.isArray(body(ex).recipes), 'the index: an object whose `recipes` lists the entries', () => `members ${Object.keys(body(ex)).join(', ') || '(none)'}`, spec('recipes-index'), ex);
        const withBody = indexEntries(ex).filter((e: Node) => e && typeof e === 'object' && 'recipe' in e).map((e: Node) => e.key);
        ctx.expectEqual(withBody, [], 'no entry with a recipe body without full=1 (keys with one):', spec('index-entry-recipe-only-with-full'), ex);
        const unprefixed = indexEntries(ex).filter((e: Node) => (e?.kind === 'signup' || e?.kind === 'signup-platform') && !String(e.key).startsWith('signup:')).map((e: Node) => e.key);
        ctx.expectEqual(unprefixed, [], 'signup and signup-platform entries whose key does not start with signup: (keys):', spec('index-signup-key-prefix'), ex);
      },
    }),
    defineCase({
      id: 'getRecipes/full-bundle-with-bodies',
      title: 'Adds every recipe body with full=1, cacheable for five minutes',
      requirements: ['recipes-full-bodies', 'index-entry-recipe-only-with-full', 'recipes-index-cacheable'],
      needs: {},
      costs: {},
      async run(ctx) {
        const index = await recipes(ctx);
        const ex = await recipes(ctx, { full: '1' });
        expectCache(ctx, ex, INDEX_CACHE);
        const withoutBody = indexEntries(ex).filter((e: Node) => typeof e?.recipe !== 'object' || e.recipe === null).map((e: Node) => e?.key);
        ctx.expectEqual(withoutBody, [], 'a recipe body on every entry with full=1 (keys without one):', spec('recipes-full-bodies'), ex);
        const keys = (answer: Exchange) => releaseEntries(answer).map((e: Node) => e.key).sort();
        ctx.expectEqual(keys(ex), keys(index), "the same recipes as the index (the release's):", spec('recipes-full-bodies'), ex);
      },
    }),
    defineCase({
      id: 'getRecipes/full-other-than-one-is-the-index',
      title: 'Answers the index without bodies for a full value other than 1',
      sections: ['4.2'],
      basis: reference('Section 4.2 says what full=1 does, and nothing of another value; the reference answers the index without bodies.'),
      level: 'should',
      needs: {},
      costs: {},
      async run(ctx) {
        for (const full of ['0', 'true', '']) {
          const ex = await recipes(ctx, { full });
          const withBody = indexEntries(ex).filter((e: Node) => e && typeof e === 'object' && 'recipe' in e).length;
          ctx.expectEqual(withBody, 0, `entries with a body for full=${JSON.stringify(full)}:`, reference('Section 4.2 says what full=1 does, and nothing of another value; the reference answers the index without bodies.'), ex);
        }
      },
    }),
    defineCase({
      id: 'getRecipes/lookup-has-four-slots',
      title: 'Answers a page with exactly four slots, never cached',
      requirements: ['lookup-by-url', 'lookup-four-slots', 'recipes-lookup-no-store'],
      needs: {},
      costs: {},
      async run(ctx) {
        const ex = await recipes(ctx, { url: `https://www.${ctx.site()}/checkout` });
        expectCache(ctx, ex, 'no-store');
        ctx.expectEqual(Object.keys(body(ex)).sort(), [...LOOKUP_SLOTS].sort(), 'the four slots:', spec('lookup-four-slots'), ex);
      },
    }),
    defineCase({
      id: 'getRecipes/unparseable-url-four-nulls',
      title: 'Answers four null slots, not an error, for a url that does not parse',
      requirements: ['lookup-unparseable-four-nulls', 'recipes-no-errors-of-their-own'],
      needs: {},
      costs: {},
      async run(ctx) {
        for (const url of ['not a url', '', '::::', 'http://']) expectFourNulls(ctx, await recipes(ctx, { url }), `url=${JSON.stringify(url)}`);
      },
    }),
    defineCase({
      id: 'getRecipes/full-ignored-with-url',
      title: 'Ignores full when url is set',
      requirements: ['recipes-full-ignored-with-url'],
      needs: {},
      costs: {},
      async run(ctx) {
        const url = `https://www.${ctx.site()}/checkout`;
        const plain = await recipes(ctx, { url });
        const withFull = await recipes(ctx, { url, full: '1' });
        ctx.expectEqual(withFull.response.json, plain.response.json, 'the same lookup with full=1 as without:', spec('recipes-full-ignored-with-url'), withFull);
        expectCache(ctx, withFull, 'no-store');
      },
    }),
    defineCase({
      id: 'getRecipes/read-needs-no-key',
      title: 'Serves recipe reads with no Authorization header',
      requirements: ['recipe-reads-public', 'recipes-need-no-key', 'version-segment'],
      needs: {},
      costs: {},
      async run(ctx) {
        const ex = await ctx.call('getRecipes', {});
        // The path carries the version segment /v1 (section 9), as every path of the runner does.
        ctx.expectSuccess(ex, spec('recipe-reads-public', 'recipes-need-no-key', 'version-segment'));
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
        ctx.expectEqual(releaseEntries(extra), releaseEntries(plain), 'the same index (its release recipes) with unlisted parameters as without:', UNLISTED, extra);
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
        const ex = await recipes(ctx, `url=https://www.${site}/checkout&url=https://www.${site}/cart`);
        ctx.expectEqual(ex.response.json, Object.fromEntries(LOOKUP_SLOTS.map((s) => [s, null])), 'four null slots for a url sent twice:', UNLISTED, ex);
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
            ctx.check(found[slot] !== null && found[slot] !== undefined, `the ${slot} slot filled for ${page} (the driver names it a page of the registry)`, `${JSON.stringify(found[slot])}`, MATCHING);
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
          ctx.check(slot !== null && slot?.kind === entry.kind, `the ${slotOf[entry.kind]} slot filled for https://${host}${path} (recipe ${entry.key} covers it)`, `${JSON.stringify(slot)}`, { ...MATCHING, pointer: '#/components/schemas/Recipe/properties/match' });
        }
      },
    }),
  ];
}
