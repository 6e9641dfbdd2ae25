import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Account } from '../runner/account.js';
import { codeOf, type Exchange } from '../runner/exchange.js';
import { reference } from '../runner/basis.js';
import { LINK_BODY, LINK_REFUSAL, expectLinkRefused, fileSignup, pollBody, signupSetup } from './support.js';
import { expectNoStore } from './headers.js';
import { lastingHeaders } from '../runner/per-message.js';

const LINK_NO_STORE = reference('Section 5 item 4 asks `no-store` of authenticated answers; a link takes no API key. The reference sends it because the link token is a credential.');
const PAGE = reference('Section 4 makes every body JSON and section 4.11 does not show the answers of the links; the reference also answers a browser with a page.');

/**
 * Section 4.11: the account-holder links. Single use, self-expiring, the token the only
 * credential; a link of a deleted account reads as not found. The driver stands in for the
 * proxy that creates purchase holds, security-code prompts and challenge handoffs.
 */

const LINK_OPERATIONS = ['getPurchaseApproval', 'decidePurchaseApproval', 'getSignupApproval', 'decideSignupApproval', 'getCvvRequest', 'getChallengeRequest'];

function bodyFor(operationId: string): { json?: unknown } {
  return operationId.startsWith('decide') ? { json: { decision: 'approve' } } : {};
}

async function hold(ctx: CaseContext, account: Account, kind: string, offersDeclared: boolean): Promise<string> {
  const token = await account.holdPurchase({ kind, offersDeclared });
  const view = await ctx.call('getPurchaseApproval', { params: { token } });
  ctx.expectStatus(view, 200);
  const shown = (view.response.json ?? {}) as { kind?: unknown; offersDeclared?: unknown };
  // Section 4.11 names one member of this answer: `offersDeclared: true` when the declared total is offered.
  ctx.check((shown.offersDeclared === true) === offersDeclared, `offersDeclared ${offersDeclared ? 'true' : 'not true'} on the GET`, `offersDeclared ${JSON.stringify(shown.offersDeclared)}`, {}, view);
  ctx.expectEqual(shown.kind, kind, 'the kind of hold:', { basis: LINK_BODY }, view);
  return token;
}

/** What the account holder's dashboard shows of the hold once decided (section 4.11). */
async function expectOutcome(ctx: CaseContext, account: Account, token: string, status: string, decidedAt?: 'page' | 'declared'): Promise<void> {
  const state = await account.linkState(token);
  ctx.expectEqual([state.status, state.decidedAt], [status, decidedAt], 'the hold as its account holder sees it [status, total approved]:');
}

async function decide(ctx: CaseContext, token: string, body: Record<string, unknown>) {
  return ctx.call('decidePurchaseApproval', { params: { token }, json: body });
}

/** A used, expired or foreign link refuses: any 4xx by section 4.11; 404 `not_found` is the reference's. */
async function expectGone(ctx: CaseContext, operationId: string, token: string, why: string): Promise<void> {
  const ex = await ctx.call(operationId, { params: { token }, ...bodyFor(operationId) });
  expectLinkRefused(ctx, ex);
  ctx.step(`${operationId} refuses ${why}: ${ex.response.status}`);
}

function purchaseCases(): Case[] {
  return [
    defineCase({
      id: 'decidePurchaseApproval/approve-uses-the-link',
      title: 'Approves a held purchase once; the link then refuses',
      sections: ['4.11'],
      needs: { driver: ['holdPurchase', 'linkState'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', false);
        const ex = await decide(ctx, token, { decision: 'approve' });
        ctx.expectStatus(ex, 200);
        ctx.expectEqual((ex.response.json as { status: string }).status, 'approved', 'status', { basis: LINK_BODY }, ex);
        await expectOutcome(ctx, account, token, 'approved', 'page');
        await expectGone(ctx, 'getPurchaseApproval', token, 'after a decision');
        await expectGone(ctx, 'decidePurchaseApproval', token, 'after a decision');
      },
    }),
    defineCase({
      id: 'decidePurchaseApproval/deny',
      title: 'Denies a held purchase',
      sections: ['4.11'],
      needs: { driver: ['holdPurchase', 'linkState'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', true);
        const ex = await decide(ctx, token, { decision: 'deny' });
        ctx.expectStatus(ex, 200);
        ctx.expectEqual((ex.response.json as { status: string }).status, 'denied', 'status', { basis: LINK_BODY }, ex);
        await expectOutcome(ctx, account, token, 'denied');
        await expectGone(ctx, 'getPurchaseApproval', token, 'after a denial');
      },
    }),
    defineCase({
      id: 'decidePurchaseApproval/declared-not-offered',
      title: 'Refuses at: declared when the hold does not offer it; stays pending',
      sections: ['4.11', '7.1'],
      needs: { driver: ['holdPurchase', 'linkState'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', false);
        ctx.expectError(await decide(ctx, token, { decision: 'approve', at: 'declared' }), 'declared_not_offered');
        await expectOutcome(ctx, account, token, 'pending');
        ctx.expectStatus(await ctx.call('getPurchaseApproval', { params: { token } }), 200, { sections: ['4.11'] });
        const page = await decide(ctx, token, { decision: 'approve', at: 'page' });
        ctx.expectStatus(page, 200);
        ctx.expectEqual((page.response.json as { at?: string }).at, 'page', 'at', { basis: LINK_BODY }, page);
        await expectOutcome(ctx, account, token, 'approved', 'page');
      },
    }),
    defineCase({
      id: 'decidePurchaseApproval/declared-accepted-when-offered',
      title: 'Approves at the declared total when the hold offers it',
      sections: ['4.11'],
      needs: { driver: ['holdPurchase', 'linkState'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', true);
        const ex = await decide(ctx, token, { decision: 'approve', at: 'declared' });
        ctx.expectStatus(ex, 200);
        ctx.expectEqual(ex.response.json, { ...(ex.response.json as object), status: 'approved', at: 'declared' }, 'the decision:', { basis: LINK_BODY }, ex);
        await expectOutcome(ctx, account, token, 'approved', 'declared');
      },
    }),
    defineCase({
      id: 'decidePurchaseApproval/amount-mismatch-needs-declared',
      title: 'Accepts only the declared total for an amount_mismatch hold',
      sections: ['4.11', '7.1'],
      needs: { driver: ['holdPurchase', 'linkState'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'amount_mismatch', true);
        ctx.expectError(await decide(ctx, token, { decision: 'approve' }), 'declared_required');
        ctx.expectError(await decide(ctx, token, { decision: 'approve', at: 'page' }), 'declared_required');
        await expectOutcome(ctx, account, token, 'pending');
        ctx.expectStatus(await ctx.call('getPurchaseApproval', { params: { token } }), 200, { sections: ['4.11'] });
        ctx.expectStatus(await decide(ctx, token, { decision: 'approve', at: 'declared' }), 200);
        await expectOutcome(ctx, account, token, 'approved', 'declared');
      },
    }),
    defineCase({
      id: 'decidePurchaseApproval/decision-missing',
      title: 'Refuses a decision body without a decision; stays pending',
      sections: ['4.11', '7.1'],
      needs: { driver: ['holdPurchase'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', false);
        // Section 4.11 gives the body's decision and no answer to a body without one: any refusal; bad_request is the reference's.
        const why = reference('Section 4.11 gives the decision body but no answer to one without a decision: any refusal conforms. The reference answers 400 `bad_request`.');
        ctx.expectRefused(await decide(ctx, token, { at: 'page' }), 'bad_request', why, { sections: ['4.11'] });
        ctx.expectRefused(await decide(ctx, token, { decision: 'maybe' }), 'bad_request', why, { sections: ['4.11'] });
        ctx.expectStatus(await ctx.call('getPurchaseApproval', { params: { token } }), 200, { sections: ['4.11'] });
      },
    }),
    defineCase({
      id: 'getPurchaseApproval/expires',
      title: 'Refuses once its lifetime has passed',
      sections: ['4.11', '8.5'],
      needs: { driver: ['holdPurchase'], manualClock: true },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', false);
        const lifetime = ctx.limits.value('purchase-approval-lifetime') * 1000;
        await ctx.clock.advance(lifetime - 1000);
        ctx.expectStatus(await ctx.call('getPurchaseApproval', { params: { token } }), 200, { pointer: ctx.limits.pointer('purchase-approval-lifetime') });
        await ctx.clock.advance(1000);
        await expectGone(ctx, 'getPurchaseApproval', token, 'after its lifetime');
      },
    }),
  ];
}

function promptCases(): Case[] {
  const prompt = (operationId: 'getCvvRequest' | 'getChallengeRequest', method: 'promptSecurityCode' | 'handOffChallenge', lifetime: string) => [
    defineCase({
      id: `${operationId}/single-use`,
      title: 'Opens once; a second read is refused',
      sections: ['4.11'],
      needs: { driver: [method] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = method === 'promptSecurityCode' ? await account.promptSecurityCode() : await account.handOffChallenge();
        ctx.expectStatus(await ctx.call(operationId, { params: { token } }), 200);
        await expectGone(ctx, operationId, token, 'on a second read');
      },
    }),
    defineCase({
      id: `${operationId}/expires`,
      title: 'Refuses once its lifetime has passed',
      sections: ['4.11', '8.5'],
      needs: { driver: [method], manualClock: true },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = method === 'promptSecurityCode' ? await account.promptSecurityCode() : await account.handOffChallenge();
        await ctx.clock.advance(ctx.limits.value(lifetime) * 1000);
        await expectGone(ctx, operationId, token, 'after its lifetime');
      },
    }),
  ];
  return [...prompt('getCvvRequest', 'promptSecurityCode', 'cvv-request-lifetime'), ...prompt('getChallengeRequest', 'handOffChallenge', 'challenge-request-lifetime')];
}

function commonCases(): Case[] {
  return [
    ...LINK_OPERATIONS.map((operationId) =>
      defineCase({
        id: `${operationId}/unknown-token-not-found`,
        title: 'Refuses an unknown link token (404 not_found), never cached',
        sections: ['4.11'],
        needs: {},
        costs: {},
        async run(ctx) {
          const ex = await ctx.call(operationId, { params: { token: `lnk_${ctx.unique()}unknown` }, ...bodyFor(operationId) });
          expectLinkRefused(ctx, ex);
          expectNoStore(ctx, ex, 'on a link', { basis: LINK_NO_STORE });
        },
      }),
    ),
    defineCase({
      id: 'getPurchaseApproval/token-of-another-kind',
      title: 'Refuses a token of another kind of link',
      sections: ['4.11'],
      needs: { driver: ['holdPurchase', 'promptSecurityCode'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const purchase = await account.holdPurchase({ kind: 'over_threshold', offersDeclared: false });
        const cvv = await account.promptSecurityCode();
        await expectGone(ctx, 'getCvvRequest', purchase, 'with a purchase token');
        await expectGone(ctx, 'getPurchaseApproval', cvv, 'with a security-code token');
        ctx.expectStatus(await ctx.call('getPurchaseApproval', { params: { token: purchase } }), 200, { sections: ['4.11'] });
      },
    }),
    defineCase({
      id: 'getPurchaseApproval/deleted-account-not-found',
      title: "Answers 404 for a link of a deleted account",
      sections: ['4.11'],
      needs: { driver: ['holdPurchase', 'deleteAccount'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await account.holdPurchase({ kind: 'over_threshold', offersDeclared: false });
        await account.delete();
        ctx.step('the account holder deleted the account');
        // "Reads as not found": the status is the specification's, the code the reference's.
        const ex = await ctx.call('getPurchaseApproval', { params: { token } });
        ctx.expectStatus(ex, 404, { sections: ['4.11'] });
        ctx.check(codeOf(ex.response) === 'not_found', 'code not_found', () => `code ${codeOf(ex.response)}`, { basis: LINK_REFUSAL }, ex);
      },
    }),
  ];
}

/**
 * Every header of a page is the JSON answer's, but its media type and the headers of one message
 * (a date, a request or trace id), which differ between any two answers.
 */
function expectSameHeaders(ctx: CaseContext, page: Exchange, json: Exchange): void {
  const kept = (h: Record<string, string>) => lastingHeaders(h, ['content-type']);
  ctx.expectEqual(kept(page.response.headers), kept(json.response.headers), "the page's headers (security headers, Cache-Control) equal to the JSON answer's:", { basis: PAGE }, page);
}

const HTML = { accept: 'text/html' };

function pageCases(): Case[] {
  return [
    defineCase({
      id: 'getSignupApproval/page-for-a-browser',
      title: 'Shows a browser a page naming the site and email',
      sections: ['4.11'],
      basis: PAGE,
      level: 'should',
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const filed = await fileSignup(ctx, key);
        const token = await account.signupLink(filed.requestId);
        const page = await ctx.call('getSignupApproval', { params: { token }, headers: HTML });
        ctx.expectStatus(page, 200);
        ctx.check(/^text\/html/.test(page.response.headers['content-type'] ?? ''), 'a text/html page', page.response.headers['content-type'] ?? '', {}, page);
        for (const shown of [filed.site, filed.email]) ctx.check(page.response.text.includes(shown), `the page naming ${shown}`, 'not named', {}, page);
        expectSameHeaders(ctx, page, await ctx.call('getSignupApproval', { params: { token } }));
      },
    }),
    defineCase({
      id: 'decideSignupApproval/form-from-the-page',
      title: "Takes the page's form post and approves the request",
      sections: ['4.11', '3'],
      basis: PAGE,
      level: 'should',
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const filed = await fileSignup(ctx, key);
        const token = await account.signupLink(filed.requestId);
        const ex = await ctx.call('decideSignupApproval', { params: { token }, body: 'decision=approve', contentType: 'application/x-www-form-urlencoded', headers: HTML });
        ctx.expectStatus(ex, 200);
        ctx.check(/^text\/html/.test(ex.response.headers['content-type'] ?? ''), 'a text/html page with the outcome', ex.response.headers['content-type'] ?? '', {}, ex);
        ctx.expectEqual((await pollBody(ctx, key, filed.requestId)).status, 'approved', "the agent's poll after the holder approved on the page:", { sections: ['3'] });
      },
    }),
    defineCase({
      id: 'getPurchaseApproval/page-for-a-browser',
      title: 'Shows a browser a page for a held purchase, with the same headers',
      sections: ['4.11'],
      basis: PAGE,
      level: 'should',
      needs: { driver: ['holdPurchase'] },
      costs: {},
      async run(ctx) {
        const token = await (await ctx.account()).holdPurchase({ kind: 'amount_mismatch', offersDeclared: true });
        const page = await ctx.call('getPurchaseApproval', { params: { token }, headers: HTML });
        ctx.expectStatus(page, 200);
        expectSameHeaders(ctx, page, await ctx.call('getPurchaseApproval', { params: { token } }));
      },
    }),
    defineCase({
      id: 'getPurchaseApproval/unknown-token-page',
      title: 'Shows a browser a not-found page for an unknown link',
      sections: ['4.11'],
      basis: PAGE,
      level: 'should',
      needs: {},
      costs: {},
      async run(ctx) {
        const page = await ctx.call('getPurchaseApproval', { params: { token: `lnk_${ctx.unique()}unknown` }, headers: HTML });
        ctx.check(page.response.status >= 400 && page.response.status <= 499, 'a refusal (a 4xx status)', `${page.response.status}`, { sections: ['4.11'] }, page);
        ctx.check(page.response.status === 404, 'status 404', `${page.response.status}`, { basis: LINK_REFUSAL }, page);
        expectNoStore(ctx, page, 'on a link', { basis: LINK_NO_STORE });
      },
    }),
  ];
}

export function linkCases(): Case[] {
  return [...purchaseCases(), ...promptCases(), ...commonCases(), ...pageCases()];
}
