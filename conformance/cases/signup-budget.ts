import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Account } from '../runner/account.js';
import { decideSignup, pollBody, signupSetup } from './shared-steps.js';
import { BUDGET, WRITES, approvalFails, fileExpecting, filePending } from './signup-steps.js';
import { spec } from '../runner/basis.js';

/**
 * Sections 3, 4.5, 8.3 and 9: the account's credential-change budget, 25 per 24-hour window
 * anchored at the first counted change. Approvals, username sets and rotations count; filing a
 * pending request, a pre-approved signup, polling and repeating the identical username do not.
 * When it is spent, writes answer `daily_limit` (no Retry-After) and approvals stay pending.
 */

const where = { ...spec('credential-budget', 'username-password-charge-budget', 'signup-approval-charges-budget'), pointer: `#/x-limits/${BUDGET}` };
/** Writes kept free on the last spending key for the checks after the budget is spent. */
const RESERVE = 3;

interface Spender {
  key: string;
  label: string;
  writes: number;
  username?: string;
}

/**
 * Spends exactly `count` changes through keys of the account: each key files a request the holder
 * approves (one change), sets a username (one change) and repeats it (none), then rotates (one
 * each) while it has login writes of the minute left. Returns the last key and its login.
 */
async function spendChanges(ctx: CaseContext, account: Account, count: number, afterFirst?: () => Promise<void>): Promise<Spender> {
  const perKey = ctx.limits.value(WRITES) - RESERVE;
  const kinds = { approvals: 0, usernames: 0, rotations: 0 };
  let spent = 0;
  const charged = async (kind: keyof typeof kinds) => {
    spent++;
    kinds[kind]++;
    if (spent === 1) await afterFirst?.();
  };
  let s: Spender | undefined;
  while (spent < count) {
    if (!s || s.writes >= perKey) {
      const key = (await account.issueKey({ signup: true })).key;
      const filed = await filePending(ctx, key);
      await decideSignup(ctx, account, filed.requestId, 'approve');
      const polled = await pollBody(ctx, key, filed.requestId);
      ctx.check(polled.status === 'approved', `approval ${spent + 1} of ${count} to complete (the agent's poll)`, `status ${polled.status}`, where);
      await charged('approvals');
      s = { key, label: polled.login.label as string, writes: 1 };
    } else if (!s.username) {
      const username = `shopper.${ctx.unique('u')}`;
      ctx.expectStatus(await ctx.call('setLoginUsername', { key: s.key, json: { label: s.label, username } }), 200, where);
      await charged('usernames');
      ctx.expectStatus(await ctx.call('setLoginUsername', { key: s.key, json: { label: s.label, username } }), 200, where);
      s.writes += 2;
      s.username = username;
    } else {
      ctx.expectStatus(await ctx.call('rotateLoginPassword', { key: s.key, json: { label: s.label } }), 200, where);
      await charged('rotations');
      s.writes++;
    }
  }
  ctx.step(`spent ${count} changes: ${kinds.approvals} approvals, ${kinds.usernames} username sets, ${kinds.rotations} rotations`);
  return s!;
}

/** A key with a pre-approved login and a pending request: neither charges the budget. */
async function uncharged(ctx: CaseContext) {
  const { account, key } = await signupSetup(ctx);
  const [site, email] = [ctx.site(), ctx.email()];
  await account.preapprove([site], email);
  const pre = await fileExpecting(ctx, key, { website: site, email }, 'approved', 'for a pre-approved site', spec('signup-preapproved-at-once'));
  const label = (await pollBody(ctx, key, pre.requestId)).login.label as string;
  return { account, key, site, email, label };
}

async function expectSpent(ctx: CaseContext, s: Spender, what: string): Promise<void> {
  ctx.expectError(await ctx.call('rotateLoginPassword', { key: s.key, json: { label: s.label } }), 'daily_limit', where);
  ctx.step(`${what}: a rotation is refused with daily_limit`);
}

export function signupBudgetCases(): Case[] {
  return [
    defineCase({
      id: 'rotateLoginPassword/credential-budget',
      title: 'Allows an account 25 credential changes, then daily_limit',
      requirements: ['credential-budget', 'username-password-charge-budget', 'signup-approval-charges-budget', 'filing-does-not-charge-budget', 'signup-preapproved-at-once', 'username-recorded-once', 'deployment-defaults'],
      needs: { driver: ['preapproveSites'] },
      costs: { spends: "an account's credential changes for 24 hours" },
      async run(ctx) {
        const budget = ctx.limits.value(BUDGET);
        const { account, key, site, email, label } = await uncharged(ctx);
        const waiting = await filePending(ctx, key);
        const last = await spendChanges(ctx, account, budget);
        await expectSpent(ctx, last, `change ${budget + 1}`);
        ctx.expectError(await ctx.call('setLoginUsername', { key, json: { label, username: `shopper.${ctx.unique('u')}` } }), 'daily_limit', where);
        ctx.step('a username set is refused with daily_limit');
        await approvalFails(ctx, account, key, waiting.requestId, 'daily_limit');
        await filePending(ctx, key);
        ctx.step('filing a pending request still passes');
        await fileExpecting(ctx, key, { website: site, email }, 'approved', 'for a pre-approved signup with the budget spent', spec('signup-preapproved-at-once'));
        const same = await ctx.call('setLoginUsername', { key: last.key, json: { label: last.label, username: last.username } });
        ctx.expectStatus(same, 200, spec('username-recorded-once'));
        ctx.step('the identical username again still succeeds');
      },
    }),
    defineCase({
      id: 'rotateLoginPassword/credential-budget-window',
      title: 'Resets the credential changes 24 hours after the first one',
      requirements: ['credential-budget', 'refused-records-nothing'],
      needs: { driver: ['preapproveSites'], manualClock: true },
      costs: { spends: "an account's credential changes for 24 hours" },
      async run(ctx) {
        const HOUR = 3_600_000;
        const budget = ctx.limits.value(BUDGET);
        const window = ctx.limits.windowMs(BUDGET);
        // At noon, so that a window fixed to calendar days would end halfway through.
        await ctx.clock.toNextWindow(86_400, 12 * HOUR);
        const { account, key, label } = await uncharged(ctx);
        const created = await ctx.clock.now();
        await ctx.clock.advance(HOUR);
        let first = 0;
        // The first change an hour after the uncounted ones, the rest an hour later: only a window
        // anchored at the first change gives the whole budget back at its 24th hour.
        const last = await spendChanges(ctx, account, budget, async () => {
          first = await ctx.clock.now();
          await ctx.clock.advance(HOUR);
        });
        const waiting = await filePending(ctx, key);
        await expectSpent(ctx, last, `change ${budget + 1}`);
        const refusedName = `refused.${ctx.unique('u')}`;
        ctx.expectError(await ctx.call('setLoginUsername', { key, json: { label, username: refusedName } }), 'daily_limit', where);
        await approvalFails(ctx, account, key, waiting.requestId, 'daily_limit');
        await ctx.clock.advance(first + window - 1 - (await ctx.clock.now()));
        await expectSpent(ctx, last, '1 ms before 24 hours from the first change');
        await ctx.clock.advance(1);
        await decideSignup(ctx, account, waiting.requestId, 'approve');
        const approved = await pollBody(ctx, key, waiting.requestId);
        ctx.expectEqual(approved.status, 'approved', 'the poll after the holder approved again in the new window', where);
        // A second change of the new window: the refused username's login, when the deployment's
        // change window still lets the key change it, shows the refusal recorded nothing.
        const inChangeWindow = (await ctx.clock.now()) < created + ctx.limits.value('login-change-window') * 1000;
        const second = inChangeWindow ? label : (approved.login.label as string);
        ctx.expectStatus(await ctx.call('setLoginUsername', { key, json: { label: second, username: `shopper.${ctx.unique('u')}` } }), 200, spec('credential-budget', 'refused-records-nothing'));
        ctx.step(`24 hours after the first change: a second change passes${inChangeWindow ? ', a username other than the refused one' : ''}`);
      },
    }),
  ];
}
