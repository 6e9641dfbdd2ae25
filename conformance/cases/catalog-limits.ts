import { reference } from '../runner/basis.js';
import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import { PLANS, type PlanName } from '../runner/document.js';
import type { Exchange } from '../runner/exchange.js';
import type { Account } from '../runner/account.js';
import { inOneFixedWindow } from './fixed-window.js';

/**
 * Sections 8.1 and 8.3: catalog requests per key and per account, per fixed minute, by plan. The
 * last allowed request passes, the next is refused with Retry-After, a refused request records
 * nothing, and the window is fixed. Figures come from `x-limits` and `x-plans`.
 */

const PER_KEY = 'catalog-per-key';
const PER_ACCOUNT = 'catalog-per-account';
const BATCH = 25;

/** Sends `count` catalog reads with one key, `BATCH` at a time; every one must be allowed. */
async function spend(ctx: CaseContext, key: string, count: number, what: string): Promise<void> {
  for (let sent = 0; sent < count; sent += BATCH) {
    const batch = await Promise.all(Array.from({ length: Math.min(BATCH, count - sent) }, () => ctx.call('getTokenCatalog', { key })));
    for (const ex of batch) ctx.expectStatus(ex, 200, { pointer: ctx.limits.pointer(what), sections: ['8.1', '8.3'] });
  }
}

/**
 * Runs a boundary check inside one fixed minute of the catalog limits. Each attempt opens its own
 * account: what an attempt across a boundary spent counts in the new minute too.
 */
function inOneWindow(ctx: CaseContext, attempt: () => Promise<unknown>): Promise<void> {
  return inOneFixedWindow(ctx, ctx.limits.windowMs(PER_KEY), attempt);
}

function expectRefused(ctx: CaseContext, ex: Exchange, limit: string): void {
  ctx.expectError(ex, 'rate_limited', { pointer: ctx.limits.pointer(limit), sections: ['8.1', '8.3'] });
}

function withArticle(plan: PlanName): string {
  return /^[AEIOU]/.test(plan) ? `an ${plan}` : `a ${plan}`;
}

async function keys(account: Account, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await account.issueKey()).key);
  return out;
}

function perKey(plan: PlanName): Case {
  return defineCase({
    id: `getTokenCatalog/per-key-limit-${plan.toLowerCase()}`,
    title: `Allows ${withArticle(plan)} key its catalog requests per minute, then 429`,
    sections: ['8.1', '8.3', '4.1'],
    needs: { driver: true },
    costs: { spends: `${withArticle(plan)} account's catalog requests for a minute` },
    async run(ctx) {
      const limit = ctx.limits.value(PER_KEY, plan);
      await inOneWindow(ctx, async () => {
        const [key] = await keys(await ctx.account({ plan }), 1);
        await spend(ctx, key!, limit, PER_KEY);
        expectRefused(ctx, await ctx.call('getTokenCatalog', { key: key! }), PER_KEY);
      });
    },
  });
}

function perAccount(plan: PlanName): Case {
  return defineCase({
    id: `getTokenCatalog/per-account-limit-${plan.toLowerCase()}`,
    title: `Shares ${withArticle(plan)} account's catalog requests among its keys`,
    sections: ['8.1', '8.3', '4.1'],
    needs: { driver: true },
    costs: { spends: `${withArticle(plan)} account's catalog requests for a minute` },
    async run(ctx) {
      const keyLimit = ctx.limits.value(PER_KEY, plan);
      const accountLimit = ctx.limits.value(PER_ACCOUNT, plan);
      await inOneWindow(ctx, async () => {
        const spenders = await keys(await ctx.account({ plan }), Math.ceil(accountLimit / keyLimit) + 1);
        let left = accountLimit;
        for (const key of spenders.slice(0, -1)) {
          await spend(ctx, key, Math.min(keyLimit, left), PER_ACCOUNT);
          left -= Math.min(keyLimit, left);
        }
        expectRefused(ctx, await ctx.call('getTokenCatalog', { key: spenders.at(-1)! }), PER_ACCOUNT);
      });
    },
  });
}

export function catalogLimitCases(): Case[] {
  return [
    ...PLANS.map(perKey),
    ...PLANS.map(perAccount),
    defineCase({
      id: 'getTokenCatalog/refused-request-not-counted',
      title: "Counts no refused request against the account's budget",
      sections: ['8.1', '8.3'],
      needs: { driver: true },
      costs: { spends: "a Free account's catalog requests for a minute" },
      async run(ctx) {
        const keyLimit = ctx.limits.value(PER_KEY, 'Free');
        const accountLimit = ctx.limits.value(PER_ACCOUNT, 'Free');
        await inOneWindow(ctx, async () => {
          const [first, second] = await keys(await ctx.account({ plan: 'Free' }), 2);
          await spend(ctx, first!, keyLimit, PER_KEY);
          for (let i = 0; i < 5; i++) expectRefused(ctx, await ctx.call('getTokenCatalog', { key: first! }), PER_KEY);
          ctx.step(`${keyLimit} allowed and 5 refused on the first key`);
          // Refusals that counted would leave the second key fewer than the account's remainder.
          await spend(ctx, second!, Math.min(keyLimit, accountLimit - keyLimit), PER_ACCOUNT);
        });
      },
    }),
    defineCase({
      id: 'getTokenCatalog/account-refusal-charges-no-key',
      title: "Charges no key's count when the account's limit refuses",
      sections: ['8.1', '8.3'],
      needs: { driver: ['changePlan'] },
      costs: { spends: "a Free account's catalog requests for a minute" },
      async run(ctx) {
        const freeKey = ctx.limits.value(PER_KEY, 'Free');
        const freeAccount = ctx.limits.value(PER_ACCOUNT, 'Free');
        await inOneWindow(ctx, async () => {
          const account = await ctx.account({ plan: 'Free' });
          const spenders = await keys(account, Math.ceil(freeAccount / freeKey));
          const [late] = await keys(account, 1);
          for (const key of spenders) await spend(ctx, key, freeKey, PER_ACCOUNT);
          expectRefused(ctx, await ctx.call('getTokenCatalog', { key: late! }), PER_ACCOUNT);
          await account.changePlan('Plus');
          ctx.step('the account limit refused a fresh key; the account moved to Plus within the minute');
          // Upgrading raises the limits without resetting counts (8.1): the fresh key has its
          // whole Plus allowance only if the refusal charged it nothing.
          const plusKey = ctx.limits.value(PER_KEY, 'Plus');
          await spend(ctx, late!, plusKey, PER_KEY);
          expectRefused(ctx, await ctx.call('getTokenCatalog', { key: late! }), PER_KEY);
        });
      },
    }),
    defineCase({
      id: 'getTokenCatalog/window-resets-at-the-next-minute',
      title: 'Allows requests again when the next fixed minute starts',
      sections: ['8.1', '8.3'],
      needs: { driver: true, manualClock: true },
      costs: { spends: "a Free account's catalog requests for a minute" },
      async run(ctx) {
        const account = await ctx.account({ plan: 'Free' });
        const [key] = await keys(account, 1);
        const windowMs = ctx.limits.windowMs(PER_KEY);
        await ctx.clock.toNextWindow(windowMs / 1000, 20_000);
        await spend(ctx, key!, ctx.limits.value(PER_KEY, 'Free'), PER_KEY);
        const refused = await ctx.call('getTokenCatalog', { key: key! });
        expectRefused(ctx, refused, PER_KEY);
        const now = await ctx.clock.now();
        const untilNext = Math.ceil(((Math.floor(now / windowMs) + 1) * windowMs - now) / 1000);
        // Section 7.1 asks for whole seconds, at least 1 (every response's check); the arithmetic is the reference's.
        ctx.expectEqual(Number(refused.response.headers['retry-after']), untilNext, 'Retry-After, the whole seconds until the window ends:', { basis: reference('Sections 4.1 and 7.1 ask for Retry-After in whole seconds, at least 1; that it counts exactly to the end of the window is the reference\'s choice.') }, refused);
        await ctx.clock.advance(untilNext * 1000 - 1000);
        expectRefused(ctx, await ctx.call('getTokenCatalog', { key: key! }), PER_KEY);
        await ctx.clock.advance(1000);
        ctx.expectStatus(await ctx.call('getTokenCatalog', { key: key! }), 200, { pointer: ctx.limits.pointer(PER_KEY) });
      },
    }),
    defineCase({
      id: 'getTokenCatalog/window-is-fixed-not-sliding',
      title: 'Starts a new allowance at the minute boundary, not a sliding one',
      sections: ['8.1', '8.3'],
      needs: { driver: true, manualClock: true },
      costs: { spends: "a Free account's catalog requests for two minutes" },
      async run(ctx) {
        const account = await ctx.account({ plan: 'Free' });
        const [key] = await keys(account, 1);
        const windowMs = ctx.limits.windowMs(PER_KEY);
        const limit = ctx.limits.value(PER_KEY, 'Free');
        await ctx.clock.toNextWindow(windowMs / 1000, windowMs - 1000);
        await spend(ctx, key!, limit, PER_KEY);
        await ctx.clock.advance(1000);
        ctx.step(`spent ${limit} in the last second of a window, then moved one second into the next`);
        await spend(ctx, key!, limit, PER_KEY);
        expectRefused(ctx, await ctx.call('getTokenCatalog', { key: key! }), PER_KEY);
      },
    }),
  ];
}
