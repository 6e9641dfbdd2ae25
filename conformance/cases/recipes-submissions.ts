import { defineCase, type Case } from '../runner/case.js';
import { spec } from '../runner/basis.js';
import { CONTRIBUTES, expectAccepted, indexEntry, listed, recipeFor, submit } from './recipe-steps.js';
import { body } from '../runner/by-meaning.js';

/** Sections 2.4, 4.4 and 8.3: reading a submission, and the account's submission budget. */

const BUDGET = 'recipe-submissions-per-account';

export function recipeSubmissionCases(): Case[] {
  return [
    defineCase({
      id: 'getRecipeSubmission/own-submission',
      title: 'Shows a submission to its own account; empty verdict while pending',
      requirements: ['submission-answer-200', 'submission-fields', 'submission-key', 'submission-verdict-empty-while-pending'],
      needs: { keys: ['key'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const recipe = await recipeFor(ctx);
        const { id } = await submit(ctx, key, recipe);
        const ex = await ctx.call('getRecipeSubmission', { key, params: { id } });
        ctx.expectStatus(ex, 200, spec('submission-answer-200'));
        const submission = body(ex);
        ctx.expectEqual([submission.id, submission.key], [id, recipe.key], 'the id and key:', spec('submission-fields', 'submission-key'), ex);
        if (submission.status === 'pending') ctx.expectEqual(submission.verdict, [], 'an empty verdict while pending:', spec('submission-verdict-empty-while-pending'), ex);
        else ctx.step(`already ${String(submission.status)} when read: the pending verdict was not seen`);
      },
    }),
    defineCase({
      id: 'getRecipeSubmission/other-account-not-found',
      title: "Answers 404 for another account's submission",
      requirements: ['submission-own-account-only', 'keys-belong-to-an-account'],
      needs: { keys: ['key', 'otherAccountKey'] },
      costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" },
      async run(ctx) {
        const key = await ctx.key('key');
        const { id } = await submit(ctx, key, await recipeFor(ctx));
        // The control: the submission is there, for its own account.
        ctx.expectStatus(await ctx.call('getRecipeSubmission', { key, params: { id } }), 200, spec('submission-answer-200'));
        ctx.expectError(await ctx.call('getRecipeSubmission', { key: await ctx.key('otherAccountKey'), params: { id } }), 'not_found', spec('submission-own-account-only', 'keys-belong-to-an-account'));
      },
    }),
    defineCase({
      id: 'getRecipeSubmission/unknown-id-not-found',
      title: 'Answers 404 not_found for an unknown submission id',
      requirements: ['submission-errors'],
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        ctx.expectError(await ctx.call('getRecipeSubmission', { key: await ctx.key('key'), params: { id: `sub_${ctx.unique()}` } }), 'not_found', spec('submission-errors'));
      },
    }),
    defineCase({
      id: 'submitRecipe/budget-per-account',
      title: "Refuses the submission after the account's budget, recording nothing",
      requirements: ['recipe-budget', 'account-budgets-shared', 'refused-records-nothing'],
      needs: { driver: true },
      costs: { createsData: CONTRIBUTES, spends: "an account's recipe submissions for 24 hours" },
      async run(ctx) {
        const account = await ctx.account();
        const keys = [(await account.issueKey()).key, (await account.issueKey()).key];
        const budget = ctx.limits.value(BUDGET);
        const rule = { ...spec('recipe-budget', 'account-budgets-shared'), pointer: ctx.limits.pointer(BUDGET) };
        let last = '';
        for (let i = 0; i < budget; i++) {
          const contribution = await recipeFor(ctx);
          const ex = await ctx.call('submitRecipe', { key: keys[i % 2]!, json: contribution.recipe });
          if (i === 0) expectAccepted(ctx, ex, contribution);
          ctx.expectStatus(ex, 202, rule);
          last = contribution.key;
        }
        ctx.step(`${budget} submissions accepted from two keys of one account`);
        // How long an accepted contribution takes to show: the refused one's absence is judged after as long.
        await listed(ctx, last);
        const refused = await recipeFor(ctx);
        const ex = await ctx.call('submitRecipe', { key: keys[0]!, json: refused.recipe });
        ctx.expectError(ex, 'rate_limited', rule);
        await ctx.settle();
        ctx.expectEqual(await indexEntry(ctx, refused.key), undefined, 'no index entry for the refused recipe:', spec('refused-records-nothing'));
      },
    }),
    defineCase({
      id: 'submitRecipe/budget-window-is-rolling',
      title: 'Frees submissions as they age out of the rolling 24 hours',
      requirements: ['recipe-budget'],
      needs: { driver: true, manualClock: true },
      costs: { createsData: CONTRIBUTES, spends: "an account's recipe submissions for 24 hours" },
      async run(ctx) {
        const account = await ctx.account();
        const { key } = await account.issueKey();
        const budget = ctx.limits.value(BUDGET);
        const windowMs = ctx.limits.windowMs(BUDGET);
        const early = Math.ceil(budget / 2);
        const rule = { ...spec('recipe-budget'), pointer: ctx.limits.pointer(BUDGET) };
        const send = async (expected: 202 | 'refused') => {
          const ex = await ctx.call('submitRecipe', { key, json: (await recipeFor(ctx)).recipe });
          if (expected === 202) ctx.expectStatus(ex, 202, rule);
          else ctx.expectError(ex, 'rate_limited', rule);
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
