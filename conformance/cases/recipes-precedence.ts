import { defineCase, type Case } from '../runner/case.js';
import { reference } from '../runner/basis.js';
import type { CaseContext } from '../runner/context.js';
import type { Node } from '../runner/document.js';
import { CONTRIBUTES, INDEX_CACHE, expectCache, indexEntries, indexEntry, listed, lookup, lookedUp, merchantRecipe, pageOf, recipeFor, recipes, submit } from './recipe-steps.js';

/**
 * Which recipe serves when an unreviewed contribution would take a verified recipe's place.
 * Sections 3 and 4.3 make a contribution live at its submitted status and let only a maintainer
 * set `verified`; they do not say whether an unreviewed contribution may displace a verified
 * recipe. The reference holds such a contribution back until a maintainer merges it, and this
 * case describes that choice: a deployment that decides otherwise deviates from the reference,
 * not from the specification. The verified recipe is the case's own (a contribution a maintainer
 * verifies), so a deployment that lets contributions displace verified recipes loses nothing of
 * its own registry to this case.
 */

const PRECEDENCE = reference(
  'sections 3 and 4.3 make a contribution live at its submitted status and let only a maintainer set verified; they do not say whether an unreviewed contribution may take a verified recipe\'s place, which the reference holds back until a maintainer merges it',
);

/** The index entry of a key, without and with its body, and the index answer it came in. */
async function published(ctx: CaseContext, key: string) {
  const index = await recipes(ctx);
  const entry = indexEntries(index).find((e: Node) => e?.key === key);
  return { entry, full: await indexEntry(ctx, key, true), index };
}

export function recipePrecedenceCases(): Case[] {
  return [
    defineCase({
      id: 'submitRecipe/unreviewed-does-not-displace-verified',
      title: 'Keeps a verified recipe when a contribution takes its key or host',
      sections: ['3', '4.2', '4.3'],
      basis: PRECEDENCE,
      needs: { keys: ['key'], driver: ['decideRecipeSubmission'] },
      costs: { createsData: CONTRIBUTES, spends: "three of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const site = ctx.site();
        // The deployment's own sample where its driver writes one: the same site, then the same site again at another status.
        const verified = await recipeFor(ctx, { site });
        const { id } = await submit(ctx, key, verified);
        await ctx.maintainer(id, 'verify');
        const page = pageOf(ctx, verified);
        const pages = verified.own ? [page] : [page, `https://www.${site}/checkout/express`];
        const listedVerified = await listed(ctx, verified.key, { until: (e) => e.status === 'verified' });
        ctx.check(listedVerified?.status === 'verified', `the case's recipe ${verified.key} listed as verified once a maintainer verified it`, `entry ${JSON.stringify(listedVerified)}`, PRECEDENCE);
        const before = await published(ctx, verified.key);
        const slotsBefore = await Promise.all(pages.map((p) => lookedUp(ctx, p, (slots) => slots.merchant?.status === 'verified')));

        // Its key, at another status; in the reference's format also other steps, and another key on its host with a longer path, which would win the slot.
        const sameKey = verified.own
          ? await recipeFor(ctx, { site, status: 'partial' })
          : { ...verified, recipe: { ...verified.recipe, status: 'partial', match: { hosts: [`www.${site}`], paths: ['/checkout/'] }, steps: [{ action: 'goto', path: '/elsewhere' }] } };
        ctx.check(sameKey.key === verified.key, `a contribution with the key ${verified.key}`, `key ${sameKey.key}`, PRECEDENCE);
        await submit(ctx, key, sameKey);
        const otherKey = verified.own ? undefined : merchantRecipe(ctx, { match: { hosts: [`www.${site}`], paths: ['/checkout/express'] } });
        const held = otherKey ? await submit(ctx, key, otherKey) : undefined;
        // Whatever screening does with the contributions, it has had the time the verified recipe took to show.
        await ctx.settle();

        const after = await published(ctx, verified.key);
        ctx.expectEqual(after.entry, before.entry, `the index entry of ${verified.key} after contributions took its key${otherKey ? ' and host' : ''}:`, PRECEDENCE);
        ctx.expectEqual(after.full, before.full, `the full bundle's entry of ${verified.key}, body included:`, PRECEDENCE);
        // Caches keep the index for five minutes, so what it lists must not be the contribution's.
        expectCache(ctx, after.index, INDEX_CACHE);
        if (otherKey) ctx.expectEqual(await indexEntry(ctx, otherKey.key), undefined, `no index entry for ${otherKey.key}, which lists a host of the verified recipe:`, PRECEDENCE);
        for (const [i, p] of pages.entries()) {
          ctx.expectEqual((await lookup(ctx, p)).merchant, slotsBefore[i]!.merchant, `the merchant slot of ${p}:`, PRECEDENCE);
        }
        ctx.step('the verified recipe kept its key, its body and its pages');
        if (!otherKey || !held) return;

        // Held back, not refused: once a maintainer merges it, it serves.
        await ctx.maintainer(held.id, 'merge');
        const merged = (await lookedUp(ctx, pages[1]!, (slots) => slots.merchant?.id === otherKey.key)).merchant;
        ctx.expectEqual(merged?.id, otherKey.key, `the merchant slot of ${pages[1]} once a maintainer merged ${otherKey.key}:`, PRECEDENCE);
      },
    }),
  ];
}
