import { defineCase, type Case } from '../runner/case.js';
import type { Node } from '../runner/document.js';
import { reference, spec } from '../runner/basis.js';
import { CONTRIBUTES, MATCHING, expectAccepted, listed, lookedUp, pageOf, recipeFor, submit, summary } from './recipe-steps.js';
import { body } from '../runner/by-meaning.js';

/**
 * Sections 2.2 to 2.4, 3 and 4.3: contributing a recipe. Contributions are public and permanent,
 * so these cases run only with --spend. Every contribution claims verification with a note, which
 * the specification says leaves the recipe live at its submitted status whatever screening later
 * finds; screening runs after the 202, so what a contribution changes is polled for.
 */

const ONE = "one of the account's recipe submissions";

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

export function recipeContributionCases(): Case[] {
  return [
    defineCase({
      id: 'submitRecipe/accepted-as-pending',
      title: 'Accepts a recipe with 202 and status pending',
      requirements: ['submit-answer-202-pending', 'submit-bare-or-wrapped', 'submission-starts-pending'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: ONE },
      async run(ctx) {
        const key = await ctx.key('key');
        const contribution = await recipeFor(ctx);
        // The recipe alone, not in the wrapper: section 4.3 takes either.
        const ex = await ctx.call('submitRecipe', { key, json: contribution.recipe });
        expectAccepted(ctx, ex, contribution);
        ctx.expectStatus(ex, 202, spec('submit-answer-202-pending', 'submit-bare-or-wrapped'));
        ctx.expectEqual(body(ex).status, 'pending', 'status', spec('submit-answer-202-pending', 'submission-starts-pending'), ex);
        ctx.check(typeof body(ex).id === 'string', 'a submission id', 'no id', spec('submit-answer-202-pending'), ex);
      },
    }),
    defineCase({
      id: 'submitRecipe/contribution-is-live',
      title: 'Lists a contribution at its submitted status and serves it in lookups',
      requirements: ['claim-leaves-recipe-live', 'submit-claim-waits-for-maintainer', 'index-entry-registry-version', 'lookup-by-url'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: ONE },
      async run(ctx) {
        const key = await ctx.key('key');
        const recipe = await recipeFor(ctx);
        await submit(ctx, key, recipe);
        const entry = await listed(ctx, recipe.key);
        ctx.expectEqual(entry && { key: entry.key, kind: entry.kind, platform: entry.platform, status: entry.status }, { key: recipe.key, kind: 'merchant', platform: 'custom', status: 'partial' }, 'the index entry:', spec('claim-leaves-recipe-live', 'submit-claim-waits-for-maintainer'));
        ctx.expectEqual(entry?.registryVersion, 'submission', 'registryVersion of a contribution:', spec('index-entry-registry-version'));
        const served = pageOf(ctx, recipe);
        // Below the page the recipe names, in the reference's format (`/checkout` covers `/checkout/payment`).
        const deeper = recipe.own ? served : `${served}/payment`;
        const page = await lookedUp(ctx, deeper, (slots) => slots.merchant !== null && slots.merchant !== undefined);
        ctx.expectEqual(summary(page.merchant), { id: recipe.key, kind: 'merchant', platform: 'custom', status: 'partial' }, 'the merchant slot:', spec('lookup-by-url', 'claim-leaves-recipe-live'));
        const query = await lookedUp(ctx, `${deeper}?session=abc#top`, (slots) => slots.merchant !== null);
        ctx.expectEqual(query.merchant?.id, recipe.key, 'the same merchant with a query and fragment (matched on scheme, host and path only):', { ...MATCHING, pointer: '#/components/parameters/RecipeLookupUrl' });
        if (!recipe.own) {
          const cart = await lookedUp(ctx, `https://www.${recipe.key}/cart`, () => true);
          ctx.expectEqual(cart.merchant, null, "no merchant outside the recipe's paths:", { ...MATCHING, pointer: '#/components/schemas/Recipe/properties/match' });
        }
      },
    }),
    defineCase({
      id: 'getRecipes/registrable-domain-host-covers-subdomains',
      title: "Serves a recipe matched on a site's domain on its subdomains",
      sections: ['4.2', '2.3'],
      basis: MATCHING,
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: ONE },
      async run(ctx) {
        const key = await ctx.key('key');
        const site = ctx.site();
        const sample = await ctx.sampleRecipe({ kind: 'merchant', status: 'unverified', site, platform: 'custom' });
        // In the reference's format a recipe names its hosts; one that names the site's domain covers its subdomains.
        const recipe = sample ? { ...sample, own: true } : { recipe: { key: site, kind: 'merchant', status: 'unverified', platform: 'custom', match: { hosts: [site] }, steps: [] }, key: site, own: false };
        await submit(ctx, key, recipe);
        const path = sample?.page ? new URL(sample.page).pathname : '/anything';
        const page = await lookedUp(ctx, `https://shop.${site}${path}`, (slots) => slots.merchant !== null);
        ctx.expectEqual(page.merchant?.id, recipe.key, `the merchant slot on a subdomain of ${site}:`, { ...MATCHING, pointer: '#/components/schemas/Recipe/properties/match' });
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
        await submit(ctx, key, platform);
        const merchant = await recipeFor(ctx, { platform: platform.key });
        await submit(ctx, key, merchant);
        const page = await lookedUp(ctx, pageOf(ctx, merchant), (slots) => slots.platform !== null);
        ctx.expectEqual(summary(page.platform), { id: platform.key, kind: 'platform', status: 'partial' }, 'the platform slot (named by the merchant):', MATCHING);
        ctx.expectEqual(page.merchant?.platform, platform.key, "the merchant summary's platform:", MATCHING);
        const hosted = await lookedUp(ctx, pageOf(ctx, platform), (slots) => slots.platform !== null);
        ctx.expectEqual([hosted.merchant, hosted.platform?.id], [null, platform.key], 'a hosted checkout page: no merchant, the platform:', MATCHING);
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
        await submit(ctx, key, platform);
        const signup = await recipeFor(ctx, { kind: 'signup', status: 'unverified', platform: platform.key });
        await submit(ctx, key, signup);
        const page = await lookedUp(ctx, pageOf(ctx, signup), (slots) => slots.signup !== null && slots.signupPlatform !== null);
        ctx.expectEqual(summary(page.signup), { id: signup.key, kind: 'signup', platform: platform.key, status: 'unverified' }, 'the signup slot:', MATCHING);
        ctx.expectEqual(summary(page.signupPlatform), { id: platform.key, kind: 'signup-platform', status: 'partial' }, 'the signupPlatform slot:', MATCHING);
      },
    }),
    defineCase({
      id: 'submitRecipe/dollar-names-removed',
      title: 'Removes member names starting with $ at every depth',
      requirements: ['submit-dollar-names-removed'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: ONE },
      async run(ctx) {
        const key = await ctx.key('key');
        const contribution = await recipeFor(ctx);
        const sent = contribution.own ? withDollarNames(contribution.recipe) : { ...contribution.recipe, $schema: 'https://example.com/recipe.json', steps: [{ action: 'click', target: 'Pay', $comment: 'a note' }], $id: 'x' };
        const nested = keysWithDollar(sent).filter((at) => at.split('/').length > 2);
        ctx.step(`$ names sent at ${keysWithDollar(sent).join(', ')}`);
        await submit(ctx, key, { ...contribution, recipe: sent });
        const entry = await listed(ctx, contribution.key, { full: true });
        ctx.precondition(entry !== undefined, `the contribution ${contribution.key} in the full bundle`, 'not listed', 'a deployment that lists a contribution at its submitted status (section 3)');
        ctx.expectEqual(keysWithDollar(entry!.recipe), [], 'no $-prefixed member in the published body (found at):', spec('submit-dollar-names-removed'));
        if (!contribution.own) {
          ctx.expectEqual(entry!.recipe.steps, [{ action: 'click', target: 'Pay' }], 'the steps, with their other members kept:', reference("Section 4.3 removes `$` names; that the rest of the body is published as sent is the reference's choice (section 2.2 does not show the body)."));
        } else if (nested.length === 0) ctx.step('the sample has no nested object: $ names tried at the top level only');
      },
    }),
    defineCase({
      id: 'submitRecipe/submitted-verified-is-not-verified',
      title: 'Never serves a contribution as verified before a maintainer does',
      requirements: ['only-maintainers-verify'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "one or two of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const recipe = await recipeFor(ctx, { status: 'verified' });
        const ex = await ctx.call('submitRecipe', { key, json: { recipe: recipe.recipe, note: 'Completed a test checkout with this recipe.', verificationRequested: true } });
        if (ex.response.status >= 400 && ex.response.status <= 499) {
          // Refusing a contributor's `verified` meets section 3 too, when the same recipe at another status is taken.
          const control = await recipeFor(ctx, { status: 'partial' });
          await submit(ctx, key, control);
          ctx.expectError(ex, 'invalid_recipe', spec('only-maintainers-verify'));
          ctx.step('refused a contribution claiming verified; took the same recipe at status partial');
          return;
        }
        expectAccepted(ctx, ex, recipe);
        const entry = await listed(ctx, recipe.key);
        ctx.precondition(entry !== undefined, `the contribution ${recipe.key} in the index`, 'not listed', 'a deployment that lists a contribution at its submitted status (section 3)');
        ctx.check(entry?.status !== 'verified', 'a status other than verified', `status ${entry?.status}`, spec('only-maintainers-verify'));
      },
    }),
    defineCase({
      id: 'submitRecipe/note-published-verbatim',
      title: 'Publishes a verified note verbatim as evidence, cut at the cap',
      requirements: ['submit-note-published-verbatim', 'submit-note-truncated', 'recipe-evidence-from-note'],
      needs: { keys: ['key'], driver: ['decideRecipeSubmission'] },
      costs: { createsData: CONTRIBUTES, spends: "two of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const kept = ctx.limits.value('recipe-note-length');
        const spaced = '  \n Ordered a cable to a saved address; confirmation reached.\n\n  ';
        const first = await recipeFor(ctx);
        const { id } = await submit(ctx, key, first, spaced);
        await ctx.maintainer(id, 'verify');
        const hasEvidence = (e: Node) => typeof e?.recipe?.evidence === 'string';
        ctx.expectEqual((await listed(ctx, first.key, { full: true, until: hasEvidence }))?.recipe?.evidence, spaced, 'evidence, exactly the note:', { ...spec('submit-note-published-verbatim', 'recipe-evidence-from-note'), pointer: '#/components/schemas/Recipe/properties/evidence' });
        const long = `${'é'.repeat(kept - 1)}🛒 and more`;
        const second = await recipeFor(ctx);
        const made = await submit(ctx, key, second, long);
        await ctx.maintainer(made.id, 'verify');
        const evidence = (await listed(ctx, second.key, { full: true, until: hasEvidence }))?.recipe?.evidence as string | undefined;
        ctx.expectEqual(evidence, [...long].slice(0, kept).join(''), `evidence, the note's first ${kept} characters:`, { ...spec('submit-note-truncated'), pointer: ctx.limits.pointer('recipe-note-length') });
      },
    }),
  ];
}
