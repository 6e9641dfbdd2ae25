import { defineCase, type Case } from '../runner/case.js';
import { expectReading } from '../runner/readings.js';
import { describeResponse } from '../runner/context.js';
import { MISSING_EMAIL, MISSING_WEBSITE } from './readings.js';
import type { CaseContext } from '../runner/context.js';
import { RunnerError } from '../runner/outcome.js';
import { pollBody, signupSetup, LINK_BODY } from './shared-steps.js';
import { reference, spec, type Rule } from '../runner/basis.js';
import { LIFETIME, fileRefused, filePending, holderView, lengthRange, seconds } from './signup-steps.js';

/**
 * Sections 4.6, 2.6 and 7.1: filing a signup request. Each refusal breaks exactly one rule of a
 * body that is otherwise valid, and the boundary that passes is filed beside it.
 */

/** An address of exactly `length` characters: a short local part, a domain of labels of at most 60. */
function emailOfLength(ctx: CaseContext, length: number): string {
  const local = ctx.unique('e');
  let rest = length - local.length - 1 - '.com'.length;
  if (rest < 1) throw new RunnerError('runner', `no address of ${length} characters with local part ${local}`);
  const labels: string[] = [];
  while (rest > 61) {
    labels.push('a'.repeat(60));
    rest -= 61;
  }
  labels.push('b'.repeat(rest));
  return `${local}@${labels.join('.')}.com`;
}

type Body = Record<string, unknown>;

/** Sends each body (the site and email filled in when absent) and expects `code` for each, by `rule`. */
export async function refuseEach(ctx: CaseContext, key: string, code: string, bodies: [string, Body][], rule: Rule): Promise<void> {
  for (const [why, body] of bodies) await fileRefused(ctx, key, { website: ctx.site(), email: ctx.email(), ...body }, code, why, rule);
}

/** Counting characters as UTF-16 units is the other reading of "characters" (the catalogue's filing-username-shape). */
const CODE_POINTS = reference('Section 4.6 asks for at least 4 characters, which reads as code points or as UTF-16 units; the reference counts code points.');

export function signupFilingCases(): Case[] {
  return [
    defineCase({
      id: 'fileSignupRequest/files-a-pending-request',
      title: 'Files a pending request that expires 24 hours after filing',
      requirements: ['filing-answer-202', 'filing-expires-in-24-hours', 'signup-files-pending', 'poll-pending-expires-at'],
      needs: { driver: ['clock'] },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        const before = await ctx.clock.now();
        const filed = await filePending(ctx, key);
        const after = await ctx.clock.now();
        const lifetime = seconds(ctx, LIFETIME);
        const where = { ...spec('filing-expires-in-24-hours'), pointer: ctx.limits.pointer(LIFETIME) };
        ctx.check(
          filed.expiresAt >= before + lifetime && filed.expiresAt <= after + lifetime,
          `expiresAt ${lifetime} ms after filing (between ${before + lifetime} and ${after + lifetime})`,
          `expiresAt ${filed.expiresAt}`,
          where,
          filed.exchange,
        );
        const polled = await pollBody(ctx, key, filed.requestId);
        ctx.expectEqual([polled.status, polled.expiresAt], ['pending', filed.expiresAt], 'the poll of a pending request [status, expiresAt]', spec('poll-pending-expires-at', 'signup-expires-at'));
        const view = await holderView(ctx, await account.signupLink(filed.requestId));
        ctx.expectEqual([view.status, view.website, view.email], ['pending', filed.site, filed.email], "the holder's link [status, website, email]", { ...LINK_BODY, pointer: '#/components/schemas/SignupApproval' });
      },
    }),
    defineCase({
      id: 'fileSignupRequest/signup-not-enabled',
      title: 'Refuses a key without the signup permission',
      requirements: ['login-writes-need-signup-permission', 'signup-permission'],
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        await fileRefused(ctx, await ctx.key('key'), { website: ctx.site(), email: ctx.email() }, 'signup_not_enabled', 'a key without the signup permission', spec('login-writes-need-signup-permission', 'signup-permission'));
      },
    }),
    defineCase({
      id: 'fileSignupRequest/email-length-bounds',
      title: 'Takes an email of 4 and 254 characters, not 3 or 255',
      requirements: ['filing-email-shape'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        await refuseEach(ctx, key, 'invalid_email', [
          ['an email of 3 characters', { email: 'a@b' }],
          ['an email of 255 characters', { email: emailOfLength(ctx, 255) }],
        ], spec('filing-email-shape'));
        await filePending(ctx, key, { email: 'a@bc' });
        await filePending(ctx, key, { email: emailOfLength(ctx, 254) });
      },
    }),
    defineCase({
      id: 'fileSignupRequest/email-one-at-sign',
      title: 'Refuses an email with two @ or none as invalid_email',
      requirements: ['filing-email-shape'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        const local = ctx.unique('e');
        await refuseEach(ctx, key, 'invalid_email', [
          ['an email with two @', { email: `${local}@x@example.com` }],
          ['an email with no @', { email: `${local}.example.com` }],
        ], spec('filing-email-shape'));
        // The control: the same address with one @ is taken.
        await filePending(ctx, key, { email: `${local}@example.com` });
      },
    }),
    defineCase({
      id: 'fileSignupRequest/email-no-whitespace',
      title: 'Refuses an email with whitespace as invalid_email',
      requirements: ['filing-email-shape'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        const local = ctx.unique('e');
        await refuseEach(ctx, key, 'invalid_email', [
          ['an email with a space inside', { email: `${local} x@example.com` }],
          ['an email with a leading space', { email: ` ${local}@example.com` }],
          ['an email with a trailing tab', { email: `${local}@example.com\t` }],
          ['an email with a line feed', { email: `${local}@example.com\n` }],
        ], spec('filing-email-shape'));
        // Whether a no-break space is whitespace is one of the two readings the catalogue lists.
        await refuseEach(ctx, key, 'invalid_email', [['an email with a no-break space', { email: `${local}\u00a0x@example.com` }]], reference('Section 4.6 refuses whitespace in an email; whether whitespace outside ASCII counts is open. The reference refuses every Unicode White_Space character.'));
        await filePending(ctx, key, { email: `${local}x@example.com` });
      },
    }),
    defineCase({
      id: 'fileSignupRequest/website-not-registrable',
      title: 'Refuses a subdomain, a public suffix or an IP as invalid_website',
      requirements: ['filing-website-registrable'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        const name = ctx.unique('rd');
        await refuseEach(ctx, key, 'invalid_website', [
          ['a subdomain', { website: `www.${name}.com` }],
          ['a subdomain under a two-label suffix', { website: `shop.${name}.co.uk` }],
          ['a bare public suffix', { website: 'com' }],
          ['a bare two-label public suffix', { website: 'co.uk' }],
          ['an IPv4 address', { website: '192.0.2.10' }],
          ['an IPv6 address', { website: '[2001:db8::1]' }],
        ], spec('filing-website-registrable'));
        await filePending(ctx, key, { website: `${name}.co.uk` });
      },
    }),
    defineCase({
      id: 'fileSignupRequest/username-rules',
      title: 'Refuses a username under 4 characters or with a control character',
      requirements: ['filing-username-shape'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        await refuseEach(ctx, key, 'invalid_username', [
          ['a username of 3 characters', { username: 'abc' }],
          ['a username with a BEL character', { username: 'shop\u0007per' }],
          ['a username with a NUL character', { username: '\u0000shopper' }],
          ['a username ending in a line feed', { username: 'shopper\n' }],
          ['a username with a DEL character', { username: 'shop\u007fper' }],
          ['a username with a C1 control character', { username: 'shop\u0085per' }],
        ], spec('filing-username-shape'));
        await refuseEach(ctx, key, 'invalid_username', [['a username of 3 characters outside the BMP (6 UTF-16 units)', { username: '\u{1F600}\u{1F601}\u{1F602}' }]], CODE_POINTS);
        await filePending(ctx, key, { username: 'abcd' });
        await filePending(ctx, key, { username: '\u{1F600}\u{1F601}\u{1F602}\u{1F603}' });
      },
    }),
    defineCase({
      id: 'fileSignupRequest/max-length-below-minimum',
      title: 'Refuses maxLength 11 as password_too_short and takes 12',
      requirements: ['rule-max-length'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        const [min] = lengthRange(ctx);
        await refuseEach(ctx, key, 'password_too_short', [[`maxLength ${min - 1}`, { maxLength: min - 1 }]], spec('rule-max-length'));
        await filePending(ctx, key, { maxLength: min });
      },
    }),
    defineCase({
      id: 'fileSignupRequest/invalid-policy',
      title: 'Refuses each broken length or symbols rule as invalid_policy',
      requirements: ['rule-min-length', 'rule-max-length', 'rule-symbols', 'code-invalid-policy'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        const [min, max] = lengthRange(ctx);
        await refuseEach(ctx, key, 'invalid_policy', [
          [`minLength ${max + 1}`, { minLength: max + 1 }],
          ['minLength above maxLength', { minLength: min + 8, maxLength: min + 4 }],
          ['a minLength that is not whole', { minLength: min + 0.5 }],
        ], spec('rule-min-length', 'code-invalid-policy'));
        await refuseEach(ctx, key, 'invalid_policy', [['a maxLength that is not whole', { maxLength: min + 8.5 }]], spec('rule-max-length', 'code-invalid-policy'));
        await refuseEach(ctx, key, 'invalid_policy', [
          ['symbols with none of the safe set', { symbols: 'abc%^&' }],
          ['empty symbols', { symbols: '' }],
        ], spec('rule-symbols'));
        await filePending(ctx, key, { minLength: max });
        await filePending(ctx, key, { minLength: min + 4, maxLength: min + 4 });
      },
    }),
    defineCase({
      id: 'fileSignupRequest/body-not-json-or-incomplete',
      title: 'Refuses a body that is not JSON or misses a member',
      requirements: ['code-bad-request', 'filing-website-registrable', 'filing-email-shape'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        // The control: a whole body is taken, so each refusal below is of the flaw it carries.
        await filePending(ctx, key);
        for (const [why, body] of [
          ['a body cut short', `{"website":"${ctx.site()}","email":`],
          ['a body that is not JSON', 'website=example.com'],
        ]) {
          ctx.expectError(await ctx.call('fileSignupRequest', { key, body }), 'bad_request', spec('code-bad-request'));
          ctx.step(`refused ${why}`);
        }
        for (const [reading, body] of [
          [MISSING_WEBSITE, { email: ctx.email() }],
          [MISSING_EMAIL, { website: ctx.site() }],
        ] as const) {
          const ex = await ctx.call('fileSignupRequest', { key, json: body });
          expectReading(ctx, ex, reading);
          ctx.step(`refused ${reading.request} with ${describeResponse(ex)}`);
        }
      },
    }),
  ];
}
