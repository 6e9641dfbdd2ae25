import { defineCase, type Case } from '../runner/case.js';
import { reference, spec } from '../runner/basis.js';
import { body } from '../runner/by-meaning.js';

/** Section 4.12: the proxy's health check on its HTTP origin. */
export function proxyCases(): Case[] {
  return [
    defineCase({
      id: 'getProxyHealth/ok',
      title: 'Answers the health check with ok: true',
      requirements: ['proxy-health'],
      needs: {},
      costs: {},
      async run(ctx) {
        const ex = await ctx.call('getProxyHealth', {});
        ctx.expectSuccess(ex, spec('proxy-health'), { status: 200, basis: reference('Section 4.12 gives the health check no status: any success conforms. The reference answers 200.') });
        ctx.expectEqual(body(ex).ok, true, 'ok', spec('proxy-health'), ex);
      },
    }),
  ];
}
