// The API defines no redirect, and a call is answered only by its own request: a 3xx is an answer the
// document does not describe, never followed. Two real servers on 127.0.0.1, two origins: the first
// redirects, the second stands where a redirect would lead and answers what a follower would return
// (the recipe index, a filing), and must never be asked.
import { describe, expect, it } from 'vitest';
import { VaultApiError, type RetryEvent } from '../index.js';
import { clientFor } from './support/clients.js';
import { closedAfterEachTest, json } from './support/tiny-server.js';

const { tiny } = closedAfterEachTest();
const recipe = { key: 'example.com', kind: 'platform', status: 'partial' } as const;

async function redirecting(status: number) {
  const elsewhere = await tiny((req, res) =>
    req.method === 'GET' ? json(res, 200, { recipes: [] }) : json(res, 202, { id: 'sub_elsewhere', status: 'pending' }),
  );
  const server = await tiny((_req, res) => {
    res.writeHead(status, { location: `${elsewhere.base}/v1/recipes`, 'content-type': 'text/html' });
    res.end(`<a href="${elsewhere.base}/v1/recipes">moved</a>`);
  });
  return { server, elsewhere };
}

describe('a redirect', () => {
  it.each([301, 302, 303, 307, 308])('when a write is answered %i, then it is not followed: a VaultApiError naming where it pointed, sent once', async (status) => {
    const { server, elsewhere } = await redirecting(status);
    const retries: RetryEvent[] = [];
    const error = await clientFor(server, 'vk_test', { onRetry: (e) => retries.push(e) })
      .submitRecipe(recipe)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultApiError);
    expect(error).toMatchObject({ status, code: null, operationId: 'submitRecipe' });
    expect((error as VaultApiError).error).toBe(`a ${status} redirect to ${elsewhere.base}/v1/recipes, which the client does not follow: the API defines no redirect`);
    expect(server.seen).toHaveLength(1);
    expect(elsewhere.seen).toHaveLength(0);
    expect(retries).toEqual([]);
  });

  it.each([301, 307])('when a read is answered %i, then it is not followed either, and nothing is sent elsewhere', async (status) => {
    const { server, elsewhere } = await redirecting(status);
    const error = await clientFor(server).getRecipes().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultApiError);
    expect(error).toMatchObject({ status, code: null });
    expect(elsewhere.seen).toHaveLength(0);
  });

  it('when a redirect carries no Location, then it is refused all the same', async () => {
    const server = await tiny((_req, res) => {
      res.writeHead(302);
      res.end();
    });
    const error = await clientFor(server, 'vk_test').submitRecipe(recipe).catch((e: unknown) => e);
    expect((error as VaultApiError).error).toBe('a 302 redirect, which the client does not follow: the API defines no redirect');
  });
});
