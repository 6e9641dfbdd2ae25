import { defineCase, type Case } from '../runner/case.js';
import { http } from '../runner/basis.js';

/**
 * Section 5 asks for `Authorization: Bearer <API_KEY>` and refuses a header "not in Bearer form".
 * The scheme's spelling is HTTP's, not the specification's: RFC 9110 section 11.1 makes every
 * authentication scheme name case-insensitive, so `bearer <key>` is in Bearer form.
 */

export function authSchemeCases(): Case[] {
  return [
    defineCase({
      id: 'getTokenCatalog/auth-scheme-any-case',
      title: 'Reads the Bearer scheme name in any case',
      requirements: ['http-auth-scheme-case-insensitive', 'auth-accepts-bearer'],
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        const key = await ctx.key('key');
        for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
          const ex = await ctx.call('getTokenCatalog', { authorization: `${scheme} ${key}` });
          ctx.expectStatus(ex, 200, http('http-auth-scheme-case-insensitive'));
          ctx.step(`"${scheme} <key>": 200`);
        }
      },
    }),
  ];
}
