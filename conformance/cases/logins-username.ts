import { defineCase, type Case } from '../runner/case.js';
import { expectReading } from '../runner/readings.js';
import { MISSING_LABEL_USERNAME, MISSING_USERNAME } from './readings.js';
import type { CaseContext } from '../runner/context.js';
import type { Exchange } from '../runner/exchange.js';
import { sampleRequest, signupSetup } from './support.js';
import { CHANGE_WINDOW, approvedLogin, expectCatalogEntry, loginAndStrangers, seconds } from './signup-steps.js';

/**
 * Section 4.8: the username of an agent-created login. Recorded once (the identical one again
 * succeeds with the same envelope, even after the window), only by the creating key, only within
 * the change window after creation.
 */

async function setUsername(ctx: CaseContext, key: string, label: string, username: string): Promise<Exchange> {
  return ctx.call('setLoginUsername', { key, json: { label, username } });
}

/** Sets a username and expects 200 with the updated entry: `hasUsername` and a username token. */
async function recorded(ctx: CaseContext, key: string, label: string, username: string, what: string): Promise<Exchange> {
  const ex = await setUsername(ctx, key, label, username);
  ctx.expectStatus(ex, 200);
  const login = (ex.response.json as { login: Record<string, unknown> }).login;
  const tokens = login.tokens as Record<string, unknown>;
  ctx.check(login.hasUsername === true && typeof tokens.username === 'string', 'the login with hasUsername true and a username token', JSON.stringify(login), { sections: ['4.8', '2.1'] }, ex);
  ctx.step(`${what}: 200`);
  return ex;
}

function expectSameEnvelope(ctx: CaseContext, again: Exchange, first: Exchange, what: string): void {
  ctx.expectStatus(again, 200);
  ctx.expectEqual(again.response.json, first.response.json, `${what}, the same envelope as the first time:`, { sections: ['4.8'] }, again);
}

export function loginUsernameCases(): Case[] {
  return [
    defineCase({
      id: 'setLoginUsername/recorded-once',
      title: 'Records a username once; the same again succeeds, another is 409',
      sections: ['4.8', '2.1', '7.1'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const { label } = await approvedLogin(ctx, account, key);
        const username = `shopper.${ctx.unique('u')}`;
        const first = await recorded(ctx, key, label, username, 'recorded the username');
        await expectCatalogEntry(ctx, key, (first.response.json as { login: Record<string, unknown> }).login, 'the updated login', first);
        expectSameEnvelope(ctx, await setUsername(ctx, key, label, username), first, 'the identical username again');
        ctx.expectError(await setUsername(ctx, key, label, `${username}x`), 'username_already_set');
        expectSameEnvelope(ctx, await setUsername(ctx, key, label, username), first, 'the identical username after a refused one');
      },
    }),
    defineCase({
      id: 'setLoginUsername/username-given-at-filing',
      title: 'Treats the username given at filing as recorded',
      sections: ['4.8', '4.6', '7.1'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const username = `filed.${ctx.unique('u')}`;
        const { label, login } = await approvedLogin(ctx, account, key, { username });
        ctx.expectEqual(login.hasUsername, true, 'hasUsername of a login filed with a username', { sections: ['2.1', '4.6'] });
        await recorded(ctx, key, label, username, 'the username given at filing, again');
        ctx.expectError(await setUsername(ctx, key, label, `${username}x`), 'username_already_set');
      },
    }),
    defineCase({
      id: 'setLoginUsername/only-the-creating-key',
      title: 'Answers 404 not_found to other keys and for unknown labels',
      sections: ['4.8', '7.1'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key, label, strangers } = await loginAndStrangers(ctx);
        const username = `shopper.${ctx.unique('u')}`;
        for (const [who, k, l] of strangers) {
          ctx.expectError(await setUsername(ctx, k, l, username), 'not_found');
          ctx.step(`${who}: not found`);
        }
        await recorded(ctx, key, label, username, 'the creating key set it afterwards');
      },
    }),
    defineCase({
      id: 'setLoginUsername/change-window',
      title: 'Takes a username only within seven days of the login creation',
      sections: ['4.8', '9', '7.1'],
      needs: { driver: true, manualClock: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const early = await approvedLogin(ctx, account, key);
        const late = await approvedLogin(ctx, account, key);
        const created = await ctx.clock.now();
        const window = seconds(ctx, CHANGE_WINDOW);
        const where = { pointer: ctx.limits.pointer(CHANGE_WINDOW), sections: ['4.8', '9'] };
        await ctx.clock.advance(window - 1);
        const username = `shopper.${ctx.unique('u')}`;
        const first = await recorded(ctx, key, early.label, username, '1 ms before the window ends');
        await ctx.clock.advance(1);
        ctx.expectError(await setUsername(ctx, key, late.label, username), 'not_found', where);
        ctx.step(`at ${created + window}, the end of the window: not found`);
        expectSameEnvelope(ctx, await setUsername(ctx, key, early.label, username), first, 'the identical username after the window');
      },
    }),
    defineCase({
      id: 'setLoginUsername/invalid-username',
      title: 'Refuses a short or control-character username and a broken body',
      sections: ['4.8', '7.1'],
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
          ctx.expectError(await setUsername(ctx, key, label, username!), 'invalid_username');
          ctx.step(`refused a username with ${why}`);
        }
        for (const [reading, json] of [
          [MISSING_USERNAME, { label }],
          [MISSING_LABEL_USERNAME, { username: 'shopper' }],
        ] as const) {
          expectReading(ctx, await ctx.call('setLoginUsername', { key, json }), reading);
          ctx.step(`refused ${reading.request}`);
        }
        ctx.expectError(await ctx.call('setLoginUsername', { key, body: `{"label":"${label}","username":` }), 'bad_request');
        ctx.step('refused a body that is not JSON');
        await recorded(ctx, key, label, 'abcd', 'a username of exactly 4 characters');
      },
    }),
    defineCase({
      id: 'setLoginUsername/signup-not-enabled',
      title: 'Refuses a key without the signup permission',
      sections: ['4.5', '5', '7.1'],
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        const ex = await ctx.call('setLoginUsername', { key: await ctx.key('key'), json: sampleRequest(ctx.doc, 'setLoginUsername').json });
        ctx.expectError(ex, 'signup_not_enabled');
      },
    }),
  ];
}
