import { defineCase, type Case } from '../runner/case.js';
import { reference, spec } from '../runner/basis.js';
import type { CaseContext } from '../runner/context.js';
import type { Node } from '../runner/document.js';
import { codeOf, type Exchange } from '../runner/exchange.js';
import { CONTRIBUTES, indexEntry, listed, recipes, releaseEntries } from './recipe-steps.js';

/**
 * A recipe body is stored and republished to everyone in `full=1`. Section 4.3 removes member
 * names starting with `$` and says nothing of `__proto__`, `constructor` or `prototype`, names
 * that JavaScript gives a meaning to. The reference refuses a body that carries one (400
 * `invalid_recipe`); removing them is as good. What this case holds a deployment to, as the
 * reference's choice, is the outcome: such a name is never republished, and no later answer
 * changes because of the request.
 */

const NAMES = ['__proto__', 'constructor', 'prototype'];
const CANARY = 'polluted';

const NOT_REPUBLISHED = reference(
  'section 4.3 removes only member names starting with $ and does not name __proto__, constructor or prototype; the reference refuses them, so no stored and republished body carries one',
);

function namesAt(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => namesAt(v, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(NAMES.includes(k) ? [`${at}/${k}`] : []), ...namesAt(v, `${at}/${k}`)]);
}

/** The release's own recipes in the full bundle. */
async function releaseRecipes(ctx: CaseContext): Promise<Node[]> {
  return releaseEntries(await recipes(ctx, { full: '1' }));
}

function mentionsCanary(ex: Exchange): boolean {
  return ex.response.text.includes(CANARY);
}

export function storedMemberCases(): Case[] {
  return [
    defineCase({
      id: 'submitRecipe/prototype-member-names-not-republished',
      title: 'Never republishes __proto__, constructor or prototype members',
      sections: ['4.3', '2.2'],
      basis: NOT_REPUBLISHED,
      needs: { keys: ['key'] },
      costs: { createsData: `${CONTRIBUTES}, if the deployment accepts the body`, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const site = ctx.site();
        const before = await releaseRecipes(ctx);
        // Written as text: a JavaScript object literal cannot carry an own __proto__ member.
        const body =
          `{"key":"${site}","kind":"merchant","status":"partial","platform":"custom","match":{"hosts":["www.${site}"],"paths":["/checkout"],"prototype":["www.elsewhere.com"]},` +
          `"__proto__":{"${CANARY}":"yes","status":"verified"},"steps":[{"action":"click","target":"Pay","constructor":{"prototype":{"${CANARY}":"yes"}}}]}`;
        const ex = await ctx.call('submitRecipe', { key, body });
        if (ex.response.status === 400) {
          ctx.expectError(ex, 'invalid_recipe', spec('submit-errors'));
          ctx.step('refused the body with 400 invalid_recipe');
          await ctx.settle();
          ctx.expectEqual(await indexEntry(ctx, site), undefined, `no index entry for the refused ${site}:`, spec('refused-records-nothing'));
        } else {
          ctx.check(ex.response.status === 202, '202, or 400 invalid_recipe', `status ${ex.response.status} ${codeOf(ex.response) ?? ''}`, NOT_REPUBLISHED, ex);
          ctx.step('accepted the body');
          const entry = await listed(ctx, site, { full: true });
          // fail, not check: judged by the specification a check records a deviation and goes on.
          if (!entry) ctx.fail(`the accepted recipe ${site} in the full bundle`, 'not listed', spec('claim-leaves-recipe-live'));
          ctx.expectEqual(namesAt(entry.recipe), [], `no __proto__, constructor or prototype member in the published body (found at):`, NOT_REPUBLISHED);
          ctx.expectEqual(entry.status, 'partial', 'the published status the one sent, not one read through __proto__:', spec('claim-leaves-recipe-live'));
        }
        // No later answer changes: the release's recipes are as they were, and none gained a member.
        ctx.expectEqual(await releaseRecipes(ctx), before, "the release's recipes in the full bundle, before and after:", NOT_REPUBLISHED);
        for (const ex of [await recipes(ctx), await recipes(ctx, { full: '1' }), await recipes(ctx, { url: `https://www.${site}/checkout` })]) {
          ctx.check(!mentionsCanary(ex), `no answer naming "${CANARY}", a member only the refused members carried`, `found in ${ex.request.url}`, NOT_REPUBLISHED, ex);
        }
      },
    }),
  ];
}
