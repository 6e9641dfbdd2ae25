import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Account } from '../runner/account.js';
import { NotRun } from '../runner/outcome.js';
import { fileSignup, pollBody, signupSetup } from './shared-steps.js';
import { WRITES, acrossKeys, defaultPolicy, expectCatalogEntry, expectNoPassword, expectPolicy, fileExpecting, signupKeys } from './signup-steps.js';
import { spec } from '../runner/basis.js';
import { body } from '../runner/by-meaning.js';

/**
 * Sections 3, 4.6 and 8.4: the pre-approved path. A site and the exact email on the holder's list
 * give `approved` at once, within two ceilings: per listed site (reset by removing and re-adding
 * the site, or saving it with another email) and per account per 24-hour window anchored at the
 * first pre-approved signup. Beyond either the request falls back to `pending`.
 */

const PER_SITE = 'preapproved-signups-per-site';
const PER_ACCOUNT = 'preapproved-signups-per-account';

/** Puts sites on the pre-approved list, as many per add as the dashboard takes. */
async function preapproveAll(ctx: CaseContext, account: Account, sites: string[], email: string): Promise<void> {
  const perAdd = ctx.limits.value('preapproval-sites-per-add');
  for (let i = 0; i < sites.length; i += perAdd) await account.preapprove(sites.slice(i, i + perAdd), email);
  ctx.step(`the account holder pre-approved ${sites.length} sites for ${email}`);
}

/**
 * Enough listed sites and keys to file the account's whole allowance: the per-site ceiling and
 * the per-key login writes are both far below it. NotRun when the deployment's allowance would
 * need more sites or logins than the account may hold.
 */
async function allowanceSetup(ctx: CaseContext, extraSites: number) {
  const allowance = ctx.limits.value(PER_ACCOUNT);
  const perSite = ctx.limits.value(PER_SITE);
  const sites = Array.from({ length: Math.ceil(allowance / perSite) + extraSites }, () => ctx.site());
  if (sites.length > ctx.limits.value('preapproval-sites-per-account') || allowance + extraSites >= ctx.limits.value('logins-per-account')) {
    throw new NotRun(`the deployment's pre-approved allowance of ${allowance} needs more listed sites or logins than an account may hold`);
  }
  const account = await ctx.account();
  const perKey = ctx.limits.value(WRITES) - 1;
  const keys = await signupKeys(account, Math.ceil(allowance / perKey) + 1);
  const email = ctx.email();
  await preapproveAll(ctx, account, sites, email);
  const siteOf = (i: number) => sites[Math.floor(i / perSite)]!;
  return { account, keys, email, sites, allowance, perKey, siteOf };
}

const ACCOUNT_CEILING = { ...spec('preapproval-per-account'), pointer: `#/x-limits/${PER_ACCOUNT}` };
const SITE_CEILING = { ...spec('preapproval-per-site'), pointer: `#/x-limits/${PER_SITE}` };
const AT_ONCE = spec('signup-preapproved-at-once');
const BEYOND = spec('preapproval-beyond-is-pending');

export function signupPreapprovalCases(): Case[] {
  return [
    defineCase({
      id: 'fileSignupRequest/preapproved-approved-at-once',
      title: 'Approves a listed site and exact email at once, tokens on first poll',
      requirements: ['signup-preapproved-at-once', 'filing-approved-login-exists', 'signup-files-pending'],
      needs: { driver: ['preapproveSites'] },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const [site, email] = [ctx.site(), ctx.email()];
        await account.preapprove([site], email);
        const filed = await fileExpecting(ctx, key, { website: site, email }, 'approved', 'for a pre-approved site and its exact email', AT_ONCE);
        const ex = await ctx.call('getSignupRequest', { key, params: { id: filed.requestId } });
        ctx.expectStatus(ex, 200, spec('poll-answer-200'));
        const polled = body(ex) as Record<string, Record<string, unknown>>;
        ctx.expectEqual([polled.status, polled.login?.website], ['approved', site], 'the first poll [status, login.website]', spec('signup-preapproved-at-once', 'filing-approved-login-exists'), ex);
        expectNoPassword(ctx, polled, '/login/tokens/password', spec('poll-never-returns-password'), ex);
        expectPolicy(ctx, polled.passwordPolicy, defaultPolicy(ctx), 'without password rule fields', spec('generated-password-length'), ex);
        await expectCatalogEntry(ctx, key, polled.login!, 'the pre-approved login', ex);
        await fileExpecting(ctx, key, { website: site, email: ctx.email() }, 'pending', 'for a listed site with another email', spec('signup-files-pending'));
        await fileExpecting(ctx, key, { website: ctx.site(), email }, 'pending', 'for an unlisted site with the listed email', spec('signup-files-pending'));
      },
    }),
    defineCase({
      id: 'fileSignupRequest/preapproved-site-ceiling',
      title: 'Pre-approves 2 signups per listed site until it is listed anew',
      requirements: ['preapproval-per-site', 'preapproval-beyond-is-pending'],
      needs: { driver: ['preapproveSites', 'removePreapprovedSite'] },
      costs: { spends: "a listed site's pre-approved signups" },
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const perSite = ctx.limits.value(PER_SITE);
        // Three rounds of the site's signups within the account's allowance, which a deployment may
        // declare smaller (section 9 item 4): the third round then shows the reset by its first
        // signup alone, the ceiling having been shown twice.
        const allowance = ctx.limits.value(PER_ACCOUNT);
        if (allowance < 2 * perSite + 1) throw new NotRun(`the deployment's pre-approved allowance of ${allowance} per account (--limit ${PER_ACCOUNT}) is below the ${2 * perSite + 1} pre-approved signups this case files in one window`);
        const [site, email, other] = [ctx.site(), ctx.email(), ctx.email()];
        const spendSite = async (as: string, why: string, signups = perSite) => {
          for (let i = 1; i <= signups; i++) await fileExpecting(ctx, key, { website: site, email: as }, 'approved', `for pre-approved signup ${i} of ${perSite} ${why}`, SITE_CEILING);
          if (signups === perSite) await fileExpecting(ctx, key, { website: site, email: as }, 'pending', `beyond ${perSite} pre-approved signups ${why}`, spec('preapproval-per-site', 'preapproval-beyond-is-pending'));
          else ctx.step(`${signups} of the site's ${perSite} pre-approved signups ${why}: the account's allowance of ${allowance} is spent`);
        };
        await account.preapprove([site], email);
        await spendSite(email, 'on the listed site');
        await account.preapprove([site], email);
        await fileExpecting(ctx, key, { website: site, email }, 'pending', 'after the site was saved again with the same email', SITE_CEILING);
        await account.removePreapproved(site);
        await account.preapprove([site], email);
        ctx.step('the account holder removed the site and added it again');
        await spendSite(email, 'after the site was removed and added again');
        await account.preapprove([site], other);
        ctx.step('the account holder saved the site with another email');
        await fileExpecting(ctx, key, { website: site, email }, 'pending', 'with the email the site no longer lists', spec('signup-files-pending'));
        await spendSite(other, 'after the site was saved with another email', Math.min(perSite, allowance - 2 * perSite));
      },
    }),
    defineCase({
      id: 'fileSignupRequest/preapproved-account-ceiling',
      title: 'Pre-approves 60 signups per account, then falls back to pending',
      requirements: ['preapproval-per-account', 'preapproval-beyond-is-pending', 'deployment-defaults'],
      needs: { driver: ['preapproveSites'] },
      costs: { spends: "an account's pre-approved signups for 24 hours" },
      async run(ctx) {
        const { keys, email, allowance, perKey, siteOf } = await allowanceSetup(ctx, 1);
        const filed = await acrossKeys(keys, allowance, perKey, (key, i) => fileSignup(ctx, key, { website: siteOf(i), email }));
        const refused = filed.findIndex((f) => f.status !== 'approved');
        ctx.check(refused < 0, `all ${allowance} pre-approved signups approved`, `signup ${refused + 1} ${filed[refused]?.status}`, ACCOUNT_CEILING, filed[refused]?.exchange);
        ctx.step(`${allowance} pre-approved signups approved`);
        await fileExpecting(ctx, keys.at(-1)!, { website: siteOf(allowance), email }, 'pending', `beyond the account's ${allowance} pre-approved signups`, { ...BEYOND, pointer: ACCOUNT_CEILING.pointer });
      },
    }),
    defineCase({
      id: 'fileSignupRequest/preapproved-account-window',
      title: 'Anchors the pre-approved allowance at the first pre-approved signup',
      requirements: ['preapproval-per-account'],
      needs: { driver: ['preapproveSites'], manualClock: true },
      costs: { spends: "an account's pre-approved signups for 24 hours" },
      async run(ctx) {
        const HOUR = 3_600_000;
        const window = ctx.limits.windowMs(PER_ACCOUNT);
        const { keys, email, allowance, perKey, siteOf } = await allowanceSetup(ctx, 3);
        const first = keys[0]!;
        // At noon, so that a window fixed to calendar days would end halfway through.
        await ctx.clock.toNextWindow(86_400, 12 * HOUR);
        await fileExpecting(ctx, first, { website: ctx.site(), email }, 'pending', 'for an unlisted site', spec('signup-files-pending'));
        await ctx.clock.advance(HOUR);
        const anchor = await ctx.clock.now();
        await fileExpecting(ctx, first, { website: siteOf(0), email }, 'approved', 'for the first pre-approved signup', ACCOUNT_CEILING);
        await ctx.clock.advance(HOUR);
        const rest = await acrossKeys(keys.slice(1), allowance - 1, perKey, (key, i) => fileSignup(ctx, key, { website: siteOf(i + 1), email }));
        const refused = rest.findIndex((f) => f.status !== 'approved');
        ctx.check(refused < 0, `all ${allowance} pre-approved signups approved`, `signup ${refused + 2} ${rest[refused]?.status}`, ACCOUNT_CEILING, rest[refused]?.exchange);
        await fileExpecting(ctx, first, { website: siteOf(allowance), email }, 'pending', `beyond the account's ${allowance} pre-approved signups`, ACCOUNT_CEILING);
        await ctx.clock.advance(anchor + window - 1 - (await ctx.clock.now()));
        await fileExpecting(ctx, first, { website: siteOf(allowance), email }, 'pending', '1 ms before the window that began at the first pre-approved signup ends', ACCOUNT_CEILING);
        // The instant the window ends reads either way; a second later it has ended under both.
        await ctx.clock.advance(1001);
        await fileExpecting(ctx, first, { website: siteOf(allowance + 1), email }, 'approved', 'once the window ended', ACCOUNT_CEILING);
        await fileExpecting(ctx, first, { website: siteOf(allowance + 2), email }, 'approved', 'as the second of the new window (the whole allowance is back)', ACCOUNT_CEILING);
        ctx.expectEqual((await pollBody(ctx, keys[1]!, rest[0]!.requestId)).status, 'approved', 'a day later, the poll of an earlier pre-approved request', spec('poll-approved-members'));
      },
    }),
  ];
}
