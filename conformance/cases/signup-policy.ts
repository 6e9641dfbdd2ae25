import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Account } from '../runner/account.js';
import { signupApproved, signupSetup } from './shared-steps.js';
import { defaultPolicy, expectPolicy, lengthRange, safeSymbols, type PolicyExpectation } from './signup-steps.js';
import { spec, type Rule } from '../runner/basis.js';

/**
 * Sections 2.5 and 2.6: the password rule fields of a signup request, as the approved poll's
 * `passwordPolicy` reports the rules the generated password followed. A value of the wrong type is
 * ignored and the defaults apply, where plain JSON Schema would refuse it.
 */

type Rules = Record<string, unknown>;

/** Files each set of rules, approves it, and checks the policy the poll reports. */
async function expectPolicies(ctx: CaseContext, account: Account, key: string, rule: Rule, cases: [string, Rules, PolicyExpectation][]): Promise<void> {
  for (const [what, rules, want] of cases) {
    const { polled, filed } = await signupApproved(ctx, account, key, rules);
    expectPolicy(ctx, polled.passwordPolicy, want, `for ${what}`, rule, filed.exchange);
    ctx.step(`approved with ${what}: policy as expected`);
  }
}

export function signupPolicyCases(): Case[] {
  return [
    defineCase({
      id: 'getSignupRequest/wrong-type-rule-fields-ignored',
      title: 'Ignores rule fields of the wrong type and applies the defaults',
      requirements: ['rule-fields-optional', 'signup-password-policy'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const [min] = lengthRange(ctx);
        const defaults = defaultPolicy(ctx);
        await expectPolicies(ctx, account, key, spec('rule-fields-optional'), [
          ['rule fields given as strings', { minLength: String(min + 30), maxLength: String(min + 1), noSymbols: 'true', symbols: 7, noRepeats: 'yes' }, defaults],
          ['rule fields given as null, arrays and objects', { minLength: null, maxLength: [min], noSymbols: 1, symbols: ['!'], noRepeats: {} }, defaults],
        ]);
      },
    }),
    defineCase({
      id: 'getSignupRequest/policy-without-symbols',
      title: 'Reports no symbol class and no symbolAlphabet with noSymbols',
      requirements: ['rule-no-symbols', 'signup-password-policy'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const defaults = defaultPolicy(ctx);
        await expectPolicies(ctx, account, key, spec('rule-no-symbols'), [
          ['noSymbols true', { noSymbols: true }, { ...defaults, symbols: null }],
          ['noSymbols false', { noSymbols: false }, defaults],
        ]);
      },
    }),
    defineCase({
      id: 'getSignupRequest/policy-narrowed-symbols',
      title: 'Narrows the symbols to the safe ones named, ignoring the rest',
      requirements: ['rule-symbols', 'signup-password-policy'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const safe = safeSymbols(ctx);
        const [a, b, c] = [safe[0]!, safe[2]!, safe.at(-1)!];
        const defaults = defaultPolicy(ctx);
        await expectPolicies(ctx, account, key, spec('rule-symbols'), [
          [`symbols ${a}${b}${c} among unsafe ones`, { symbols: `${a}%z${b}^ ${c}~` }, { ...defaults, symbols: [a, b, c] }],
          [`symbols ${b} alone, twice`, { symbols: `${b}${b}` }, { ...defaults, symbols: [b] }],
        ]);
      },
    }),
    defineCase({
      id: 'getSignupRequest/policy-length-range',
      title: 'Generates a password of a length within the rules and 12 to 64',
      requirements: ['generated-password-length', 'signup-password-policy'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const [min, max] = lengthRange(ctx);
        const symbols = safeSymbols(ctx);
        await expectPolicies(ctx, account, key, spec('generated-password-length'), [
          [`maxLength ${min}`, { maxLength: min }, { length: min, symbols }],
          [`minLength ${max}`, { minLength: max }, { length: max, symbols }],
          [`minLength ${min + 18} and maxLength ${min + 28}`, { minLength: min + 18, maxLength: min + 28 }, { length: [min + 18, min + 28], symbols }],
          [`minLength ${min - 4} and maxLength ${max * 4}`, { minLength: min - 4, maxLength: max * 4 }, { length: [min, max], symbols }],
        ]);
      },
    }),
  ];
}
