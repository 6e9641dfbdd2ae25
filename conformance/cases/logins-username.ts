import { defineCase, type Case } from '../runner/case.js';
import { expectReading } from '../runner/readings.js';
import { MISSING_LABEL_USERNAME, MISSING_USERNAME } from './readings.js';
import type { CaseContext } from '../runner/context.js';
import type { Exchange } from '../runner/exchange.js';
import { sampleRequest, signupSetup } from './shared-steps.js';
import { CHANGE_WINDOW, approvedLogin, expectCatalogEntry, loginAndStrangers, seconds } from './signup-steps.js';
import { reference, spec, type Rule } from '../runner/basis.js';
import { body, meaningfulDifferences, perAnswerMembers } from '../runner/by-meaning.js';

/**
 * Section 4.8: the username of an agent-created login. Recorded once (the identical one again
 * succeeds with the same envelope, even after the window), only by the creating key, only within
 * the change window after creation.
 */

async function setUsername(ctx: CaseContext, key: string, label: string, username: string): Promise<Exchange> {
  return ctx.call('setLoginUsername', { key, json: { label, username } });
}

/** Sets a username and expects 200 with the updated entry: `hasUsername` and a username token. */
async function recorded(ctx: CaseContext, key: string, label: string, username: string, what: string, rule: Rule = spec('username-answer')): Promise<Exchange> {
  const ex = await setUsername(ctx, key, label, username);
  ctx.expectStatus(ex, 200, rule);
  const login = (body(ex).login ?? {}) as Record<string, unknown>;
  const tokens = (login.tokens ?? {}) as Record<string, unknown>;
  ctx.check(login.hasUsername === true && typeof tokens.username === 'string', 'the login with hasUsername true and a username token', JSON.stringify(login), spec('username-answer'), ex);
  ctx.step(`${what}: 200`);
  return ex;
}

/**
 * Section 4.8 rule 1: the identical username again succeeds "with the same envelope". Its named
 * member, `login`, compares by value; members that differ from answer to answer (a request id, a
 * time) are not the envelope (the catalogue lists both readings).
 */
async function expectSameEnvelope(ctx: CaseContext, again: Exchange, first: Exchange, what: string, repeat: () => Promise<Exchange>): Promise<void> {
  ctx.expectStatus(again, 200, spec('username-recorded-once'));
  ctx.expectEqual(body(again).login, body(first).login, `${what}, the same login as the first time:`, spec('username-recorded-once'), again);
  const third = await repeat();
  const changed = meaningfulDifferences(body(first), body(again), perAnswerMembers([body(again), body(third)], ['login']));
  ctx.check(changed.length === 0, `${what}, the same envelope as the first time but for what differs from answer to answer`, () => `differs at ${changed.join(', ')}`, spec('username-recorded-once'), again);
  ctx.expectEqual(body(again), body(first), `${what}, the same body as the first time:`, reference('The reference answers the identical body each time; section 4.8 asks for the same envelope.'), again);
}

export function loginUsernameCases(): Case[] {
  return [
    defineCase({
      id: 'setLoginUsername/recorded-once',
      title: 'Records a username once; the same again succeeds, another is 409',
      requirements: ['username-recorded-once', 'username-answer', 'signup-login-entry-is-the-catalog-entry'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const { label } = await approvedLogin(ctx, account, key);
        const username = `shopper.${ctx.unique('u')}`;
        const first = await recorded(ctx, key, label, username, 'recorded the username');
        await expectCatalogEntry(ctx, key, body(first).login as Record<string, unknown>, 'the updated login', first);
        const again = () => setUsername(ctx, key, label, username);
        await expectSameEnvelope(ctx, await again(), first, 'the identical username again', again);
        ctx.expectError(await setUsername(ctx, key, label, `${username}x`), 'username_already_set', spec('username-recorded-once'));
        await expectSameEnvelope(ctx, await again(), first, 'the identical username after a refused one', again);
      },
    }),
    defineCase({
      id: 'setLoginUsername/username-given-at-filing',
      title: 'Treats the username given at filing as recorded',
      requirements: ['username-recorded-once', 'catalog-login-flags'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const username = `filed.${ctx.unique('u')}`;
        const { label, login } = await approvedLogin(ctx, account, key, { username });
        ctx.expectEqual(login.hasUsername, true, 'hasUsername of a login filed with a username', spec('catalog-login-flags'));
        await recorded(ctx, key, label, username, 'the username given at filing, again', spec('username-recorded-once'));
        ctx.expectError(await setUsername(ctx, key, label, `${username}x`), 'username_already_set', spec('username-recorded-once'));
      },
    }),
    defineCase({
      id: 'setLoginUsername/only-the-creating-key',
      title: 'Answers 404 not_found to other keys and for unknown labels',
      requirements: ['username-creating-key-in-window'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key, label, strangers } = await loginAndStrangers(ctx);
        const username = `shopper.${ctx.unique('u')}`;
        for (const [who, k, l] of strangers) {
          ctx.expectError(await setUsername(ctx, k, l, username), 'not_found', spec('username-creating-key-in-window'));
          ctx.step(`${who}: not found`);
        }
        await recorded(ctx, key, label, username, 'the creating key set it afterwards');
      },
    }),
    defineCase({
      id: 'setLoginUsername/change-window',
      title: 'Takes a username only within seven days of the login creation',
      requirements: ['username-creating-key-in-window', 'username-recorded-once', 'deployment-defaults'],
      needs: { driver: true, manualClock: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const early = await approvedLogin(ctx, account, key);
        const late = await approvedLogin(ctx, account, key);
        const created = await ctx.clock.now();
        const window = seconds(ctx, CHANGE_WINDOW);
        const where = { ...spec('username-creating-key-in-window'), pointer: ctx.limits.pointer(CHANGE_WINDOW) };
        await ctx.clock.advance(window - 1);
        const username = `shopper.${ctx.unique('u')}`;
        const first = await recorded(ctx, key, early.label, username, '1 ms before the window ends', where);
        await ctx.clock.advance(1);
        ctx.expectError(await setUsername(ctx, key, late.label, username), 'not_found', where);
        ctx.step(`at ${created + window}, the end of the window: not found`);
        const again = () => setUsername(ctx, key, early.label, username);
        await expectSameEnvelope(ctx, await again(), first, 'the identical username after the window', again);
      },
    }),
    defineCase({
      id: 'setLoginUsername/invalid-username',
      title: 'Refuses a short or control-character username and a broken body',
      requirements: ['username-body', 'code-bad-request'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const { label } = await approvedLogin(ctx, account, key);
        for (const [why, username] of [
          ['3 characters', 'abc'],
          ['a BEL character', 'ab\u0007cd'],
          ['a tab', 'shop\tper'],
          ['a C1 control character', 'shop\u0085per'],
        ]) {
          ctx.expectError(await setUsername(ctx, key, label, username!), 'invalid_username', spec('username-body'));
          ctx.step(`refused a username with ${why}`);
        }
        for (const [reading, json] of [
          [MISSING_USERNAME, { label }],
          [MISSING_LABEL_USERNAME, { username: 'shopper' }],
        ] as const) {
          expectReading(ctx, await ctx.call('setLoginUsername', { key, json }), reading);
          ctx.step(`refused ${reading.request}`);
        }
        ctx.expectError(await ctx.call('setLoginUsername', { key, body: `{"label":"${label}","username":` }), 'bad_request', spec('code-bad-request'));
        ctx.step('refused a body that is not JSON');
        // The control: the same login takes a username of exactly 4 characters.
        await recorded(ctx, key, label, 'abcd', 'a username of exactly 4 characters', spec('username-body'));
      },
    }),
    defineCase({
      id: 'setLoginUsername/signup-not-enabled',
      title: 'Refuses a key without the signup permission',
      requirements: ['login-writes-need-signup-permission', 'signup-permission'],
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        const ex = await ctx.call('setLoginUsername', { key: await ctx.key('key'), json: sampleRequest(ctx.doc, 'setLoginUsername').json });
        ctx.expectError(ex, 'signup_not_enabled', spec('login-writes-need-signup-permission', 'signup-permission'));
      },
    }),
  ];
}
