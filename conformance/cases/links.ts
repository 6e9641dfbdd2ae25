import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Account } from '../runner/account.js';
import { codeOf, type Exchange } from '../runner/exchange.js';
import { reference, spec, type Basis, type ReferenceBasis } from '../runner/basis.js';
import { LINK_BODY, LINK_OK, LINK_REFUSAL, expectLinkRefused, fileSignup, pollBody, signupSetup } from './shared-steps.js';
import { expectNoStore } from './headers.js';
import { lastingHeaders } from '../runner/per-message.js';
import { body } from '../runner/by-meaning.js';
import { againstControl, succeeded } from './refusals.js';

const LINK_NO_STORE = reference('Section 5 item 4 asks `no-store` of authenticated answers; a link takes no API key. The reference sends it because the link token is a credential.');
const PAGE: ReferenceBasis = reference('Section 4 makes every body JSON and section 4.11 does not show the answers of the links; the reference also answers a browser with a page.');

/**
 * Section 4.11: the account-holder links. Single use, self-expiring, the token the only
 * credential; a link of a deleted account reads as not found. The driver stands in for the
 * proxy that creates purchase holds, security-code prompts and challenge handoffs. Section 4.11
 * shows none of the links' answers: a link that works answers any success, one that refuses any
 * 4xx; their bodies and exact statuses are the reference's.
 */

type LinkOperation = 'getPurchaseApproval' | 'decidePurchaseApproval' | 'getSignupApproval' | 'decideSignupApproval' | 'getCvvRequest' | 'getChallengeRequest';

/** The requirement that says what each link does. */
const LINK_RULE: Record<LinkOperation, Basis> = {
  getPurchaseApproval: spec('link-purchase-approval'),
  decidePurchaseApproval: spec('link-purchase-approval'),
  getSignupApproval: spec('link-signup-request'),
  decideSignupApproval: spec('link-signup-request'),
  getCvvRequest: spec('link-cvv-request'),
  getChallengeRequest: spec('link-challenge-request'),
};

function bodyFor(operationId: string): { json?: unknown } {
  return operationId.startsWith('decide') ? { json: { decision: 'approve' } } : {};
}

async function hold(ctx: CaseContext, account: Account, kind: string, offersDeclared: boolean): Promise<string> {
  const token = await account.holdPurchase({ kind, offersDeclared });
  const view = await ctx.call('getPurchaseApproval', { params: { token } });
  ctx.expectSuccess(view, spec('link-purchase-approval'), LINK_OK);
  const shown = body(view);
  // Section 4.11 names one member of this answer: `offersDeclared: true` when the declared total is offered.
  ctx.check((shown.offersDeclared === true) === offersDeclared, `offersDeclared ${offersDeclared ? 'true' : 'not true'} on the GET`, `offersDeclared ${JSON.stringify(shown.offersDeclared)}`, spec('link-offers-declared'), view);
  ctx.expectEqual(shown.kind, kind, 'the kind of hold:', LINK_BODY, view);
  return token;
}

/** What the account holder's dashboard shows of the hold once decided (section 4.11), read through the driver. */
async function expectOutcome(ctx: CaseContext, account: Account, token: string, status: string, rule: Basis, decidedAt?: 'page' | 'declared'): Promise<void> {
  const state = await account.linkState(token);
  ctx.expectEqual([state.status, state.decidedAt], [status, decidedAt], 'the hold as its account holder sees it [status, total approved]:', rule);
}

async function decide(ctx: CaseContext, token: string, decision: Record<string, unknown>) {
  return ctx.call('decidePurchaseApproval', { params: { token }, json: decision });
}

/** A used, expired or foreign link refuses, by `rule`: any 4xx; 404 `not_found` is the reference's. */
async function expectGone(ctx: CaseContext, operationId: string, token: string, why: string, rule: Basis): Promise<void> {
  const ex = await ctx.call(operationId, { params: { token }, ...bodyFor(operationId) });
  expectLinkRefused(ctx, ex, rule);
  ctx.step(`${operationId} refuses ${why}: ${ex.response.status}`);
}

function purchaseCases(): Case[] {
  return [
    defineCase({
      id: 'decidePurchaseApproval/approve-uses-the-link',
      title: 'Approves a held purchase once; the link then refuses',
      requirements: ['link-purchase-approval', 'links-single-use'],
      needs: { driver: ['holdPurchase', 'linkState'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', false);
        const ex = await decide(ctx, token, { decision: 'approve' });
        ctx.expectSuccess(ex, spec('link-purchase-approval'), LINK_OK);
        ctx.expectEqual(body(ex).status, 'approved', 'status', LINK_BODY, ex);
        await expectOutcome(ctx, account, token, 'approved', spec('link-purchase-approval'), 'page');
        await expectGone(ctx, 'getPurchaseApproval', token, 'after a decision', spec('links-single-use'));
        await expectGone(ctx, 'decidePurchaseApproval', token, 'after a decision', spec('links-single-use'));
      },
    }),
    defineCase({
      id: 'decidePurchaseApproval/deny',
      title: 'Denies a held purchase',
      requirements: ['link-purchase-approval', 'links-single-use'],
      needs: { driver: ['holdPurchase', 'linkState'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', true);
        const ex = await decide(ctx, token, { decision: 'deny' });
        ctx.expectSuccess(ex, spec('link-purchase-approval'), LINK_OK);
        ctx.expectEqual(body(ex).status, 'denied', 'status', LINK_BODY, ex);
        await expectOutcome(ctx, account, token, 'denied', spec('link-purchase-approval'));
        await expectGone(ctx, 'getPurchaseApproval', token, 'after a denial', spec('links-single-use'));
      },
    }),
    defineCase({
      id: 'decidePurchaseApproval/declared-not-offered',
      title: 'Refuses at: declared when the hold does not offer it; stays pending',
      requirements: ['link-declared-only-when-offered', 'link-offers-declared'],
      needs: { driver: ['holdPurchase', 'linkState'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', false);
        ctx.expectError(await decide(ctx, token, { decision: 'approve', at: 'declared' }), 'declared_not_offered', spec('link-declared-only-when-offered'));
        await expectOutcome(ctx, account, token, 'pending', spec('link-declared-only-when-offered'));
        ctx.expectSuccess(await ctx.call('getPurchaseApproval', { params: { token } }), spec('link-declared-only-when-offered'), LINK_OK);
        const page = await decide(ctx, token, { decision: 'approve', at: 'page' });
        ctx.expectSuccess(page, spec('link-purchase-approval'), LINK_OK);
        ctx.expectEqual(body(page).at, 'page', 'at', LINK_BODY, page);
        await expectOutcome(ctx, account, token, 'approved', spec('link-purchase-approval'), 'page');
      },
    }),
    defineCase({
      id: 'decidePurchaseApproval/declared-accepted-when-offered',
      title: 'Approves at the declared total when the hold offers it',
      requirements: ['link-purchase-approval', 'link-offers-declared'],
      needs: { driver: ['holdPurchase', 'linkState'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', true);
        const ex = await decide(ctx, token, { decision: 'approve', at: 'declared' });
        ctx.expectSuccess(ex, spec('link-purchase-approval'), LINK_OK);
        ctx.expectEqual(body(ex), { ...body(ex), status: 'approved', at: 'declared' }, 'the decision:', LINK_BODY, ex);
        await expectOutcome(ctx, account, token, 'approved', spec('link-purchase-approval'), 'declared');
      },
    }),
    defineCase({
      id: 'decidePurchaseApproval/amount-mismatch-needs-declared',
      title: 'Accepts only the declared total for an amount_mismatch hold',
      requirements: ['link-mismatch-needs-declared'],
      needs: { driver: ['holdPurchase', 'linkState'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'amount_mismatch', true);
        ctx.expectError(await decide(ctx, token, { decision: 'approve' }), 'declared_required', spec('link-mismatch-needs-declared'));
        ctx.expectError(await decide(ctx, token, { decision: 'approve', at: 'page' }), 'declared_required', spec('link-mismatch-needs-declared'));
        await expectOutcome(ctx, account, token, 'pending', spec('link-mismatch-needs-declared'));
        ctx.expectSuccess(await ctx.call('getPurchaseApproval', { params: { token } }), spec('link-mismatch-needs-declared'), LINK_OK);
        ctx.expectSuccess(await decide(ctx, token, { decision: 'approve', at: 'declared' }), spec('link-mismatch-needs-declared'), LINK_OK);
        await expectOutcome(ctx, account, token, 'approved', spec('link-mismatch-needs-declared'), 'declared');
      },
    }),
    defineCase({
      id: 'decidePurchaseApproval/decision-missing',
      title: 'Refuses a decision body without a decision; stays pending',
      requirements: ['link-purchase-approval'],
      needs: { driver: ['holdPurchase'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', false);
        // Section 4.11 gives the decision body but no answer to one without a decision: any refusal; bad_request is the reference's.
        const why = reference('Section 4.11 gives the decision body but no answer to one without a decision: any refusal conforms. The reference answers 400 `bad_request`.');
        ctx.expectRefused(await decide(ctx, token, { at: 'page' }), 'bad_request', why, spec('link-purchase-approval'));
        ctx.expectRefused(await decide(ctx, token, { decision: 'maybe' }), 'bad_request', why, spec('link-purchase-approval'));
        // The control, on the same link: it was refused for its body, and a decision still takes.
        ctx.expectSuccess(await decide(ctx, token, { decision: 'deny' }), spec('link-purchase-approval'), LINK_OK);
      },
    }),
    defineCase({
      id: 'getPurchaseApproval/expires',
      title: 'Works until its lifetime ends, then refuses',
      requirements: ['purchase-approval-lifetime', 'links-expire'],
      needs: { driver: ['holdPurchase'], manualClock: true },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await hold(ctx, account, 'over_threshold', false);
        const lifetime = ctx.limits.value('purchase-approval-lifetime') * 1000;
        const rule = { ...spec('purchase-approval-lifetime'), pointer: ctx.limits.pointer('purchase-approval-lifetime') };
        await ctx.clock.advance(lifetime - 1000);
        ctx.expectSuccess(await ctx.call('getPurchaseApproval', { params: { token } }), rule, LINK_OK);
        // At exactly the lifetime either reading holds; a second later the link has expired under both.
        await ctx.clock.advance(2000);
        await expectGone(ctx, 'getPurchaseApproval', token, 'after its lifetime', spec('purchase-approval-lifetime', 'links-expire'));
      },
    }),
  ];
}

function promptCases(): Case[] {
  const prompt = (operationId: 'getCvvRequest' | 'getChallengeRequest', method: 'promptSecurityCode' | 'handOffChallenge', lifetime: 'cvv-prompt-lifetime' | 'challenge-handoff-lifetime') => [
    defineCase({
      id: `${operationId}/single-use`,
      title: 'Opens once; a second read is refused',
      requirements: [operationId === 'getCvvRequest' ? 'link-cvv-request' : 'link-challenge-request', 'links-single-use'],
      needs: { driver: [method] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = method === 'promptSecurityCode' ? await account.promptSecurityCode() : await account.handOffChallenge();
        ctx.expectSuccess(await ctx.call(operationId, { params: { token } }), LINK_RULE[operationId], LINK_OK);
        await expectGone(ctx, operationId, token, 'on a second read', spec('links-single-use'));
      },
    }),
    defineCase({
      id: `${operationId}/expires`,
      title: 'Opens within about its lifetime, refuses after it',
      requirements: [lifetime, 'links-expire'],
      needs: { driver: [method], manualClock: true },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const open = () => (method === 'promptSecurityCode' ? account.promptSecurityCode() : account.handOffChallenge());
        // "About" is a range (the catalogue records it): one prompt read just inside it, another just past it.
        const range = ctx.requirementRange(lifetime);
        const [early, late] = [await open(), await open()];
        const started = await ctx.clock.now();
        await ctx.clock.advance(range.min * 1000 - 1000);
        ctx.expectSuccess(await ctx.call(operationId, { params: { token: early } }), spec(lifetime), LINK_OK);
        await ctx.clock.advance(started + range.max * 1000 + 1000 - (await ctx.clock.now()));
        await expectGone(ctx, operationId, late, `${range.max + 1} s after it was opened`, spec(lifetime, 'links-expire'));
      },
    }),
  ];
  return [...prompt('getCvvRequest', 'promptSecurityCode', 'cvv-prompt-lifetime'), ...prompt('getChallengeRequest', 'handOffChallenge', 'challenge-handoff-lifetime')];
}

/** A link of the operation's kind that works, for the control of a refusal: its token, from the driver. */
async function workingLink(ctx: CaseContext, operationId: LinkOperation): Promise<string> {
  const account = await ctx.account();
  if (operationId === 'getPurchaseApproval' || operationId === 'decidePurchaseApproval') return account.holdPurchase({ kind: 'over_threshold', offersDeclared: false });
  if (operationId === 'getCvvRequest') return account.promptSecurityCode();
  if (operationId === 'getChallengeRequest') return account.handOffChallenge();
  const { key } = await account.issueKey({ signup: true });
  const filed = await fileSignup(ctx, key);
  ctx.precondition(filed.status === 'pending', 'a pending signup request', filed.status, 'an account without pre-approved sites');
  return account.signupLink(filed.requestId);
}

const LINK_DRIVER: Record<LinkOperation, true | ('holdPurchase' | 'promptSecurityCode' | 'handOffChallenge')[]> = {
  getPurchaseApproval: ['holdPurchase'],
  decidePurchaseApproval: ['holdPurchase'],
  getSignupApproval: true,
  decideSignupApproval: true,
  getCvvRequest: ['promptSecurityCode'],
  getChallengeRequest: ['handOffChallenge'],
};

function commonCases(): Case[] {
  return [
    ...(Object.keys(LINK_RULE) as LinkOperation[]).map((operationId) =>
      defineCase({
        id: `${operationId}/unknown-token-not-found`,
        title: 'Refuses an unknown link token; a working one is taken',
        requirements: ['links-token-is-the-credential'],
        needs: { driver: LINK_DRIVER[operationId] },
        costs: {},
        async run(ctx) {
          const token = await workingLink(ctx, operationId);
          await againstControl(ctx, `${operationId} with a token the driver issued`, () => ctx.call(operationId, { params: { token }, ...bodyFor(operationId) }), succeeded, 'a driver whose links work');
          const ex = await ctx.call(operationId, { params: { token: `lnk_${ctx.unique()}unknown` }, ...bodyFor(operationId) });
          expectLinkRefused(ctx, ex, spec('links-token-is-the-credential'));
          expectNoStore(ctx, ex, 'on a link', LINK_NO_STORE);
        },
      }),
    ),
    defineCase({
      id: 'getPurchaseApproval/token-of-another-kind',
      title: 'Refuses a token of another kind of link',
      requirements: ['links-token-is-the-credential'],
      needs: { driver: ['holdPurchase', 'promptSecurityCode'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const purchase = await account.holdPurchase({ kind: 'over_threshold', offersDeclared: false });
        const cvv = await account.promptSecurityCode();
        await expectGone(ctx, 'getCvvRequest', purchase, 'with a purchase token', spec('links-token-is-the-credential'));
        await expectGone(ctx, 'getPurchaseApproval', cvv, 'with a security-code token', spec('links-token-is-the-credential'));
        // The control: each token works on its own kind of link.
        ctx.expectSuccess(await ctx.call('getPurchaseApproval', { params: { token: purchase } }), spec('link-purchase-approval'), LINK_OK);
        ctx.expectSuccess(await ctx.call('getCvvRequest', { params: { token: cvv } }), spec('link-cvv-request'), LINK_OK);
      },
    }),
    defineCase({
      id: 'getPurchaseApproval/deleted-account-not-found',
      title: 'Answers 404 for a link of a deleted account',
      requirements: ['links-deleted-account-not-found'],
      needs: { driver: ['holdPurchase', 'deleteAccount'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const token = await account.holdPurchase({ kind: 'over_threshold', offersDeclared: false });
        await againstControl(ctx, 'the link before the account was deleted', () => ctx.call('getPurchaseApproval', { params: { token } }), succeeded, 'a driver whose links work');
        await account.delete();
        ctx.step('the account holder deleted the account');
        // "Reads as not found": the status is the specification's, the code the reference's.
        const ex = await ctx.call('getPurchaseApproval', { params: { token } });
        ctx.expectStatus(ex, 404, spec('links-deleted-account-not-found'));
        ctx.check(codeOf(ex.response) === 'not_found', 'code not_found', () => `code ${codeOf(ex.response)}`, LINK_REFUSAL, ex);
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
  ctx.expectEqual(kept(page.response.headers), kept(json.response.headers), "the page's headers (security headers, Cache-Control) equal to the JSON answer's:", PAGE, page);
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
        ctx.expectSuccess(page, spec('link-signup-request'), LINK_OK);
        ctx.check(/^text\/html/.test(page.response.headers['content-type'] ?? ''), 'a text/html page', page.response.headers['content-type'] ?? '', PAGE, page);
        for (const shown of [filed.site, filed.email]) ctx.check(page.response.text.includes(shown), `the page naming ${shown}`, 'not named', PAGE, page);
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
        ctx.expectStatus(ex, 200, PAGE);
        ctx.check(/^text\/html/.test(ex.response.headers['content-type'] ?? ''), 'a text/html page with the outcome', ex.response.headers['content-type'] ?? '', PAGE, ex);
        ctx.expectEqual((await pollBody(ctx, key, filed.requestId)).status, 'approved', "the agent's poll after the holder approved on the page:", PAGE);
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
        ctx.expectSuccess(page, spec('link-purchase-approval'), LINK_OK);
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
        ctx.check(page.response.status >= 400 && page.response.status <= 499, 'a refusal (a 4xx status)', `${page.response.status}`, PAGE, page);
        ctx.check(page.response.status === 404, 'status 404', `${page.response.status}`, LINK_REFUSAL, page);
        expectNoStore(ctx, page, 'on a link', LINK_NO_STORE);
      },
    }),
  ];
}

export function linkCases(): Case[] {
  return [...purchaseCases(), ...promptCases(), ...commonCases(), ...pageCases()];
}
