// A 2xx answer is returned only when it has a shape its operation answers with (its JSON type and
// required members, one level deep, from the document): a body of another operation or another branch
// is a VaultApiError, never a value typed as something it is not. The document's own examples are the
// answers that must pass; a mock answers its first one unless `Prefer` names another, which is how
// `lookupRecipes` got the recipe index.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, VaultApiError, type OperationId } from '../index.js';
import { RESULT_SHAPES } from '../generated/document.js';
import { shapeProblem } from '../shapes.js';
import { clientFor } from './support/clients.js';
import { closedAfterEachTest, json } from './support/tiny-server.js';

const { tiny } = closedAfterEachTest();
const document = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'dist', 'openapi.json'), 'utf8'));

/** Every example of every 2xx answer of the document, by operation. */
function successExamples(): Array<{ operationId: OperationId; name: string; value: unknown }> {
  const out: Array<{ operationId: OperationId; name: string; value: unknown }> = [];
  for (const item of Object.values<Record<string, any>>(document.paths)) {
    for (const op of Object.values<any>(item)) {
      if (!op?.operationId) continue;
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        for (const [name, example] of Object.entries<any>(response.content?.['application/json']?.examples ?? {})) {
          out.push({ operationId: op.operationId, name, value: example.value });
        }
      }
    }
  }
  return out;
}
const examples = successExamples();
const example = (operationId: OperationId, name: string) => examples.find((e) => e.operationId === operationId && e.name === name)!.value;

describe('the shapes of answers', () => {
  it('when every 2xx example of the document is checked against its operation, then each passes: no documented answer is refused', () => {
    expect(examples.length).toBeGreaterThan(30);
    for (const { operationId, name, value } of examples) expect(shapeProblem(value, RESULT_SHAPES[operationId]!), `${operationId} ${name}`).toBeUndefined();
    for (const id of Object.keys(OPERATIONS)) expect(RESULT_SHAPES[id], id).toBeDefined();
  });

  it('when the lookup is asked for, then only the lookup examples pass, and the index says what it lacks', () => {
    const lookup = RESULT_SHAPES.getRecipes!.filter((s) => s.name === 'RecipeLookup');
    expect(shapeProblem(example('getRecipes', 'lookup'), lookup)).toBeUndefined();
    expect(shapeProblem(example('getRecipes', 'lookup_unparseable'), lookup)).toBeUndefined();
    expect(shapeProblem(example('getRecipes', 'index'), lookup)).toBe('not a RecipeLookup: it lacks merchant, platform, signup, signupPlatform');
  });

  it('when a value has the wrong type, constant or member type, then the problem names it', () => {
    const poll = RESULT_SHAPES.getSignupRequest!;
    expect(shapeProblem({ status: 'pending' }, poll)).toBe('not a SignupRequestPending: it lacks expiresAt');
    expect(shapeProblem({ status: 'pending', expiresAt: 'soon' }, poll)).toBe('not a SignupRequestPending: its expiresAt is a string ("soon"), not integer');
    expect(shapeProblem({ status: 'pending', expiresAt: 1.5 }, poll)).toBe('not a SignupRequestPending: its expiresAt is a number (1.5), not integer');
    expect(shapeProblem({ status: 'held' }, poll)).toMatch(/its status is "held", not "(pending|denied|expired|approved)"/);
    expect(shapeProblem([], RESULT_SHAPES.getTokenCatalog!)).toBe('not a TokenCatalog: the body is an array, not object');
    expect(shapeProblem(null, RESULT_SHAPES.getProxyHealth!)).toBe('not a ProxyHealth: the body is null, not object');
  });
});

describe('an answer of the wrong shape', () => {
  it('when lookupRecipes is answered with the index, as a mock answers without Prefer, then it is a VaultApiError, never returned as the lookup', async () => {
    const server = await tiny((_req, res) => json(res, 200, example('getRecipes', 'index')));
    const error = await clientFor(server).lookupRecipes('https://www.acme.com/checkout').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultApiError);
    expect(error).toMatchObject({ status: 200, code: null, operationId: 'getRecipes' });
    expect((error as VaultApiError).error).toBe(
      'a 200 answer that is not what getRecipes answers with (not a RecipeLookup: it lacks merchant, platform, signup, signupPlatform)',
    );
    expect((error as VaultApiError).body).toContain('"recipes"');
  });

  it('when lookupRecipes is answered with the lookup, then it is returned; getRecipes itself takes the index too', async () => {
    const server = await tiny((req, res) => json(res, 200, example('getRecipes', new URL(req.url!, 'http://x').searchParams.has('url') ? 'lookup' : 'index')));
    expect(await clientFor(server).lookupRecipes('https://www.acme.com/checkout')).toEqual(example('getRecipes', 'lookup'));
    expect(await clientFor(server).getRecipes()).toEqual(example('getRecipes', 'index'));
  });

  it('when a poll answers pending without an expiresAt, or another operation answers, then the call is refused with what is wrong', async () => {
    const server = await tiny((req, res) => json(res, 200, req.url!.startsWith('/v1/logins') ? { status: 'pending' } : { recipes: [] }));
    const poll = await clientFor(server, 'vk_test').getSignupRequest({ id: 'sreq_1' }).catch((e: unknown) => e);
    expect((poll as VaultApiError).error).toBe('a 200 answer that is not what getSignupRequest answers with (not a SignupRequestPending: it lacks expiresAt)');
    const catalog = await clientFor(server, 'vk_test').getTokenCatalog().catch((e: unknown) => e);
    expect(catalog).toBeInstanceOf(VaultApiError);
    expect((catalog as VaultApiError).error).toContain('not a TokenCatalog: it lacks cards, logins, identity, addresses');
  });
});
