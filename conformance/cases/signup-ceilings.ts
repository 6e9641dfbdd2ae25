import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Account } from '../runner/account.js';
import { NotRun, RunnerError } from '../runner/outcome.js';
import { decideSignup, pollBody, signupSetup } from './shared-steps.js';
import { PENDING, SUFFIXES, WRITES, approvalFails, approvedLogin, fileExpecting, filePending, fileRefused, saveLogins } from './signup-steps.js';
import { spec, type Basis, type Rule } from '../runner/basis.js';

/**
 * Sections 3, 4.6 and 8.4: the ceilings a signup meets. At filing: 500 logins (403, no request)
 * and five pending requests (429). At approval: 500 logins, 50 labels per site name, a scoped
 * key's own list; a failed check keeps the request pending, shows the reason only to the account
 * holder, and (on the pre-approved path) falls back to pending. Each builds its state once.
 */

const LOGINS = 'logins-per-account';
const LABELS = 'labels-per-site-name';
const SCOPE_LIST = 'scoped-key-login-list';

const at = (id: string, basis: Basis): Rule => ({ ...basis, pointer: `#/x-limits/${id}` });

/**
 * Makes `count` logins through a key by pre-approved signups, moving the manual clock on when the
 * key's writes of the minute or the account's pre-approved allowance are spent. Returns a listed
 * site and its email that one more pre-approved signup could use, with both ceilings clear.
 */
async function loginsThroughKey(ctx: CaseContext, account: Account, key: string, count: number): Promise<{ site: string; email: string }> {
  const perSite = ctx.limits.value('preapproved-signups-per-site');
  const allowance = ctx.limits.value('preapproved-signups-per-account');
  const writes = ctx.limits.value(WRITES);
  const email = ctx.email();
  // One more site than the signups fill: it stays unused.
  const sites = Array.from({ length: Math.ceil(count / perSite) + 1 }, () => ctx.site());
  const perAdd = ctx.limits.value('preapproval-sites-per-add');
  for (let i = 0; i < sites.length; i += perAdd) await account.preapprove(sites.slice(i, i + perAdd), email);
  let inMinute = 0;
  let inWindow = 0;
  const clear = async () => {
    if (inWindow === allowance) {
      await ctx.clock.advance(ctx.limits.windowMs('preapproved-signups-per-account'));
      [inWindow, inMinute] = [0, 0];
    }
    if (inMinute === writes) {
      await ctx.clock.toNextWindow(ctx.limits.windowMs(WRITES) / 1000);
      inMinute = 0;
    }
  };
  for (let i = 0; i < count; i++) {
    await clear();
    await fileExpecting(ctx, key, { website: sites[Math.floor(i / perSite)]!, email }, 'approved', `for pre-approved signup ${i + 1} of ${count}`, spec('signup-preapproved-at-once'));
    inMinute++;
    inWindow++;
  }
  await clear();
  ctx.step(`the key made ${count} logins through pre-approved signups`);
  return { site: sites.at(-1)!, email };
}

export function signupCeilingCases(): Case[] {
  return [
    defineCase({
      id: 'fileSignupRequest/login-limit-at-500',
      title: 'Refuses filing at 500 logins; approval then stays pending',
      requirements: ['filing-login-limit', 'approval-rechecks-login-limit', 'logins-ceiling', 'refused-records-nothing', 'too-many-pending'],
      needs: { driver: ['preapproveSites'] },
      costs: { spends: "an account's 500 logins" },
      async run(ctx) {
        const ceiling = ctx.limits.value(LOGINS);
        const pending = ctx.limits.value(PENDING);
        const { account, key } = await signupSetup(ctx);
        const [site, email] = [ctx.site(), ctx.email()];
        await account.preapprove([site], email);
        const fillers = await saveLogins(ctx, account, Array.from({ length: ceiling - 2 }, () => ctx.site()));
        const first = await filePending(ctx, key);
        await saveLogins(ctx, account, [ctx.site()]);
        await fileExpecting(ctx, key, { website: site, email }, 'approved', `for a pre-approved site at ${ceiling - 1} logins`, spec('signup-preapproved-at-once'));
        ctx.step(`the account holds ${ceiling} logins`);
        await fileRefused(ctx, key, { website: ctx.site(), email: ctx.email() }, 'login_limit', `a signup at ${ceiling} logins`, at(LOGINS, spec('filing-login-limit')));
        await fileRefused(ctx, key, { website: site, email }, 'login_limit', `a pre-approved signup at ${ceiling} logins`, at(LOGINS, spec('filing-login-limit')));
        await approvalFails(ctx, account, key, first.requestId, 'login_limit');

        await account.deleteLogin(fillers[0]!);
        ctx.step('the account holder deleted a login');
        // Had the refused pre-approved signup counted, the site would have no pre-approved signup left.
        await fileExpecting(ctx, key, { website: site, email }, 'approved', 'for the second pre-approved signup of the site', spec('refused-records-nothing', 'filing-login-limit'));
        await account.deleteLogin(fillers[1]!);
        // Had the refused signup created a request, one fewer would fit before too_many_pending.
        for (let i = 1; i < pending; i++) await filePending(ctx, key);
        await fileRefused(ctx, key, { website: ctx.site(), email: ctx.email() }, 'too_many_pending', `request ${pending + 1} awaiting a decision`, spec('too-many-pending', 'filing-login-limit'));
        await decideSignup(ctx, account, first.requestId, 'approve');
        ctx.expectEqual((await pollBody(ctx, key, first.requestId)).status, 'approved', 'the poll once approval could complete', at(LOGINS, spec('approval-rechecks-login-limit')));
      },
    }),
    defineCase({
      id: 'decideSignupApproval/labels-exhausted-stay-pending',
      title: 'Keeps a request pending when its site name has no free label',
      requirements: ['labels-per-name', 'label-collision-numbering', 'signup-failed-approval-stays-pending', 'label-unavailable-hidden', 'preapproval-beyond-is-pending'],
      needs: { driver: ['preapproveSites'] },
      costs: { spends: 'the labels of a site name' },
      async run(ctx) {
        const max = ctx.limits.value(LABELS);
        if (SUFFIXES.length < max + 1) throw new NotRun(`a label ceiling of ${max} needs more public suffixes than the case knows`);
        const { account, key } = await signupSetup(ctx);
        const name = ctx.unique('lb');
        const [base] = await saveLogins(ctx, account, [`${name}.${SUFFIXES[0]}`]);
        const rest = await saveLogins(ctx, account, SUFFIXES.slice(1, max - 1).map((s) => `${name}.${s}`));
        const numbered = Array.from({ length: max - 2 }, (_, i) => `${base}${i + 2}`);
        ctx.expectEqual([...rest].sort(), [...numbered].sort(), `the labels of ${max - 2} more sites named ${name}`, at(LABELS, spec('label-collision-numbering')));
        const last = await approvedLogin(ctx, account, key, { website: `${name}.${SUFFIXES[max - 1]}` });
        ctx.expectEqual(last.label, `${base}${max}`, 'the label of the last free slot', at(LABELS, spec('label-collision-numbering', 'labels-per-name')), last.filed.exchange);

        const [site, email] = [`${name}.${SUFFIXES[max]}`, ctx.email()];
        await account.preapprove([site], email);
        const filed = await fileExpecting(ctx, key, { website: site, email }, 'pending', 'for a pre-approved site whose name has no free label', at(LABELS, spec('preapproval-beyond-is-pending', 'labels-per-name')));
        await approvalFails(ctx, account, key, filed.requestId, 'label_unavailable');
        await account.deleteLogin(`${base}7`);
        ctx.step(`the account holder deleted ${base}7`);
        await decideSignup(ctx, account, filed.requestId, 'approve');
        const polled = await pollBody(ctx, key, filed.requestId);
        ctx.expectEqual([polled.status, polled.login?.label], ['approved', `${base}7`], 'the poll once a label was free [status, label]', at(LABELS, spec('labels-per-name', 'label-collision-numbering')));
      },
    }),
    defineCase({
      id: 'decideSignupApproval/scoped-list-over-200-full',
      title: "Counts a scoped key's list of over 200 entries as full",
      requirements: ['scoped-list-ceiling', 'signup-failed-approval-stays-pending'],
      needs: { driver: true },
      costs: { spends: "a scoped key's login list" },
      async run(ctx) {
        const fullAbove = ctx.limits.def(SCOPE_LIST).fullAbove;
        if (fullAbove === undefined) throw new RunnerError('runner', `${SCOPE_LIST} has no fullAbove in the document`);
        const account = await ctx.account();
        const labels = await saveLogins(ctx, account, Array.from({ length: fullAbove + 1 }, () => ctx.site()));
        const atBound = (await account.issueKey({ signup: true, scope: labels.slice(0, fullAbove) })).key;
        const over = (await account.issueKey({ signup: true, scope: labels })).key;
        ctx.step(`issued scoped keys with lists of ${fullAbove} and ${fullAbove + 1} entries`);
        const approved = await approvedLogin(ctx, account, atBound);
        ctx.step(`a list of ${fullAbove} entries took ${approved.label}`);
        const filed = await filePending(ctx, over);
        await approvalFails(ctx, account, over, filed.requestId, 'scope_full');
      },
    }),
    defineCase({
      id: 'decideSignupApproval/scoped-list-fifty-added',
      title: 'Lets a scoped key add 50 logins to its list, then stays pending',
      requirements: ['scoped-key-adds-fifty', 'scoped-list-ceiling', 'signup-failed-approval-stays-pending'],
      needs: { driver: ['preapproveSites'], manualClock: true },
      costs: { spends: "a scoped key's own login list" },
      async run(ctx) {
        const added = ctx.limits.value(SCOPE_LIST);
        const { account, key } = await signupSetup(ctx, { scope: [] });
        const listed = await loginsThroughKey(ctx, account, key, added);
        const filed = await fileExpecting(ctx, key, { website: listed.site, email: listed.email }, 'pending', `for a pre-approved site once the key added ${added} logins`, at(SCOPE_LIST, spec('scoped-key-adds-fifty', 'preapproval-beyond-is-pending')));
        await approvalFails(ctx, account, key, filed.requestId, 'scope_full');
      },
    }),
    defineCase({
      id: 'fileSignupRequest/too-many-pending',
      title: 'Refuses a sixth pending request until one is decided',
      requirements: ['too-many-pending', 'pending-five', 'too-many-pending-no-retry-after', 'account-budgets-shared', 'refused-records-nothing'],
      needs: { driver: true },
      costs: { spends: "the account's pending signup requests" },
      async run(ctx) {
        const limit = ctx.limits.value(PENDING);
        const { account, key } = await signupSetup(ctx);
        const other = (await account.issueKey({ signup: true })).key;
        const filed = [];
        for (let i = 0; i < limit; i++) filed.push(await filePending(ctx, key));
        const beyond = () => ({ website: ctx.site(), email: ctx.email() });
        await fileRefused(ctx, key, beyond(), 'too_many_pending', `request ${limit + 1}`, spec('too-many-pending', 'pending-five'));
        await fileRefused(ctx, other, beyond(), 'too_many_pending', `request ${limit + 1} from another key of the account`, spec('pending-five', 'account-budgets-shared'));
        await decideSignup(ctx, account, filed[0]!.requestId, 'deny');
        await filePending(ctx, other);
        ctx.step('a denied request freed a slot; the refused ones took none');
        await fileRefused(ctx, key, beyond(), 'too_many_pending', `request ${limit + 1} again`, spec('pending-five', 'refused-records-nothing'));
        await decideSignup(ctx, account, filed[1]!.requestId, 'approve');
        await filePending(ctx, key);
        ctx.step('an approved request freed a slot');
        await fileRefused(ctx, key, beyond(), 'too_many_pending', `request ${limit + 1} once more`, spec('pending-five'));
        ctx.expectEqual((await pollBody(ctx, key, filed[2]!.requestId)).status, 'pending', 'an earlier request, untouched', spec('pending-five'));
      },
    }),
  ];
}
