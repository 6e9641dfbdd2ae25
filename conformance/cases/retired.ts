import { reference, spec } from '../runner/basis.js';
import { expectNoStore } from './headers.js';
import { defineCase, type Case } from '../runner/case.js';

/** Section 4.10: the retired POST /v1/logins answers 410 whatever it is sent. */
export function retiredCases(): Case[] {
  return [
    defineCase({
      id: 'createLogin/gone-whatever-is-sent',
      title: 'Answers 410 signup_requires_approval to any key and body',
      requirements: ['retired-answers-410'],
      needs: {},
      costs: {},
      async run(ctx) {
        const variants: { what: string; options: Parameters<typeof ctx.call>[1] }[] = [
          { what: 'no key, no body', options: {} },
          { what: 'an unknown key', options: { authorization: `Bearer vk_unknown_${ctx.unique()}` } },
          { what: 'a header not in Bearer form', options: { authorization: 'Basic dXNlcjpwYXNz' } },
          { what: 'a login body', options: { json: { website: 'acme.com', email: 'jane@example.com', password: 'hunter22hunter22' } } },
          { what: 'a body that is not JSON', options: { body: '{not json' } },
        ];
        for (const { what, options } of variants) {
          const ex = await ctx.call('createLogin', options);
          ctx.expectError(ex, 'signup_requires_approval', spec('retired-answers-410'));
          expectNoStore(ctx, ex, `with ${what}`, reference('Section 4.10 says only that the retired path answers 410; it takes no API key, so section 5 item 4 does not ask `no-store` of it.'));
        }
      },
    }),
    defineCase({
      id: 'createLogin/gone-for-a-valid-key',
      title: 'Answers 410 to a valid key with signup permission too',
      requirements: ['retired-answers-410'],
      needs: { keys: ['signupKey'] },
      costs: {},
      async run(ctx) {
        const ex = await ctx.call('createLogin', { key: await ctx.key('signupKey'), json: { website: ctx.site(), email: ctx.email() } });
        ctx.expectError(ex, 'signup_requires_approval', spec('retired-answers-410'));
      },
    }),
  ];
}
