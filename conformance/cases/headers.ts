import type { CaseContext } from '../runner/context.js';
import type { Exchange } from '../runner/exchange.js';
import type { Rule } from '../runner/basis.js';
import { sameMeaning } from '../runner/header-values.js';

/**
 * Header expectations of the cases, compared by meaning: `Cache-Control` as a set of directives,
 * holding the ones a rule states (`no-store, private` is still `no-store`) — the reference
 * judgement still sees the exact set through the document's own header checks.
 */

export function expectCacheControl(ctx: CaseContext, ex: Exchange, value: string, what: string, where: Rule): void {
  const got = ex.response.headers['cache-control'];
  ctx.check(got !== undefined && sameMeaning('cache-control', value, got, 'holds'), `Cache-Control: ${value} ${what}`, `Cache-Control: ${got ?? '(none)'}`, where, ex);
}

export function expectNoStore(ctx: CaseContext, ex: Exchange, what: string, where: Rule): void {
  expectCacheControl(ctx, ex, 'no-store', what, where);
}
