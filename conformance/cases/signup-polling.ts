import { defineCase, type Case } from '../runner/case.js';
import type { Node } from '../runner/document.js';
import { decideSignup, fileSignup, pollBody, signupSetup, LINK_BODY } from './support.js';
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

export function signupPollingCases(): Case[] {
  return [
    defineCase({
      id: 'getSignupRequest/approved-carries-the-login',
      title: 'Shows an approved request with its login, policy and no password',
      sections: ['4.7', '2.5', '2.1', '3', '4.11'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const filed = await filePending(ctx, key);
        const token = await account.signupLink(filed.requestId);
        const decided = await ctx.call('decideSignupApproval', { params: { token }, json: { decision: 'approve' } });
        ctx.expectStatus(decided, 200);
        ctx.expectEqual((decided.response.json as { status: string }).status, 'approved', "the holder's answer status", { basis: LINK_BODY }, decided);
        const ex = await ctx.call('getSignupRequest', { key, params: { id: filed.requestId } });
        ctx.expectStatus(ex, 200);
        const polled = ex.response.json as Record<string, Node>;
        ctx.expectEqual(polled.status, 'approved', 'status', { sections: ['3', '4.7'] }, ex);
        expectNoPassword(ctx, polled, TOKEN_AT, ex);
        const login = polled.login as Record<string, Node>;
        ctx.expectEqual([login.website, login.hasEmail], [filed.site, true], 'the login [website, hasEmail] as filed', { sections: ['2.1', '4.6'] }, ex);
        expectPolicy(ctx, polled.passwordPolicy, defaultPolicy(ctx), 'without password rule fields', ex);
        ctx.check(polled.passwordOwnerManaged !== true, 'passwordOwnerManaged false or absent', `passwordOwnerManaged ${polled.passwordOwnerManaged}`, { sections: ['2.5', '9'] }, ex);
        await expectCatalogEntry(ctx, key, login, 'the approved login', ex);
        await expectLinkGone(ctx, token, 'once the approval took effect');
        ctx.expectEqual(await pollBody(ctx, key, filed.requestId), polled, 'a later poll (approved is final)', { sections: ['4.7'] });
      },
    }),
    defineCase({
      id: 'getSignupRequest/denied-carries-nothing',
      title: 'Shows a denied request as status denied and nothing else',
      sections: ['4.7', '2.5', '3', '4.11'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const filed = await filePending(ctx, key);
        const token = await account.signupLink(filed.requestId);
        const decided = await ctx.call('decideSignupApproval', { params: { token }, json: { decision: 'deny' } });
        ctx.expectStatus(decided, 200);
        ctx.expectEqual((decided.response.json as { status: string }).status, 'denied', "the holder's answer status", { basis: LINK_BODY }, decided);
        ctx.expectEqual(await pollBody(ctx, key, filed.requestId), { status: 'denied' }, 'the poll of a denied request', { sections: ['4.7', '2.5'] });
        await expectLinkGone(ctx, token, 'once the denial took effect');
      },
    }),
    defineCase({
      id: 'getSignupRequest/expires-after-lifetime',
      title: 'Expires a pending request 24 hours after filing, freeing its slot',
      sections: ['3', '4.7', '4.6', '8.3', '8.4', '4.11'],
      needs: { driver: true, manualClock: true },
      costs: { spends: "the account's pending signup requests" },
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const pending = ctx.limits.value(PENDING);
        const filedAt = await ctx.clock.now();
        const first = await filePending(ctx, key);
        ctx.expectEqual(first.expiresAt, filedAt + seconds(ctx, LIFETIME), 'expiresAt, the filing time on the manual clock plus the lifetime', { pointer: ctx.limits.pointer(LIFETIME), sections: ['4.6', '3'] }, first.exchange);
        const token = await account.signupLink(first.requestId);
        for (let i = 1; i < pending; i++) await filePending(ctx, key);
        const now = await ctx.clock.now();
        await ctx.clock.advance(first.expiresAt - 1 - now);
        const where = { pointer: ctx.limits.pointer(LIFETIME), sections: ['3', '4.6', '8.4'] };
        const before = await pollBody(ctx, key, first.requestId);
        ctx.expectEqual([before.status, before.expiresAt], ['pending', first.expiresAt], '1 ms before expiresAt, the poll [status, expiresAt]', where);
        ctx.expectStatus(await ctx.call('getSignupApproval', { params: { token } }), 200, { ...where, sections: ['3', '4.11', '8.5'] });
        ctx.expectEqual((await holderView(ctx, token)).status, 'pending', "1 ms before expiresAt, the holder's link status", { basis: LINK_BODY });
        await fileRefused(ctx, key, { website: ctx.site(), email: ctx.email() }, 'too_many_pending', `a request beyond the ${pending} pending`);
        await ctx.clock.advance(1);
        ctx.expectEqual(await pollBody(ctx, key, first.requestId), { status: 'expired' }, 'at expiresAt, the poll', where);
        await expectLinkGone(ctx, token, 'once the request expired');
        await filePending(ctx, key);
        ctx.step('an expired request freed its pending slot');
      },
    }),
    defineCase({
      id: 'getSignupRequest/unknown-id-not-found',
      title: 'Answers an unknown request id with 404 request_not_found',
      sections: ['4.7', '4.5', '7.1'],
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        // A key without the signup permission: polling does not need it, so the answer is 404, not 403.
        const ex = await ctx.call('getSignupRequest', { key: await ctx.key('key'), params: { id: `sreq_${ctx.unique()}` } });
        ctx.expectError(ex, 'request_not_found');
      },
    }),
    defineCase({
      id: 'getSignupRequest/other-key-not-found',
      title: 'Answers 404 request_not_found to any key but the filing one',
      sections: ['4.7', '4.5', '7.1'],
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
            ctx.expectError(await ctx.call('getSignupRequest', { key: other!, params: { id } }), 'request_not_found');
            ctx.step(`${who} polled ${id}: not found`);
          }
        }
        ctx.expectEqual((await pollBody(ctx, key, filed.requestId)).status, 'pending', 'the filing key still sees its request', { sections: ['4.7'] });
      },
    }),
    defineCase({
      id: 'getSignupRequest/scope-denied-after-removal',
      title: "Answers scope_denied once the login left the key's scope",
      sections: ['4.7', '3', '5', '7.1'],
      needs: { driver: ['removeKeyLogin'] },
      costs: {},
      async run(ctx) {
        const { account, key, keyId } = await signupSetup(ctx, { scope: [] });
        const filed = await filePending(ctx, key);
        await decideSignup(ctx, account, filed.requestId, 'approve');
        const polled = await pollBody(ctx, key, filed.requestId);
        ctx.expectEqual(polled.status, 'approved', 'the scoped key\'s poll after approval', { sections: ['3', '4.7'] });
        await account.removeKeyLogin(keyId, polled.login.label as string);
        ctx.step(`the account holder removed ${polled.login.label} from the key's scope`);
        ctx.expectError(await ctx.call('getSignupRequest', { key, params: { id: filed.requestId } }), 'scope_denied');
      },
    }),
    defineCase({
      id: 'getSignupRequest/owner-replaced-password',
      title: 'Reports passwordOwnerManaged once the holder replaced the password',
      sections: ['4.7', '2.5', '4.9', '7.1'],
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
        ctx.expectStatus(ex, 200);
        const after = ex.response.json as Record<string, unknown>;
        ctx.expectEqual(after.passwordOwnerManaged, true, 'passwordOwnerManaged', { sections: ['2.5', '4.7'] }, ex);
        ctx.expectEqual(after.passwordPolicy, before.passwordPolicy, 'passwordPolicy (the rules of the generated password, unchanged)', { sections: ['4.7'] }, ex);
        expectNoPassword(ctx, after, TOKEN_AT, ex);
        for (const body of [{ label }, { label, noSymbols: true }]) {
          ctx.expectError(await ctx.call('rotateLoginPassword', { key, json: body }), 'not_rotatable', { sections: ['4.7', '4.9'] });
        }
        ctx.step('rotation refused, again and with other rules');
      },
    }),
  ];
}
