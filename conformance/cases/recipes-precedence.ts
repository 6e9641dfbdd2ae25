import { defineCase, type Case } from '../runner/case.js';
import { reference } from '../runner/basis.js';
import type { CaseContext } from '../runner/context.js';
import type { Node } from '../runner/document.js';
import { CONTRIBUTES, INDEX_CACHE, expectCache, indexEntry, lookup, merchantRecipe, recipes, submit } from './recipes.js';

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
  const entry = (index.response.json as { recipes: Node[] }).recipes.find((e: Node) => e.key === key);
  return { entry, full: await indexEntry(ctx, key, true), index };
}

export function recipePrecedenceCases(): Case[] {
  return [
    defineCase({
      id: 'submitRecipe/unreviewed-does-not-displace-verified',
      title: "Keeps a verified recipe when a contribution takes its key or host",
      sections: ['3', '4.2', '4.3'],
      basis: PRECEDENCE,
      needs: { keys: ['key'], driver: ['decideRecipeSubmission'] },
      costs: { createsData: CONTRIBUTES, spends: "three of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const verified = merchantRecipe(ctx);
        const site = verified.key;
        const { id } = await submit(ctx, key, verified);
        await ctx.maintainer(id, 'verify');
        const pages = [`https://www.${site}/checkout`, `https://www.${site}/checkout/express`];
        const before = await published(ctx, site);
        ctx.check(before.entry?.status === 'verified', `the case's recipe ${site} listed as verified once a maintainer verified it`, `entry ${JSON.stringify(before.entry)}`);
        const slotsBefore = await Promise.all(pages.map((p) => lookup(ctx, p)));

        // Its key, with other steps; and another key on its host with a longer path, which would win the slot.
        const sameKey = { ...verified, status: 'partial', match: { hosts: [`www.${site}`], paths: ['/checkout/'] }, steps: [{ action: 'goto', path: '/elsewhere' }] };
        await submit(ctx, key, sameKey);
        const otherKey = merchantRecipe(ctx, { match: { hosts: [`www.${site}`], paths: ['/checkout/express'] } });
        const held = await submit(ctx, key, otherKey);

        const after = await published(ctx, site);
        ctx.expectEqual(after.entry, before.entry, `the index entry of ${site} after contributions took its key and host:`);
        ctx.expectEqual(after.full, before.full, `the full bundle's entry of ${site}, body included:`);
        // Caches keep the index for five minutes, so what it lists must not be the contribution's.
        expectCache(ctx, after.index, INDEX_CACHE);
        ctx.expectEqual(await indexEntry(ctx, otherKey.key), undefined, `no index entry for ${otherKey.key}, which lists a host of the verified recipe:`);
        for (const [i, page] of pages.entries()) {
          ctx.expectEqual((await lookup(ctx, page)).merchant, slotsBefore[i]!.merchant, `the merchant slot of ${page}:`);
        }
        ctx.step('the verified recipe kept its key, its body and its pages');

        // Held back, not refused: once a maintainer merges it, it serves.
        await ctx.maintainer(held.id, 'merge');
        const merged = (await lookup(ctx, pages[1]!)).merchant;
        ctx.expectEqual(merged?.id, otherKey.key, `the merchant slot of ${pages[1]} once a maintainer merged ${otherKey.key}:`);
      },
    }),
  ];
}
