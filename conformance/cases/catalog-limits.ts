import { reference, spec, type Basis } from '../runner/basis.js';
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

/** The requirement of each catalog limit. */
const RULE: Record<string, Basis> = { [PER_KEY]: spec('catalog-per-key-per-minute'), [PER_ACCOUNT]: spec('catalog-per-account-per-minute') };

/** Sends `count` catalog reads with one key, `BATCH` at a time; every one must be allowed, by `rule`. */
async function spend(ctx: CaseContext, key: string, count: number, what: string, rule: Basis = RULE[what]!): Promise<void> {
  for (let sent = 0; sent < count; sent += BATCH) {
    const batch = await Promise.all(Array.from({ length: Math.min(BATCH, count - sent) }, () => ctx.call('getTokenCatalog', { key })));
    for (const ex of batch) ctx.expectStatus(ex, 200, { ...rule, pointer: ctx.limits.pointer(what) });
  }
}

/**
 * Runs a boundary check inside one fixed minute of the catalog limits. Each attempt opens its own
 * account: what an attempt across a boundary spent counts in the new minute too.
 */
function inOneWindow(ctx: CaseContext, attempt: () => Promise<unknown>): Promise<void> {
  return inOneFixedWindow(ctx, ctx.limits.windowMs(PER_KEY), attempt);
}

function expectRefused(ctx: CaseContext, ex: Exchange, limit: string, rule: Basis = RULE[limit]!): void {
  ctx.expectError(ex, 'rate_limited', { ...rule, pointer: ctx.limits.pointer(limit) });
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
    requirements: ['catalog-per-key-per-minute', 'tokens-rate-limited-retry-after'],
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
    requirements: ['catalog-per-account-per-minute', 'account-budgets-shared'],
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
      requirements: ['refused-records-nothing'],
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
          await spend(ctx, second!, Math.min(keyLimit, accountLimit - keyLimit), PER_ACCOUNT, spec('refused-records-nothing'));
        });
      },
    }),
    defineCase({
      id: 'getTokenCatalog/account-refusal-charges-no-key',
      title: "Charges no key's count when the account's limit refuses",
      requirements: ['refused-records-nothing'],
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
          // The fresh key has its whole Plus allowance only if the refusal charged it nothing
          // (whether the upgrade keeps the counts or resets them, the key was charged nothing else).
          const plusKey = ctx.limits.value(PER_KEY, 'Plus');
          await spend(ctx, late!, plusKey, PER_KEY, spec('refused-records-nothing'));
          expectRefused(ctx, await ctx.call('getTokenCatalog', { key: late! }), PER_KEY);
        });
      },
    }),
    defineCase({
      id: 'getTokenCatalog/window-resets-at-the-next-minute',
      title: 'Allows requests again when the fixed minute ends',
      requirements: ['windows-fixed', 'catalog-per-key-per-minute'],
      needs: { driver: true, manualClock: true },
      costs: { spends: "a Free account's catalog requests for a minute" },
      async run(ctx) {
        const account = await ctx.account({ plan: 'Free' });
        const [key] = await keys(account, 1);
        const windowMs = ctx.limits.windowMs(PER_KEY);
        // 20 s into a minute of the clock: the two readings of a fixed window end 40 s apart.
        const first = await ctx.clock.toNextWindow(windowMs / 1000, 20_000);
        await spend(ctx, key!, ctx.limits.value(PER_KEY, 'Free'), PER_KEY);
        const refused = await ctx.call('getTokenCatalog', { key: key! });
        expectRefused(ctx, refused, PER_KEY);
        const aligned = (Math.floor(first / windowMs) + 1) * windowMs;
        const anchored = first + windowMs;
        const untilAligned = Math.ceil((aligned - (await ctx.clock.now())) / 1000);
        // Section 7.1 asks for whole seconds, at least 1 (every response's check); the arithmetic is the reference's.
        ctx.expectEqual(Number(refused.response.headers['retry-after']), untilAligned, 'Retry-After, the whole seconds until the window ends:', reference("Sections 4.1 and 7.1 ask for Retry-After in whole seconds, at least 1; that it counts exactly to the end of the clock's minute is the reference's choice."), refused);
        await ctx.clock.advance(aligned - 1000 - (await ctx.clock.now()));
        expectRefused(ctx, await ctx.call('getTokenCatalog', { key: key! }), PER_KEY, spec('windows-fixed'));
        await ctx.clock.advance(1000);
        // Section 8.1 item 4 reads two ways: windows of the clock's minutes, or a minute from the first counted request.
        const atAligned = await ctx.call('getTokenCatalog', { key: key! });
        if (atAligned.response.status === 200) {
          ctx.expectStatus(atAligned, 200, { ...spec('windows-fixed'), pointer: ctx.limits.pointer(PER_KEY) });
          ctx.step("the window ended with the clock's minute");
          return;
        }
        expectRefused(ctx, atAligned, PER_KEY, spec('windows-fixed'));
        ctx.step("still refused when the clock's minute ended: read as a minute from the first counted request");
        await ctx.clock.advance(anchored - (await ctx.clock.now()));
        ctx.expectStatus(await ctx.call('getTokenCatalog', { key: key! }), 200, { ...spec('windows-fixed'), pointer: ctx.limits.pointer(PER_KEY) });
      },
    }),
    defineCase({
      id: 'getTokenCatalog/window-is-fixed-not-sliding',
      title: 'Frees the whole allowance when the window ends, not one by one',
      requirements: ['windows-fixed'],
      needs: { driver: true, manualClock: true },
      costs: { spends: "a Free account's catalog requests for two minutes" },
      async run(ctx) {
        const account = await ctx.account({ plan: 'Free' });
        const [key] = await keys(account, 1);
        const windowMs = ctx.limits.windowMs(PER_KEY);
        const limit = ctx.limits.value(PER_KEY, 'Free');
        const half = Math.ceil(limit / 2);
        // One second into a minute of the clock: under either reading of a fixed window, the
        // window is over a second after a minute has passed; a sliding one still counts the later half.
        const start = await ctx.clock.toNextWindow(windowMs / 1000, 1000);
        await spend(ctx, key!, half, PER_KEY, spec('windows-fixed'));
        await ctx.clock.advance(windowMs / 2);
        await spend(ctx, key!, limit - half, PER_KEY, spec('windows-fixed'));
        expectRefused(ctx, await ctx.call('getTokenCatalog', { key: key! }), PER_KEY);
        await ctx.clock.advance(start + windowMs + 1000 - (await ctx.clock.now()));
        ctx.step(`spent ${half}, then ${limit - half} half a minute later; then moved a minute and a second on from the first`);
        await spend(ctx, key!, limit, PER_KEY, spec('windows-fixed'));
        expectRefused(ctx, await ctx.call('getTokenCatalog', { key: key! }), PER_KEY);
      },
    }),
  ];
}
