import type { ApiDocument } from '../runner/document.js';
import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import { sampleRequest, securedOperations } from './shared-steps.js';
import { differences } from '../runner/by-meaning.js';
import { reference, spec } from '../runner/basis.js';
import type { RequirementId } from '../requirements/index.js';
import { expectNoStore } from './headers.js';
import { isPerMessage } from '../runner/per-message.js';
import type { Exchange } from '../runner/exchange.js';

/**
 * Section 5: the authentication matrix, on every operation the document secures. Each case sends
 * the operation's own documented example with exactly one thing wrong: the credential.
 */

const NOT_BEARER = ['Basic dXNlcjpwYXNzd29yZA==', 'Token vk_not_a_bearer_scheme', 'Bearer', 'vk_key_without_a_scheme'];

/** Section 5 item 4 reads two ways for a refused key: no-store on every answer of the endpoint, or on those whose key was accepted. */
const NO_STORE_ON_401 = reference("Section 5 item 4 asks no-store of every authenticated answer; whether a refusal of the key is one reads both ways (the catalogue's auth-no-store). The reference sends it.");

/** The requirement that an operation needs a key, by operation. */
const NEEDS_A_KEY: Record<string, RequirementId> = {
  getTokenCatalog: 'tokens-need-a-key',
  submitRecipe: 'submit-needs-a-key',
  getRecipeSubmission: 'submission-read-needs-a-key',
};

async function expectUnauthorized(ctx: CaseContext, operationId: string, authorization: string | undefined, code: 'unauthorized' | 'invalid_api_key') {
  const sample = sampleRequest(ctx.doc, operationId);
  const ex = await ctx.call(operationId, { ...sample, ...(authorization === undefined ? {} : { authorization }) });
  ctx.expectError(ex, code, spec(code === 'unauthorized' ? 'auth-missing-or-not-bearer' : 'auth-unknown-or-revoked'));
  expectNoStore(ctx, ex, 'on an authenticated operation, errors included', NO_STORE_ON_401);
  return ex;
}

function forOperation(operationId: string): Case[] {
  const needsKey = NEEDS_A_KEY[operationId] ?? 'login-endpoints-need-a-key';
  return [
    defineCase({
      id: `${operationId}/auth-header-missing`,
      title: 'Refuses a request without Authorization as unauthorized',
      requirements: ['auth-missing-or-not-bearer', needsKey, 'other-endpoints-need-a-key'],
      needs: {},
      costs: {},
      run: (ctx) => expectUnauthorized(ctx, operationId, undefined, 'unauthorized').then(() => undefined),
    }),
    defineCase({
      id: `${operationId}/auth-not-bearer`,
      title: 'Refuses an Authorization header not in Bearer form',
      requirements: ['auth-missing-or-not-bearer'],
      needs: {},
      costs: {},
      async run(ctx) {
        for (const authorization of NOT_BEARER) await expectUnauthorized(ctx, operationId, authorization, 'unauthorized');
      },
    }),
    defineCase({
      id: `${operationId}/auth-key-unknown`,
      title: 'Refuses an unknown API key as invalid_api_key',
      requirements: ['auth-unknown-or-revoked'],
      needs: {},
      costs: {},
      async run(ctx) {
        await expectUnauthorized(ctx, operationId, `Bearer vk_unknown_${ctx.unique()}`, 'invalid_api_key');
      },
    }),
    defineCase({
      id: `${operationId}/auth-key-revoked`,
      title: 'Refuses a revoked API key as invalid_api_key',
      requirements: ['auth-unknown-or-revoked'],
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

/** The headers of one message (a date, a request or trace id) of either answer, as pointers: they tell nothing. */
function perMessageAt(...answers: Exchange[]): string[] {
  return answers.flatMap((ex) => Object.keys(ex.response.headers).filter(isPerMessage).map((name) => `/${name}`));
}

export function authCases(doc: ApiDocument): Case[] {
  const cases = securedOperations(doc).flatMap((id) => forOperation(id));
  cases.push(
    defineCase({
      id: 'getTokenCatalog/auth-unknown-and-revoked-alike',
      title: 'Answers an unknown and a revoked key alike',
      requirements: ['auth-causes-alike', 'auth-unknown-or-revoked'],
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const issued = await account.issueKey();
        await account.revokeKey(issued.keyId);
        const unknownKey = `vk_unknown_${ctx.unique()}`;
        const [revoked, revokedAgain] = [await ctx.call('getTokenCatalog', { key: issued.key }), await ctx.call('getTokenCatalog', { key: issued.key })];
        const [unknown, unknownAgain] = [await ctx.call('getTokenCatalog', { key: unknownKey }), await ctx.call('getTokenCatalog', { key: unknownKey })];
        for (const ex of [revoked, unknown]) ctx.expectError(ex, 'invalid_api_key', spec('auth-unknown-or-revoked'));
        // "Indistinguishable": nothing tells the two causes apart. What differs between two answers
        // to the same cause (a date, a request id) tells nothing, so it does not count.
        const told = (pick: (ex: typeof revoked) => unknown) => {
          const noise = new Set([...perMessageAt(revoked, unknown), ...differences(pick(revoked), pick(revokedAgain)), ...differences(pick(unknown), pick(unknownAgain))]);
          return differences(pick(revoked), pick(unknown)).filter((d) => ![...noise].some((n) => d === n || d.startsWith(`${n}/`)));
        };
        const headers = told((ex) => ex.response.headers);
        const body = told((ex) => ex.response.json);
        ctx.check(headers.length === 0, 'the same headers for a revoked key as for an unknown one', () => `they differ at ${headers.join(', ')}`, spec('auth-causes-alike'), revoked);
        ctx.check(body.length === 0, 'the same body for a revoked key as for an unknown one', () => `they differ at ${body.join(', ')}`, spec('auth-causes-alike'), revoked);
      },
    }),
  );
  return cases;
}
