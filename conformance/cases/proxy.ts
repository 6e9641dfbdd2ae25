import { defineCase, type Case } from '../runner/case.js';

/** Section 4.12: the proxy's health check on its HTTP origin. */
export function proxyCases(): Case[] {
  return [
    defineCase({
      id: 'getProxyHealth/ok',
      title: 'Answers the health check with ok: true',
      sections: ['4.12'],
      needs: {},
      costs: {},
      async run(ctx) {
        const ex = await ctx.call('getProxyHealth', {});
        ctx.expectStatus(ex, 200);
        ctx.expectEqual((ex.response.json as { ok?: unknown }).ok, true, 'ok', {}, ex);
      },
    }),
  ];
}
