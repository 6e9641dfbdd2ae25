import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Exchange } from '../runner/exchange.js';
import { reference, spec, type ReferenceBasis, type Rule } from '../runner/basis.js';
import { CONTRIBUTES, FORMAT, NOTE, expectAccepted, kilobyteReadings, padded, recipeFor, type Contribution } from './recipe-steps.js';
import { againstControl } from './refusals.js';
import { body } from '../runner/by-meaning.js';

/**
 * Section 4.3: what a contribution is refused for. Each refusal is proved against a control: the
 * same request without its one flaw, built from the deployment's own sample recipe where the driver
 * writes one, accepted first. Controls are contributions, so these cases run only with --spend.
 */

const REMEDY = "a sample recipe the deployment's registry accepts, from the driver's sampleRecipe";

/** The rules of the reference's recipe format: refusals a deployment with a format of its own need not make. */
const REFERENCE_RULES: ReferenceBasis = reference("What makes a recipe body invalid follows from its structure, which section 2.2 does not show; these are the reference's rules (RecipeKindRules).");

/** A 400 invalid_recipe that lists its problems in `errors`. */
function expectInvalid(ctx: CaseContext, ex: Exchange, rule: Rule): void {
  ctx.expectError(ex, 'invalid_recipe', rule);
  const errors = body(ex).errors;
  ctx.check(Array.isArray(errors) && errors.length > 0, 'the problems listed in errors', `errors ${JSON.stringify(errors)}`, spec('submit-invalid-lists-problems'), ex);
}

async function control(ctx: CaseContext, key: string, contribution: Contribution, json: unknown, what: string): Promise<void> {
  await againstControl(ctx, what, () => ctx.call('submitRecipe', { key, json }), (ex) => ex.response.status === 202, contribution.own ? REMEDY : FORMAT.remedy!);
}

/** A refusal of the reference's format: its control, in that format, may be refused by another deployment, which then departs from the reference. */
function formatRefusal(id: string, title: string, flawed: (ctx: CaseContext) => Record<string, unknown>, fixed: (recipe: Record<string, unknown>) => Record<string, unknown>): Case {
  return defineCase({
    id: `submitRecipe/${id}`,
    title,
    sections: ['4.3'],
    basis: REFERENCE_RULES,
    needs: { keys: ['key'] },
    costs: { createsData: CONTRIBUTES, spends: "two of the account's recipe submissions" },
    async run(ctx) {
      const key = await ctx.key('key');
      const recipe = flawed(ctx);
      ctx.expectStatus(await ctx.call('submitRecipe', { key, json: fixed(recipe) }), 202, FORMAT);
      ctx.step('control accepted: the same recipe without the flaw');
      expectInvalid(ctx, await ctx.call('submitRecipe', { key, json: recipe }), REFERENCE_RULES);
    },
  });
}

function claimWithoutNote(id: string, title: string, note: string | undefined): Case {
  return defineCase({
    id: `submitRecipe/${id}`,
    title,
    requirements: ['submit-claim-needs-note'],
    needs: { keys: ['key'] },
    costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
    async run(ctx) {
      const key = await ctx.key('key');
      const first = await recipeFor(ctx);
      await control(ctx, key, first, { recipe: first.recipe, note: NOTE, verificationRequested: true }, 'a verification claim with a note');
      const second = await recipeFor(ctx);
      const claim = note === undefined ? { recipe: second.recipe, verificationRequested: true } : { recipe: second.recipe, note, verificationRequested: true };
      expectInvalid(ctx, await ctx.call('submitRecipe', { key, json: claim }), spec('submit-claim-needs-note'));
    },
  });
}

export function recipeRefusalCases(): Case[] {
  return [
    defineCase({
      id: 'submitRecipe/not-json',
      title: 'Refuses a body that is not JSON as invalid_recipe',
      requirements: ['submit-not-json-invalid-recipe', 'submit-invalid-lists-problems'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const first = await recipeFor(ctx);
        await control(ctx, key, first, first.recipe, 'the recipe as JSON');
        const text = JSON.stringify((await recipeFor(ctx)).recipe);
        expectInvalid(ctx, await ctx.call('submitRecipe', { key, body: text.slice(0, Math.max(1, text.length - 5)) }), spec('submit-not-json-invalid-recipe'));
      },
    }),
    formatRefusal('missing-kind', 'Refuses a recipe without kind, listing the problem', (ctx) => ({ key: ctx.site(), status: 'partial' }), (r) => ({ ...r, kind: 'merchant', platform: 'custom' })),
    formatRefusal('signup-kind-without-prefix', 'Refuses a signup recipe whose key lacks signup:', (ctx) => ({ key: ctx.site(), kind: 'signup', status: 'partial' }), (r) => ({ ...r, key: `signup:${String(r.key)}` })),
    formatRefusal('platform-kind-names-a-platform', 'Refuses a platform recipe that names a platform', (ctx) => ({ key: ctx.unique('platform'), kind: 'platform', status: 'partial', platform: 'other' }), ({ platform: _, ...r }) => r),
    defineCase({
      id: 'submitRecipe/wrapper-without-recipe',
      title: 'Refuses a wrapper without its recipe',
      requirements: ['submit-wrapper-needs-recipe'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const first = await recipeFor(ctx);
        await control(ctx, key, first, { recipe: first.recipe, note: NOTE }, 'a wrapper with its recipe and a note');
        expectInvalid(ctx, await ctx.call('submitRecipe', { key, json: { note: NOTE, verificationRequested: false } }), spec('submit-wrapper-needs-recipe'));
      },
    }),
    claimWithoutNote('verification-without-note', 'Refuses a verification claim without a note', undefined),
    claimWithoutNote('verification-with-empty-note', 'Refuses a verification claim with an empty note', ''),
    defineCase({
      id: 'submitRecipe/body-over-cap-refused',
      title: 'Refuses a body over 64 KB with 413, chunked or not',
      requirements: ['submit-body-cap', 'http-chunked-request-body'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "two of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const cap = kilobyteReadings(ctx.limits.value('recipe-submission-body'));
        const rule = { ...spec('submit-body-cap'), pointer: ctx.limits.pointer('recipe-submission-body') };
        for (const chunked of [false, true]) {
          const within = await recipeFor(ctx);
          await againstControl(ctx, `a body of ${cap.within} bytes${chunked ? ', chunked' : ''}`, () => ctx.call('submitRecipe', { key, body: padded(within.recipe, cap.within), chunked }), (ex) => ex.response.status === 202, within.own ? REMEDY : FORMAT.remedy!);
          const ex = await ctx.call('submitRecipe', { key, body: padded((await recipeFor(ctx)).recipe, cap.over), chunked });
          ctx.expectError(ex, 'invalid_recipe', { ...rule, status: 413 });
        }
      },
    }),
    defineCase({
      id: 'submitRecipe/body-at-cap-accepted',
      title: 'Accepts a body of 64 KB, chunked or not',
      requirements: ['submit-body-cap', 'http-chunked-request-body'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "four of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const bytes = ctx.limits.value('recipe-submission-body');
        const cap = kilobyteReadings(bytes);
        const rule = { ...spec('submit-body-cap'), pointer: ctx.limits.pointer('recipe-submission-body') };
        for (const chunked of [false, true]) {
          const contribution = await recipeFor(ctx);
          const ex = await ctx.call('submitRecipe', { key, body: padded(contribution.recipe, cap.within), chunked });
          ctx.check(ex.response.status !== 413, `a body of ${cap.within} bytes taken in (64 KB read either way)`, `${ex.response.status}`, rule, ex);
          expectAccepted(ctx, ex, contribution, rule.pointer);
          // 64 KB as 65,536 bytes is the reference's reading; 64,000 is the other.
          const exact = await recipeFor(ctx);
          const atBytes = await ctx.call('submitRecipe', { key, body: padded(exact.recipe, bytes), chunked });
          ctx.check(atBytes.response.status !== 413, `a body of ${bytes} bytes taken in`, `${atBytes.response.status}`, reference('Section 4.3 caps the body at 64 KB, which reads as 65,536 or 64,000 bytes; the reference takes 65,536.'), atBytes);
        }
      },
    }),
  ];
}

