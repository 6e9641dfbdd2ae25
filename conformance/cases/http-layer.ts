import type { ApiDocument } from '../runner/document.js';
import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import { sampleRequest } from './shared-steps.js';
import { reference } from '../runner/basis.js';
import { RunnerError } from '../runner/outcome.js';
import { expectNoStore } from './headers.js';

// The specification says nothing of these answers: the document records the reference's.
const OVERSIZED = reference('The specification does not bound a request head; 431 `bad_request` with `no-store` past 16 KB is the reference\'s documented answer (`request-header-size`).');
const STALLED = reference('The specification does not bound how long a request head may take; 408 `bad_request` with `no-store` after 10 s is the reference\'s documented answer (`request-headers-timeout`).');

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
        sections: [],
        basis: OVERSIZED,
        needs: {},
        costs: {},
        async run(ctx) {
          const cap = ctx.limits.value('request-header-size');
          const head = `${requestLine(ctx, op.operationId)}X-Padding: ${'a'.repeat(cap)}\r\nConnection: close\r\n\r\n`;
          const ex = await ctx.raw(op.operationId, head);
          ctx.expectError(ex, 'bad_request', { ...OVERSIZED, status: 431, pointer: ctx.limits.pointer('request-header-size') });
          expectNoStore(ctx, ex, 'on an answer of the HTTP layer', { ...OVERSIZED, pointer: '#/info/description' });
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
    sections: [],
    basis: STALLED,
    needs: {},
    costs: { waits: `the ${seconds} s request-head timeout of the deployment` },
    async run(ctx) {
      // One stalled connection per operation at once, so the deployment's timeout is waited out once.
      const exchanges = await Promise.all(operations.map((operationId) => stalled(ctx, operationId)));
      for (const ex of exchanges) {
        ctx.expectError(ex, 'bad_request', { ...STALLED, status: 408, pointer: ctx.limits.pointer('request-headers-timeout') });
        expectNoStore(ctx, ex, 'on an answer of the HTTP layer', { ...STALLED, pointer: '#/info/description' });
      }
      ctx.step(`${exchanges.length} stalled request heads, one per operation, each answered 408`);
    },
  });
}

/**
 * A stalled head, sent raw. HTTP lets a server close such a connection without an answer (RFC 9110
 * §15.5.9 makes 408 a choice): that departs from the reference's documented answer, nothing more.
 */
async function stalled(ctx: CaseContext, operationId: string) {
  try {
    return await ctx.raw(operationId, requestLine(ctx, operationId));
  } catch (e) {
    if (e instanceof RunnerError && e.kind === 'network') ctx.fail('408 bad_request', `no answer: ${e.message}`, { ...STALLED, pointer: ctx.limits.pointer('request-headers-timeout') });
    throw e;
  }
}

export function httpLayerCases(doc: ApiDocument): Case[] {
  const cases = headOverCap(doc);
  if (doc.limits.has('request-headers-timeout')) cases.push(slowHead(doc));
  return cases;
}
