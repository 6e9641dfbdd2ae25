import type { ApiDocument } from '../runner/document.js';
import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import { sampleRequest } from './support.js';

/**
 * The answers of the HTTP layer, which every operation documents: a request head over the size
 * bound (431) and a head that does not arrive in time (408), each the JSON `{code, error}` with
 * `Cache-Control: no-store`. The bounds are the document's `x-limits`.
 */

/** The request line and Host of an operation at the deployment: under the base URL's path, as every other request. */
function requestLine(ctx: CaseContext, operationId: string): string {
  const op = ctx.doc.operation(operationId);
  const { params } = sampleRequest(ctx.doc, operationId);
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? 'x'));
  const base = new URL(op.ownOrigin ? (ctx.env.proxyOrigin ?? ctx.env.baseUrl) : ctx.env.baseUrl);
  return `${op.method} ${base.pathname.replace(/\/+$/, '')}${path} HTTP/1.1\r\nHost: ${base.host}\r\n`;
}

function headOverCap(doc: ApiDocument): Case[] {
  return [...doc.operations.values()]
    .filter((op) => doc.errorCodes(op.operationId, 431).includes('bad_request'))
    .map((op) =>
      defineCase({
        id: `${op.operationId}/request-head-over-cap`,
        title: 'Answers a request head over its size bound with 431',
        sections: ['7.1'],
        needs: {},
        costs: {},
        async run(ctx) {
          const cap = ctx.limits.value('request-header-size');
          const head = `${requestLine(ctx, op.operationId)}X-Padding: ${'a'.repeat(cap)}\r\nConnection: close\r\n\r\n`;
          const ex = await ctx.raw(op.operationId, head);
          ctx.expectError(ex, 'bad_request', { status: 431, pointer: ctx.limits.pointer('request-header-size') });
          ctx.expectEqual(ex.response.headers['cache-control'], 'no-store', 'Cache-Control', { pointer: '#/info/description' }, ex);
        },
      }),
    );
}

function slowHead(doc: ApiDocument): Case {
  const operations = [...doc.operations.values()].filter((op) => doc.errorCodes(op.operationId, 408).includes('bad_request')).map((op) => op.operationId);
  const seconds = doc.limit('request-headers-timeout').value ?? 0;
  return defineCase({
    id: 'getTokenCatalog/slow-request-head-408',
    title: 'Answers 408 on every operation when the request head stalls',
    sections: ['7.1'],
    needs: {},
    costs: { waits: `the ${seconds} s request-head timeout of the deployment` },
    async run(ctx) {
      // One stalled connection per operation at once, so the deployment's timeout is waited out once.
      const exchanges = await Promise.all(operations.map((operationId) => ctx.raw(operationId, requestLine(ctx, operationId))));
      for (const ex of exchanges) {
        ctx.expectError(ex, 'bad_request', { status: 408, pointer: ctx.limits.pointer('request-headers-timeout') });
        ctx.expectEqual(ex.response.headers['cache-control'], 'no-store', 'Cache-Control', { pointer: '#/info/description' }, ex);
      }
      ctx.step(`${exchanges.length} stalled request heads, one per operation, each answered 408`);
    },
  });
}

export function httpLayerCases(doc: ApiDocument): Case[] {
  const cases = headOverCap(doc);
  if (doc.limits.has('request-headers-timeout')) cases.push(slowHead(doc));
  return cases;
}
