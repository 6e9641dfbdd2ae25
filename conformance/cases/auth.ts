import type { ApiDocument } from '../runner/document.js';
import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import { sampleRequest, securedOperations } from './support.js';

/**
 * Section 5: the authentication matrix, on every operation the document secures. Each case sends
 * the operation's own documented example with exactly one thing wrong: the credential.
 */

const NOT_BEARER = ['Basic dXNlcjpwYXNzd29yZA==', 'Token vk_not_a_bearer_scheme', 'Bearer', 'vk_key_without_a_scheme'];

async function expectUnauthorized(ctx: CaseContext, operationId: string, authorization: string | undefined, code: 'unauthorized' | 'invalid_api_key') {
  const sample = sampleRequest(ctx.doc, operationId);
  const ex = await ctx.call(operationId, { ...sample, ...(authorization === undefined ? {} : { authorization }) });
  ctx.expectError(ex, code);
  ctx.check(ex.response.headers['cache-control'] === 'no-store', 'Cache-Control: no-store on an authenticated operation, errors included', `Cache-Control: ${ex.response.headers['cache-control'] ?? '(none)'}`, { sections: ['5'] }, ex);
  return ex;
}

function forOperation(operationId: string, sections: string[]): Case[] {
  const cited = ['5', '7.1', ...sections.filter((s) => s.startsWith('4.'))];
  return [
    defineCase({
      id: `${operationId}/auth-header-missing`,
      title: 'Refuses a request without Authorization as unauthorized',
      sections: cited,
      needs: {},
      costs: {},
      run: (ctx) => expectUnauthorized(ctx, operationId, undefined, 'unauthorized').then(() => undefined),
    }),
    defineCase({
      id: `${operationId}/auth-not-bearer`,
      title: 'Refuses an Authorization header not in Bearer form',
      sections: cited,
      needs: {},
      costs: {},
      async run(ctx) {
        for (const authorization of NOT_BEARER) await expectUnauthorized(ctx, operationId, authorization, 'unauthorized');
      },
    }),
    defineCase({
      id: `${operationId}/auth-key-unknown`,
      title: 'Refuses an unknown API key as invalid_api_key',
      sections: cited,
      needs: {},
      costs: {},
      async run(ctx) {
        await expectUnauthorized(ctx, operationId, `Bearer vk_unknown_${ctx.unique()}`, 'invalid_api_key');
      },
    }),
    defineCase({
      id: `${operationId}/auth-key-revoked`,
      title: 'Refuses a revoked API key as invalid_api_key',
      sections: cited,
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const issued = await account.issueKey({ signup: true });
        await account.revokeKey(issued.keyId);
        ctx.step('issued a key with signup permission and revoked it');
        await expectUnauthorized(ctx, operationId, `Bearer ${issued.key}`, 'invalid_api_key');
      },
    }),
  ];
}

export function authCases(doc: ApiDocument): Case[] {
  const cases = securedOperations(doc).flatMap((id) => forOperation(id, doc.operation(id).sections));
  cases.push(
    defineCase({
      id: 'getTokenCatalog/auth-unknown-and-revoked-alike',
      title: 'Answers an unknown and a revoked key alike',
      sections: ['5', '7.1'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const issued = await account.issueKey();
        await account.revokeKey(issued.keyId);
        const revoked = await ctx.call('getTokenCatalog', { key: issued.key });
        const unknown = await ctx.call('getTokenCatalog', { key: `vk_unknown_${ctx.unique()}` });
        ctx.expectError(revoked, 'invalid_api_key');
        ctx.expectError(unknown, 'invalid_api_key');
        const shape = (h: Record<string, string>) => Object.keys(h).filter((k) => !['date', 'content-length', 'keep-alive', 'connection'].includes(k)).sort();
        ctx.expectEqual(shape(revoked.response.headers), shape(unknown.response.headers), 'the same headers for a revoked key as for an unknown one:', {}, revoked);
        ctx.expectEqual(revoked.response.json, unknown.response.json, 'the same body for a revoked key as for an unknown one:', {}, revoked);
      },
    }),
  );
  return cases;
}
