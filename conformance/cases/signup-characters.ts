import { defineCase, type Case } from '../runner/case.js';
import { reference, spec } from '../runner/basis.js';
import { LINK_OK } from './shared-steps.js';
import { fileSignup, signupSetup } from './shared-steps.js';
import { refuseEach } from './signup-filing.js';

/**
 * The characters of the email and the username of a signup request (sections 4.6 and 8.7) and how
 * the account holder's page shows them. "No whitespace" is the specification's; whether whitespace
 * outside ASCII counts (U+0085, U+2028, U+3000) is one of its two readings, and the reference's is
 * every script's. Control characters in an email, and how the page shows the text, are the
 * reference's choices.
 */

const UNICODE_WHITESPACE = reference('Section 4.6 refuses whitespace in an email; whether whitespace outside ASCII counts is open. The reference refuses every Unicode White_Space character.');

/** Whitespace a pattern written as `\s` may miss (U+0085) and whitespace of other scripts. */
const WHITESPACE = ['\u0085', '\u00A0', '\u1680', '\u2003', '\u2028', '\u2029', '\u202F', '\u205F', '\u3000'];
/** Control characters that are not whitespace: NUL, ESC, DEL and two C1 controls. */
const CONTROLS = ['\u0000', '\u001B', '\u007F', '\u0080', '\u009F'];

const CONTROL_CHARACTERS = reference(
  'sections 4.6 and 8.7 ask for one address with one @ and no whitespace; they do not name control characters, which no address syntax (RFC 5322, RFC 6531) admits, and the reference refuses them as invalid_email',
);
const INVISIBLE = reference(
  'section 4.11 does not show the bodies of the account-holder links; the reference isolates the text a request supplied and shows each invisible or bidi character as its code point, so the holder reads what was sent',
);

const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

export function signupCharacterCases(): Case[] {
  return [
    defineCase({
      id: 'fileSignupRequest/email-unicode-whitespace-refused',
      title: 'Refuses an email with whitespace of any script, U+0085 included',
      sections: ['4.6', '8.7'],
      basis: UNICODE_WHITESPACE,
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        const within = (c: string, local = ctx.unique('ws')) => `${local.slice(0, 4)}${c}${local.slice(4)}@example.com`;
        await refuseEach(ctx, key, 'invalid_email', WHITESPACE.map((c) => [`an email with ${hex(c)}`, { email: within(c) }]), UNICODE_WHITESPACE);
      },
    }),
    defineCase({
      id: 'fileSignupRequest/email-control-characters-refused',
      title: 'Refuses an email with a control character',
      sections: ['4.6', '8.7'],
      basis: CONTROL_CHARACTERS,
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        await refuseEach(ctx, key, 'invalid_email', CONTROLS.map((c) => [`an email with ${hex(c)}`, { email: `${ctx.unique('cc')}${c}@example.com` }]), CONTROL_CHARACTERS);
      },
    }),
    defineCase({
      id: 'getSignupApproval/page-shows-invisible-characters',
      title: "Shows invisible characters of the holder's page as code points",
      sections: ['4.11', '4.6'],
      basis: INVISIBLE,
      level: 'should',
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { account, key } = await signupSetup(ctx);
        // U+202E would show the rest of the address reversed; U+200B and U+2060 would not show at all.
        const email = `${ctx.unique('e')}\u202Emoc.elpmaxe@example.com`;
        const username = `shop\u200Bper\u2060${ctx.unique('u')}`;
        const filed = await fileSignup(ctx, key, { email, username });
        const token = await account.signupLink(filed.requestId);
        const page = await ctx.call('getSignupApproval', { params: { token }, headers: { accept: 'text/html' } });
        ctx.expectSuccess(page, spec('link-signup-request'), LINK_OK);
        const text = page.response.text;
        for (const c of ['\u202E', '\u200B', '\u2060']) {
          ctx.check(!text.includes(c), `no raw ${hex(c)} in the page, which would hide or reorder what the holder reads`, `${hex(c)} in the page`, INVISIBLE, page);
          ctx.check(text.includes(hex(c)), `${hex(c)} shown as its code point`, 'not shown', INVISIBLE, page);
        }
        ctx.check(/<bdi[\s>]|dir="auto"/.test(text), 'the text the request supplied isolated (<bdi> or dir="auto")', 'neither in the page', INVISIBLE, page);
      },
    }),
  ];
}
