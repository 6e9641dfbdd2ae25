import { defineCase, type Case } from '../runner/case.js';
import { reference } from '../runner/basis.js';
import type { Node } from '../runner/document.js';
import { decideSignup, fileSignup, pollBody, signupSetup, LINK_BODY, LINK_OK } from './shared-steps.js';
import { spec } from '../runner/basis.js';
import { body, meaningfulDifferences, only, perAnswerMembers } from '../runner/by-meaning.js';
import type { CaseContext } from '../runner/context.js';
import {
  LIFETIME,
  PENDING,
  defaultPolicy,
  expectCatalogEntry,
  expectLinkGone,
  expectNoPassword,
  expectPolicy,
  fileRefused,
  filePending,
  holderView,
  seconds,
} from './signup-steps.js';

/**
 * Sections 2.5, 3 and 4.7: the signup request's states as the agent polls them (pending, approved,
 * denied, expired), who may poll, and what an approved poll carries and never carries.
 */

const TOKEN_AT = '/login/tokens/password';

/** The members section 2.5 gives a signup request. */
const SIGNUP_FIELDS = ['requestId', 'status', 'expiresAt', 'login', 'passwordPolicy', 'passwordOwnerManaged'] as const;

/**
 * A later poll of an approved request says the same: the members section 4.7 names compare by
 * value; members that differ from answer to answer (a request id, a time) are not what it says.
 */
async function expectSamePoll(ctx: CaseContext, key: string, requestId: string, first: Record<string, Node>): Promise<void> {
  const [again, third] = [await pollBody(ctx, key, requestId), await pollBody(ctx, key, requestId)];
  ctx.expectEqual(only(again, SIGNUP_FIELDS), only(first, SIGNUP_FIELDS), 'a later poll of the approved request [the members section 2.5 names]:', spec('poll-approved-members', 'signup-login-when-approved'));
  const changed = meaningfulDifferences(first, again, perAnswerMembers([again, third], SIGNUP_FIELDS));
  ctx.check(changed.length === 0, 'a later poll that says the same, but for what differs from answer to answer', () => `differs at ${changed.join(', ')}`, reference("Section 4.7 gives the members of an approved poll; the reference's answers are otherwise the same from poll to poll."));
}

/** A poll that carries none of the fields of a signup request but its status (section 4.7, "nothing else"; both readings). */
function expectNothingElse(ctx: CaseContext, polled: Record<string, Node>, status: string, rule: Parameters<CaseContext['check']>[3]): void {
  ctx.expectEqual(polled.status, status, 'status', rule);
  const extra = SIGNUP_FIELDS.filter((m) => m !== 'status' && m !== 'requestId' && m in polled);
  ctx.expectEqual(extra, [], `no other field of a signup request on a ${status} poll (found):`, rule);
  ctx.check(!('login' in polled), `no login on a ${status} request`, 'a login', spec('signup-login-when-approved'));
  ctx.expectEqual(polled, { status }, `the poll of a ${status} request:`, reference(`Section 4.7 reads two ways for a ${status} poll: nothing but its status, or none of the other fields of section 2.5; the reference answers {status} alone.`));
}

export function signupPollingCases(): Case[] {
  return [
    defineCase({
      id: 'getSignupRequest/approved-carries-the-login',
      title: 'Shows an approved request with its login, policy and no password',
      requirements: ['poll-approved-members', 'signup-approved-by-holder', 'signup-login-when-approved', 'poll-never-returns-password', 'signup-owner-managed', 'owner-managed-may-be-absent', 'signup-login-entry-is-the-catalog-entry', 'link-signup-request', 'links-single-use'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const filed = await filePending(ctx, key);
        const token = await account.signupLink(filed.requestId);
        const decided = await ctx.call('decideSignupApproval', { params: { token }, json: { decision: 'approve' } });
        ctx.expectSuccess(decided, spec('link-signup-request'), LINK_OK);
        ctx.expectEqual(body(decided).status, 'approved', "the holder's answer status", LINK_BODY, decided);
        const ex = await ctx.call('getSignupRequest', { key, params: { id: filed.requestId } });
        ctx.expectStatus(ex, 200, spec('poll-answer-200'));
        const polled = body(ex);
        ctx.expectEqual(polled.status, 'approved', 'status', spec('signup-approved-by-holder'), ex);
        expectNoPassword(ctx, polled, TOKEN_AT, spec('poll-never-returns-password'), ex);
        const login = (polled.login ?? {}) as Record<string, Node>;
        ctx.check(polled.login && typeof polled.login === 'object', 'the login entry', `login ${JSON.stringify(polled.login)}`, spec('poll-approved-members', 'signup-login-when-approved'), ex);
        ctx.expectEqual([login.website, login.hasEmail], [filed.site, true], 'the login [website, hasEmail] as filed', spec('catalog-login-website', 'catalog-login-flags'), ex);
        expectPolicy(ctx, polled.passwordPolicy, defaultPolicy(ctx), 'without password rule fields', spec('generated-password-length'), ex);
        // Absent means false (section 9 item 3): either is an approved poll's answer before the holder replaced the password.
        ctx.check(polled.passwordOwnerManaged !== true, 'passwordOwnerManaged false or absent', `passwordOwnerManaged ${polled.passwordOwnerManaged}`, spec('signup-owner-managed', 'owner-managed-may-be-absent'), ex);
        await expectCatalogEntry(ctx, key, login, 'the approved login', ex);
        await expectLinkGone(ctx, token, 'once the approval took effect', spec('links-single-use'));
        await expectSamePoll(ctx, key, filed.requestId, polled);
      },
    }),
    defineCase({
      id: 'getSignupRequest/denied-carries-nothing',
      title: 'Shows a denied request as status denied and nothing else',
      requirements: ['signup-denied', 'poll-denied-nothing-else', 'signup-login-when-approved', 'link-signup-request', 'links-single-use'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const filed = await filePending(ctx, key);
        const token = await account.signupLink(filed.requestId);
        const decided = await ctx.call('decideSignupApproval', { params: { token }, json: { decision: 'deny' } });
        ctx.expectSuccess(decided, spec('link-signup-request'), LINK_OK);
        ctx.expectEqual(body(decided).status, 'denied', "the holder's answer status", LINK_BODY, decided);
        expectNothingElse(ctx, await pollBody(ctx, key, filed.requestId), 'denied', spec('signup-denied', 'poll-denied-nothing-else'));
        await expectLinkGone(ctx, token, 'once the denial took effect', spec('links-single-use'));
      },
    }),
    defineCase({
      id: 'getSignupRequest/expires-after-lifetime',
      title: 'Expires a pending request 24 hours after filing, freeing its slot',
      requirements: ['signup-expires', 'filing-expires-in-24-hours', 'poll-expired-nothing-else', 'links-expire', 'pending-five'],
      needs: { driver: true, manualClock: true },
      costs: { spends: "the account's pending signup requests" },
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const pending = ctx.limits.value(PENDING);
        const filedAt = await ctx.clock.now();
        const first = await filePending(ctx, key);
        const lifetime = { ...spec('filing-expires-in-24-hours'), pointer: ctx.limits.pointer(LIFETIME) };
        ctx.expectEqual(first.expiresAt, filedAt + seconds(ctx, LIFETIME), 'expiresAt, the filing time on the manual clock plus the lifetime', lifetime, first.exchange);
        const token = await account.signupLink(first.requestId);
        for (let i = 1; i < pending; i++) await filePending(ctx, key);
        const now = await ctx.clock.now();
        await ctx.clock.advance(first.expiresAt - 1 - now);
        const where = { ...spec('signup-expires'), pointer: ctx.limits.pointer(LIFETIME) };
        const before = await pollBody(ctx, key, first.requestId);
        ctx.expectEqual([before.status, before.expiresAt], ['pending', first.expiresAt], '1 ms before expiresAt, the poll [status, expiresAt]', where);
        ctx.expectSuccess(await ctx.call('getSignupApproval', { params: { token } }), where, LINK_OK);
        ctx.expectEqual((await holderView(ctx, token)).status, 'pending', "1 ms before expiresAt, the holder's link status", LINK_BODY);
        await fileRefused(ctx, key, { website: ctx.site(), email: ctx.email() }, 'too_many_pending', `a request beyond the ${pending} pending`, spec('pending-five'));
        // The instant itself reads either way (the catalogue's signup-expires); a second later the request has expired under both.
        await ctx.clock.advance(1001);
        expectNothingElse(ctx, await pollBody(ctx, key, first.requestId), 'expired', spec('signup-expires', 'poll-expired-nothing-else'));
        await expectLinkGone(ctx, token, 'once the request expired', spec('links-expire'));
        await filePending(ctx, key);
        ctx.step('an expired request freed its pending slot');
      },
    }),
    defineCase({
      id: 'getSignupRequest/unknown-id-not-found',
      title: 'Answers an unknown request id with 404 request_not_found',
      requirements: ['poll-unknown-request'],
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        // A key without the signup permission: polling does not need it, so the answer is 404, not 403.
        const ex = await ctx.call('getSignupRequest', { key: await ctx.key('key'), params: { id: `sreq_${ctx.unique()}` } });
        ctx.expectError(ex, 'request_not_found', spec('poll-unknown-request'));
      },
    }),
    defineCase({
      id: 'getSignupRequest/other-key-not-found',
      title: 'Answers 404 request_not_found to any key but the filing one',
      requirements: ['poll-only-by-the-filing-key', 'keys-belong-to-an-account'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const filed = await filePending(ctx, key);
        const approved = await fileSignup(ctx, key);
        await decideSignup(ctx, account, approved.requestId, 'approve');
        const others = [
          ['another signup key of the account', (await account.issueKey({ signup: true })).key],
          ['a key of the account without the signup permission', (await account.issueKey()).key],
          ['a key of another account', await ctx.key('otherAccountKey')],
        ];
        for (const [who, other] of others) {
          for (const id of [filed.requestId, approved.requestId]) {
            ctx.expectError(await ctx.call('getSignupRequest', { key: other!, params: { id } }), 'request_not_found', spec('poll-only-by-the-filing-key'));
            ctx.step(`${who} polled ${id}: not found`);
          }
        }
        // The control: the filing key still sees both.
        ctx.expectEqual((await pollBody(ctx, key, filed.requestId)).status, 'pending', 'the filing key still sees its request', spec('poll-only-by-the-filing-key'));
        ctx.expectEqual((await pollBody(ctx, key, approved.requestId)).status, 'approved', 'the filing key still sees its approved request', spec('poll-only-by-the-filing-key'));
      },
    }),
    defineCase({
      id: 'getSignupRequest/scope-denied-after-removal',
      title: "Answers scope_denied once the login left the key's scope",
      requirements: ['signup-poll-scope-denied'],
      needs: { driver: ['removeKeyLogin'] },
      costs: {},
      async run(ctx) {
        const { account, key, keyId } = await signupSetup(ctx, { scope: [] });
        const filed = await filePending(ctx, key);
        await decideSignup(ctx, account, filed.requestId, 'approve');
        const polled = await pollBody(ctx, key, filed.requestId);
        ctx.expectEqual(polled.status, 'approved', "the scoped key's poll after approval", spec('signup-approved-by-holder'));
        await account.removeKeyLogin(keyId, polled.login.label as string);
        ctx.step(`the account holder removed ${polled.login.label} from the key's scope`);
        ctx.expectError(await ctx.call('getSignupRequest', { key, params: { id: filed.requestId } }), 'scope_denied', spec('signup-poll-scope-denied'));
      },
    }),
    defineCase({
      id: 'getSignupRequest/owner-replaced-password',
      title: 'Reports passwordOwnerManaged once the holder replaced the password',
      requirements: ['signup-owner-managed', 'owner-managed-not-rotatable', 'poll-never-returns-password'],
      needs: { driver: ['replacePassword'] },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const filed = await filePending(ctx, key, { maxLength: 20 });
        await decideSignup(ctx, account, filed.requestId, 'approve');
        const before = await pollBody(ctx, key, filed.requestId);
        const label = before.login.label as string;
        await account.replacePassword(label);
        ctx.step(`the account holder replaced the password of ${label}`);
        const ex = await ctx.call('getSignupRequest', { key, params: { id: filed.requestId } });
        ctx.expectStatus(ex, 200, spec('poll-answer-200'));
        const after = body(ex);
        ctx.expectEqual(after.passwordOwnerManaged, true, 'passwordOwnerManaged', spec('signup-owner-managed'), ex);
        ctx.expectEqual(after.passwordPolicy, before.passwordPolicy, 'passwordPolicy (the rules of the generated password, unchanged)', spec('signup-password-policy'), ex);
        expectNoPassword(ctx, after, TOKEN_AT, spec('poll-never-returns-password'), ex);
        for (const rules of [{ label }, { label, noSymbols: true }]) {
          ctx.expectError(await ctx.call('rotateLoginPassword', { key, json: rules }), 'not_rotatable', spec('owner-managed-not-rotatable'));
        }
        ctx.step('rotation refused, again and with other rules');
      },
    }),
  ];
}
