import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { contract, givenAccount, startServer, type TestServer } from './support.js';

/**
 * Query strings (the document's "Query parameters"): GET /v1/recipes and GET /v1/tokens document
 * no 400, so every query string gets a documented answer: unlisted names (a name with brackets
 * included) are ignored, values are taken as sent, reserved characters and all.
 */

let t: TestServer;
let key: string;
beforeAll(async () => {
  // The catalog's per-minute limits are deployment settings: lifted, so only the query decides the answer.
  t = await startServer({ config: { limitOverrides: { 'catalog-per-key': 1_000_000, 'catalog-per-account': 1_000_000 } } });
  key = (await givenAccount(t)).key;
});
afterAll(() => t.close());

/** GET with the query exactly as written (fetch would re-encode it). */
function get(path: string, withKey: boolean): Promise<{ status: number; cacheControl?: string; body: any }> {
  const url = new URL(t.base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers: withKey ? { authorization: `Bearer ${key}` } : {} }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, cacheControl: res.headers['cache-control'], body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const operations = [
  { operationId: 'getRecipes', path: '/v1/recipes', withKey: false },
  { operationId: 'getTokenCatalog', path: '/v1/tokens', withKey: true },
];

describe('query strings', () => {
  it('when the document is read, then neither operation documents a 400 and every query parameter takes reserved characters', () => {
    for (const { operationId } of operations) {
      const op = contract().operations.get(operationId)!;
      expect(op.raw.responses['400'], operationId).toBeUndefined();
      for (const p of op.raw.parameters.map((x: unknown) => contract().resolve(x))) expect(p.allowReserved, `${operationId} ${p.name}`).toBe(true);
    }
  });

  it('when a name has brackets or a value has reserved characters, then 200 as if the name were not sent', async () => {
    const index = await get('/v1/recipes', false);
    for (const query of ['url[]=a', 'url[0]=a&url[1]=b', 'full[]=1', 'url[a][b]=c', 'full=a+b', 'full=a,b', 'full=!$()*', 'full=[1]', 'full=1[']) {
      const res = await get(`/v1/recipes?${query}`, false);
      expect(res.status, query).toBe(200);
      if (query.startsWith('url')) expect(res.body, query).toEqual(index.body);
    }
    const catalog = await get('/v1/tokens', true);
    for (const query of ['url[]=a', 'host[]=a', 'url[x]=https://acme.com/', 'host[0]=acme.com&host[1]=b']) {
      const res = await get(`/v1/tokens?${query}`, true);
      expect(res.status, query).toBe(200);
      expect(res.body, query).toEqual(catalog.body);
    }
  });

  it('when url comes after more than 1,000 other parameters, then it still filters; the filter never widens', async () => {
    const padding = Array.from({ length: 1500 }, (_, i) => `p${i}=x`).join('&');
    const lookup = await get(`/v1/recipes?${padding}&url=${encodeURIComponent('https://www.acme.com/checkout')}`, false);
    expect(lookup.status).toBe(200);
    expect(lookup.cacheControl).toBe('no-store');
    expect(Object.keys(lookup.body).sort()).toEqual(['merchant', 'platform', 'signup', 'signupPlatform']);
    expect(lookup.body.merchant.id).toBe('acme.com');
    // relatedLogins is present only when a url filter applied (section 2.1).
    const catalog = await get(`/v1/tokens?${padding}&url=${encodeURIComponent('https://www.acme.com/')}`, true);
    expect(catalog.status).toBe(200);
    expect(catalog.body.relatedLogins).toEqual([]);
    // Near the 16 KB header cap (about 2,400 short names): still the filter.
    const most = Array.from({ length: 2400 }, (_, i) => `q${i}`).join('&');
    expect(most.length).toBeGreaterThan(13_000);
    expect((await get(`/v1/recipes?${most}&url=${encodeURIComponent('https://www.acme.com/checkout')}`, false)).body.merchant.id).toBe('acme.com');
  });

  it('when the query string is any text, then both operations answer 200', async () => {
    const piece = fc.oneof(
      fc.constantFrom('url', 'host', 'full', '[', ']', '[]', '=', '&', '+', '%', '%zz', '%5B', '%5D', '%00', '%FF', ':', '/', '?', '@', '!', '$', "'", '(', ')', '*', ',', ';', '{', '}', '"', '__proto__', 'constructor', '1'),
      fc.stringMatching(/^[A-Za-z0-9._~-]{0,8}$/),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), fc.constantFrom(...operations), async (pieces, op) => {
        const query = pieces.join('');
        const res = await get(`${op.path}?${query}`, op.withKey);
        expect(res.status, `${op.operationId} ?${query} ${JSON.stringify(res.body)}`).toBe(200);
      }),
      { numRuns: 300 },
    );
  });
});
