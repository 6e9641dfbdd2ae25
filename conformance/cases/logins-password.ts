import { defineCase, type Case } from '../runner/case.js';
import { expectReading } from '../runner/readings.js';
import { MISSING_LABEL_PASSWORD } from './readings.js';
import type { CaseContext } from '../runner/context.js';
import type { Exchange } from '../runner/exchange.js';
import { sampleRequest, signupSetup } from './shared-steps.js';
import { spec, type Rule } from '../runner/basis.js';
import { body } from '../runner/by-meaning.js';
import {
  CHANGE_WINDOW,
  approvedLogin,
  catalogEntry,
  defaultPolicy,
  expectNoPassword,
  expectPolicy,
  lengthRange,
  loginAndStrangers,
  safeSymbols,
  seconds,
  type PolicyExpectation,
} from './signup-steps.js';

/**
 * Section 4.9: replacing the generated password of an agent-created login. The tokens stay, the
 * answer reports the rules used, and only the creating key may rotate, within the change window,
 * while the account holder has not replaced the password; every other case is `not_rotatable`.
 */

async function rotate(ctx: CaseContext, key: string, fields: Record<string, unknown>): Promise<Exchange> {
  return ctx.call('rotateLoginPassword', { key, json: fields });
}

/** Rotates and expects 200 `rotated: true`, the rules as `want`, and no password anywhere. */
async function rotated(ctx: CaseContext, key: string, fields: Record<string, unknown>, want: PolicyExpectation, what: string, rule: Rule = spec('rotate-answer')): Promise<Exchange> {
  const ex = await rotate(ctx, key, fields);
  ctx.expectStatus(ex, 200, spec('rotate-answer'));
  const answer = body(ex);
  ctx.expectEqual(answer.rotated, true, 'rotated', spec('rotate-answer'), ex);
  expectPolicy(ctx, answer.passwordPolicy, want, what, rule, ex);
  expectNoPassword(ctx, answer, '/login/tokens/password', spec('service-never-shows-real-values'), ex);
  ctx.step(`rotated ${what}`);
  return ex;
}

export function loginPasswordCases(): Case[] {
  return [
    defineCase({
      id: 'rotateLoginPassword/rotates-keeping-tokens',
      title: 'Replaces the password behind the same tokens',
      requirements: ['rotate-answer', 'rotate-tokens-unchanged'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const { label } = await approvedLogin(ctx, account, key);
        const before = await catalogEntry(ctx, key, label);
        const ex = await rotated(ctx, key, { label }, defaultPolicy(ctx), 'without rule fields');
        const where = spec('rotate-tokens-unchanged');
        ctx.expectEqual(body(ex).login, before, "the answer's login to equal the catalog entry before the rotation:", where, ex);
        ctx.expectEqual(await catalogEntry(ctx, key, label), before, 'the catalog entry after the rotation to equal the one before:', where);
      },
    }),
    defineCase({
      id: 'rotateLoginPassword/policy-of-the-rotation',
      title: 'Reports the rules each rotation followed',
      requirements: ['rotate-answer', 'rotate-policy-without-symbols', 'rule-symbols', 'generated-password-length', 'rule-fields-optional'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const { label } = await approvedLogin(ctx, account, key);
        const [min, max] = lengthRange(ctx);
        const safe = safeSymbols(ctx);
        const defaults = defaultPolicy(ctx);
        const cases: [string, Record<string, unknown>, PolicyExpectation, Rule][] = [
          ['with noSymbols', { noSymbols: true }, { ...defaults, symbols: null }, spec('rotate-policy-without-symbols', 'rule-no-symbols')],
          [`with symbols ${safe[1]}${safe[3]} among unsafe ones`, { symbols: `${safe[1]}%${safe[3]}~` }, { ...defaults, symbols: [safe[1]!, safe[3]!] }, spec('rule-symbols')],
          [`with maxLength ${min}`, { maxLength: min }, { length: min, symbols: safe }, spec('generated-password-length')],
          [`with minLength ${max}`, { minLength: max }, { length: max, symbols: safe }, spec('generated-password-length')],
          ['with rule fields of the wrong type', { minLength: String(max), maxLength: String(min), noSymbols: 'true', symbols: 5, noRepeats: 'no' }, defaults, spec('rule-fields-optional')],
        ];
        for (const [what, rules, want, rule] of cases) await rotated(ctx, key, { label, ...rules }, want, what, rule);
      },
    }),
    defineCase({
      id: 'rotateLoginPassword/not-rotatable',
      title: 'Answers 409 not_rotatable to other keys and for unknown labels',
      requirements: ['rotate-only-creator-in-window'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key, label, strangers } = await loginAndStrangers(ctx);
        for (const [who, k, l] of strangers) {
          ctx.expectError(await rotate(ctx, k, { label: l }), 'not_rotatable', spec('rotate-only-creator-in-window'));
          ctx.step(`${who}: not rotatable`);
        }
        await rotated(ctx, key, { label }, defaultPolicy(ctx), 'by the creating key afterwards');
      },
    }),
    defineCase({
      id: 'rotateLoginPassword/change-window',
      title: 'Rotates only within seven days of the login creation',
      requirements: ['rotate-only-creator-in-window', 'deployment-defaults'],
      needs: { driver: true, manualClock: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const early = await approvedLogin(ctx, account, key);
        const late = await approvedLogin(ctx, account, key);
        const window = seconds(ctx, CHANGE_WINDOW);
        const where = { ...spec('rotate-only-creator-in-window'), pointer: ctx.limits.pointer(CHANGE_WINDOW) };
        await ctx.clock.advance(window - 1);
        await rotated(ctx, key, { label: early.label }, defaultPolicy(ctx), '1 ms before the window ends', where);
        await ctx.clock.advance(1);
        for (const login of [late, early]) ctx.expectError(await rotate(ctx, key, { label: login.label }), 'not_rotatable', where);
        ctx.step('at the end of the window: not rotatable, rotated before or not');
      },
    }),
    defineCase({
      id: 'rotateLoginPassword/invalid-rules',
      title: 'Refuses each broken rule field and a broken body with 400',
      requirements: ['rule-min-length', 'rule-max-length', 'rule-symbols', 'code-bad-request', 'rotate-only-creator-in-window'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const { label } = await approvedLogin(ctx, account, key);
        const [min, max] = lengthRange(ctx);
        const refusals: [string, string, Record<string, unknown>, Rule][] = [
          ['password_too_short', `maxLength ${min - 1}`, { label, maxLength: min - 1 }, spec('rule-max-length')],
          ['invalid_policy', `minLength ${max + 1}`, { label, minLength: max + 1 }, spec('rule-min-length')],
          ['invalid_policy', 'minLength above maxLength', { label, minLength: min + 8, maxLength: min + 4 }, spec('rule-min-length')],
          ['invalid_policy', 'a minLength that is not whole', { label, minLength: min + 0.5 }, spec('rule-min-length')],
          ['invalid_policy', 'a maxLength that is not whole', { label, maxLength: min + 8.5 }, spec('rule-max-length')],
          ['invalid_policy', 'symbols with none of the safe set', { label, symbols: 'abc%^&' }, spec('rule-symbols')],
          ['invalid_policy', 'empty symbols', { label, symbols: '' }, spec('rule-symbols')],
        ];
        for (const [code, why, fields, rule] of refusals) {
          ctx.expectError(await rotate(ctx, key, fields), code, rule);
          ctx.step(`refused ${why} with ${code}`);
        }
        expectReading(ctx, await rotate(ctx, key, { maxLength: min + 8 }), MISSING_LABEL_PASSWORD);
        ctx.step('refused a body without label');
        ctx.expectError(await ctx.call('rotateLoginPassword', { key, body: `{"label":"${label}",` }), 'bad_request', spec('code-bad-request'));
        ctx.step('refused a body that is not JSON');
        await rotated(ctx, key, { label, minLength: min + 4, maxLength: min + 4 }, { length: min + 4, symbols: safeSymbols(ctx) }, `with minLength equal to maxLength`);
      },
    }),
    defineCase({
      id: 'rotateLoginPassword/signup-not-enabled',
      title: 'Refuses a key without the signup permission',
      requirements: ['login-writes-need-signup-permission', 'signup-permission'],
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        const ex = await ctx.call('rotateLoginPassword', { key: await ctx.key('key'), json: sampleRequest(ctx.doc, 'rotateLoginPassword').json });
        ctx.expectError(ex, 'signup_not_enabled', spec('login-writes-need-signup-permission', 'signup-permission'));
      },
    }),
  ];
}
