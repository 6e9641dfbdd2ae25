import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { contract, givenAccount, readAnswer as answer, startServer, type TestServer } from './support.js';
import { openDb, type SqliteStore } from '../store/db.js';
import { ManualClock } from '../domain/clock.js';
import type { ServerConfig } from '../config.js';
import { RecipeRegistry, VERDICT } from '../domain/recipes.js';
import { defaultReleaseFile, loadRelease } from '../domain/registry.js';

/**
 * The checkout-recipe registry over real HTTP (sections 2.2-2.4, 3, 4.2-4.4, 8.3): the release,
 * the index and lookups, submissions with their body cap, budget and screening, and a
 * maintainer's decisions on the fixture surface. Responses are validated against the document.
 */

const ADMIN = 'adm_test_recipes';
const DAY = 24 * 3_600_000;
const RELEASE = JSON.parse(readFileSync(defaultReleaseFile(), 'utf8')) as { registryVersion: string; recipes: any[] };

interface RecipeServer extends TestServer {
  recipes: RecipeRegistry;
}

/** A reference server with its recipe registry in hand, so tests can hold and await screening. */
async function startRecipeServer(options: { config?: Partial<ServerConfig>; db?: SqliteStore } = {}): Promise<RecipeServer> {
  const db = options.db ?? openDb(':memory:');
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 0));
  const recipes = new RecipeRegistry({ db, clock, contract: contract(), log: () => {} }, loadRelease(contract()));
  const server = await startServer({ db, clock, recipes, config: { adminToken: ADMIN, ...options.config } });
  return Object.assign(server, { recipes });
}

let t: RecipeServer;
beforeAll(async () => {
  t = await startRecipeServer();
});
afterAll(() => t.close());
afterEach(() => t.recipes.screening.resume());


const get = async (path: string, s: RecipeServer = t) => answer(await s.call(path));
const submit = async (key: string, body: unknown, s: RecipeServer = t) => answer(await s.call('/v1/recipes', { method: 'POST', key, json: body }));
const poll = async (key: string, id: string, s: RecipeServer = t) => answer(await s.call(`/v1/recipes/submissions/${encodeURIComponent(id)}`, { key }));
const decide = async (id: string, decision: string, s: RecipeServer = t) =>
  answer(await s.call(`/_fixtures/recipe-submissions/${encodeURIComponent(id)}/decision`, { method: 'POST', key: ADMIN, json: { decision } }));
const lookup = async (url: string, s: RecipeServer = t) => get(`/v1/recipes?url=${encodeURIComponent(url)}`, s);
const index = async (s: RecipeServer = t) => (await get('/v1/recipes?full=1', s)).body.recipes as any[];
const entry = async (key: string, s: RecipeServer = t) => (await index(s)).find((e) => e.key === key);

let sites = 0;
/** A site no other test uses, so tests stay independent on one server. */
function freshSite(): string {
  sites += 1;
  return `shop${sites}-${randomBytes(3).toString('hex')}.com`;
}

/** A merchant recipe of a site of its own, on its own page, with a custom checkout. */
function merchant(site = freshSite(), extra: Record<string, unknown> = {}): Record<string, any> {
  return {
    key: site,
    kind: 'merchant',
    platform: 'custom',
    status: 'partial',
    match: { hosts: [`www.${site}`], paths: ['/checkout'] },
    steps: [{ action: 'fill', field: 'email' }, { action: 'click', target: 'Pay' }],
    ...extra,
  };
}

/** Submits, expects 202 pending, and returns the submission id. */
async function submitted(key: string, body: unknown, s: RecipeServer = t): Promise<string> {
  const res = await submit(key, body, s);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body).toEqual({ id: expect.any(String), status: 'pending' });
  return res.body.id;
}

/** Submits, waits for screening, and returns the submission as the submitter polls it. */
async function screened(key: string, body: unknown, s: RecipeServer = t) {
  const id = await submitted(key, body, s);
  await s.recipes.screening.idle();
  const res = await poll(key, id, s);
  expect(res.status).toBe(200);
  return res.body as { id: string; key: string; status: string; verdict: string[] };
}

describe('registry release', () => {
  it('when the server starts, then every release recipe is listed with the release registryVersion', async () => {
    const res = await get('/v1/recipes');
    const release = res.body.recipes.filter((e: any) => e.registryVersion === RELEASE.registryVersion);
    expect(release.map((e: any) => e.key).sort()).toEqual(RELEASE.recipes.map((r) => r.key).sort());
    expect(RELEASE.registryVersion).toBe('2026.11');
  });

  it('when the release is read, then it has every kind and status, signup keys, evidence and a delivery_location precondition', () => {
    const kinds = new Set(RELEASE.recipes.map((r) => r.kind));
    const statuses = new Set(RELEASE.recipes.map((r) => r.status));
    expect([...kinds].sort()).toEqual(['merchant', 'platform', 'signup', 'signup-platform']);
    expect([...statuses].sort()).toEqual(['dead-end', 'partial', 'unverified', 'verified']);
    for (const r of RELEASE.recipes) expect(r.key.startsWith('signup:')).toBe(r.kind === 'signup' || r.kind === 'signup-platform');
    expect(RELEASE.recipes.filter((r) => r.kind === 'merchant').length).toBeGreaterThanOrEqual(4);
    expect(RELEASE.recipes.some((r) => typeof r.evidence === 'string')).toBe(true);
    expect(RELEASE.recipes.some((r) => r.preconditions?.includes('delivery_location'))).toBe(true);
  });

});

describe('getRecipes', () => {
  describe('the index', () => {
    it('when called without parameters and without a key, then the index without bodies, cacheable for 300 s', async () => {
      const res = await get('/v1/recipes');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(Object.keys(res.body)).toEqual(['recipes']);
      const acme = res.body.recipes.find((e: any) => e.key === 'acme.com');
      expect(acme).toEqual({ key: 'acme.com', kind: 'merchant', platform: 'custom', status: 'verified', registryVersion: '2026.11' });
      for (const e of res.body.recipes) {
        expect(e.recipe).toBeUndefined();
        if (e.kind === 'platform' || e.kind === 'signup-platform') expect(e).not.toHaveProperty('platform');
      }
      expect(res.body.recipes.find((e: any) => e.key === 'signup:auth0')).toEqual({
        key: 'signup:auth0',
        kind: 'signup-platform',
        status: 'partial',
        registryVersion: '2026.11',
      });
    });

    it('when full=1, then every entry carries its recipe body, cacheable for 300 s', async () => {
      const res = await get('/v1/recipes?full=1');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      for (const e of res.body.recipes) {
        expect(e.recipe).toMatchObject({ key: e.key, kind: e.kind, status: e.status });
      }
      const acme = res.body.recipes.find((e: any) => e.key === 'acme.com');
      expect(acme.recipe).toEqual(RELEASE.recipes.find((r) => r.key === 'acme.com'));
      expect(acme.recipe.preconditions).toEqual(['delivery_location']);
      expect(acme.recipe.evidence).toMatch(/order confirmation/);
    });

    it('when full has another value, then the index has no bodies', async () => {
      for (const value of ['0', 'true', 'yes']) {
        const res = await get(`/v1/recipes?full=${value}`);
        expect(res.status).toBe(200);
        expect(res.body.recipes.every((e: any) => e.recipe === undefined), value).toBe(true);
      }
    });
  });

  describe('the per-URL lookup', () => {
    const nulls = { merchant: null, platform: null, signup: null, signupPlatform: null };

    it('when url is set, then exactly four slots, no-store, and full is ignored', async () => {
      const res = await get(`/v1/recipes?full=1&url=${encodeURIComponent('https://www.acme.com/checkout')}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({
        merchant: { id: 'acme.com', kind: 'merchant', platform: 'custom', status: 'verified' },
        platform: null,
        signup: null,
        signupPlatform: null,
      });
    });

    it('when the page is under a listed path prefix, then the merchant matches; outside every prefix, then it does not', async () => {
      expect((await lookup('https://www.acme.com/checkout/shipping')).body.merchant?.id).toBe('acme.com');
      expect((await lookup('https://acme.com/cart')).body.merchant?.id).toBe('acme.com');
      expect((await lookup('https://www.acme.com/products/usb-cable')).body).toEqual(nulls);
    });

    it('when the url carries a query, a fragment, a port or user info, then only scheme, host and path count', async () => {
      const plain = (await lookup('https://www.acme.com/checkout')).body;
      for (const url of [
        'https://www.acme.com/checkout?session=cs_live_abc#pay',
        'https://www.acme.com:8443/checkout',
        'https://user:pw@www.acme.com/checkout',
        'http://www.acme.com/checkout',
        'HTTPS://WWW.ACME.COM./checkout',
      ]) {
        expect((await lookup(url)).body, url).toEqual(plain);
      }
      // A query that looks like a path does not make a path match.
      expect((await lookup('https://www.acme.com/products?next=/checkout')).body).toEqual(nulls);
    });

    it('when a recipe lists the registrable domain, then every host of that site matches', async () => {
      const res = await lookup('https://www.initech.com/checkout/');
      expect(res.body.merchant).toEqual({ id: 'initech.com', kind: 'merchant', platform: 'woocommerce', status: 'unverified' });
      expect(res.body.platform).toEqual({ id: 'woocommerce', kind: 'platform', status: 'unverified' });
    });

    it('when the merchant names a platform, then the platform slot is that recipe, without a page match of its own', async () => {
      const res = await lookup('https://shop.globex.com/checkouts/c1d2e3');
      expect(res.body).toEqual({
        merchant: { id: 'globex.com', kind: 'merchant', platform: 'shopify', status: 'partial' },
        platform: { id: 'shopify', kind: 'platform', status: 'verified' },
        signup: null,
        signupPlatform: null,
      });
    });

    it('when only a platform covers the page (a hosted checkout sent as scheme and host), then only the platform slot is filled', async () => {
      expect((await lookup('https://checkout.payco.com')).body).toEqual({
        ...nulls,
        platform: { id: 'payco', kind: 'platform', status: 'partial' },
      });
    });

    it('when a signup page is looked up, then the signup recipe and the signup platform it names', async () => {
      expect((await lookup('https://www.acme.com/register')).body).toEqual({
        merchant: null,
        platform: null,
        signup: { id: 'signup:acme.com', kind: 'signup', platform: 'signup:auth0', status: 'unverified' },
        signupPlatform: { id: 'signup:auth0', kind: 'signup-platform', status: 'partial' },
      });
      expect((await lookup('https://acme-corp.auth0.com/u/signup/identifier')).body).toEqual({
        ...nulls,
        signupPlatform: { id: 'signup:auth0', kind: 'signup-platform', status: 'partial' },
      });
      expect((await lookup('https://initech.com/sign-up')).body.signup).toEqual({
        id: 'signup:initech.com',
        kind: 'signup',
        platform: 'signup:clerk',
        status: 'dead-end',
      });
    });

    it('when the url does not parse, then four null slots and 200, never an error', async () => {
      for (const url of ['acme', 'www.acme.com/checkout', ' ', 'not a url', 'https://', 'ftp://www.acme.com/checkout', 'mailto:a@acme.com', '%']) {
        const res = await get(`/v1/recipes?url=${encodeURIComponent(url)}`);
        expect(res.status, url).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.body, url).toEqual(nulls);
      }
      const raw = await get('/v1/recipes?url=https://www.acme.com/checkout');
      expect(raw.body.merchant?.id).toBe('acme.com');
    });

    it('when url or full is sent empty or url twice, then such a url gives four null slots and an empty full the plain index', async () => {
      const empty = await get('/v1/recipes?url=');
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual(nulls);
      const twice = await get('/v1/recipes?url=https://www.acme.com/checkout&url=https://www.acme.com/checkout');
      expect(twice.status).toBe(200);
      expect(twice.body).toEqual(nulls);
      const index = await get('/v1/recipes?full=');
      expect(index.status).toBe(200);
      expect(index.body.recipes.every((e: any) => e.recipe === undefined)).toBe(true);
    });

    it('when the page url is sent unencoded with & in its query, then its query is ignored like any other', async () => {
      const res = await get('/v1/recipes?url=https://www.acme.com/checkout?step=1&coupon=x');
      expect(res.status).toBe(200);
      expect(res.body.merchant?.id).toBe('acme.com');
    });

    it('when a contribution and a release recipe cover a page equally, then status decides, then the contribution', async () => {
      const a = await givenAccount(t);
      // Same host and path prefix as the release's partial vandelay.co.uk, under another key.
      const same = { kind: 'merchant', platform: 'payco', match: { hosts: ['www.vandelay.co.uk'], paths: ['/basket'] } };
      await submitted(a.key, { key: 'www.vandelay.co.uk', status: 'unverified', ...same });
      expect((await lookup('https://www.vandelay.co.uk/basket')).body.merchant.id).toBe('vandelay.co.uk');
      await submitted(a.key, { key: 'basket.vandelay.co.uk', status: 'partial', ...same });
      expect((await lookup('https://www.vandelay.co.uk/basket')).body.merchant.id).toBe('basket.vandelay.co.uk');
      // A longer path prefix wins over status.
      await submitted(a.key, { key: 'pay.vandelay.co.uk', status: 'unverified', ...same, match: { hosts: ['www.vandelay.co.uk'], paths: ['/basket/pay'] } });
      expect((await lookup('https://www.vandelay.co.uk/basket/pay')).body.merchant.id).toBe('pay.vandelay.co.uk');
      expect((await lookup('https://www.vandelay.co.uk/basket')).body.merchant.id).toBe('basket.vandelay.co.uk');
      await t.recipes.screening.idle();
    });
  });
});

describe('submitRecipe', () => {
  describe('authentication', () => {
    it('when no key is sent, then 401 unauthorized with no-store', async () => {
      const res = await answer(await t.call('/v1/recipes', { method: 'POST', json: merchant() }));
      expect(res.status).toBe(401);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body.code).toBe('unauthorized');
    });

    it('when the key is unknown, then 401 invalid_api_key', async () => {
      const res = await submit('vk_unknown', merchant());
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_api_key');
    });
  });

  describe('acceptance', () => {
    it('when the recipe alone is sent, then 202 pending with no-store, and it is live at once at its submitted status', async () => {
      const a = await givenAccount(t);
      const recipe = merchant();
      t.recipes.screening.pause();
      const res = await submit(a.key, recipe);
      expect(res.status).toBe(202);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({ id: expect.stringMatching(/^sub_/), status: 'pending' });
      expect(await entry(recipe.key)).toEqual({ key: recipe.key, kind: 'merchant', platform: 'custom', status: 'partial', registryVersion: 'submission', recipe });
      expect((await lookup(`https://www.${recipe.key}/checkout`)).body.merchant).toEqual({ id: recipe.key, kind: 'merchant', platform: 'custom', status: 'partial' });
    });

    it('when the wrapper is sent, then its recipe goes live and the note is not part of it', async () => {
      const a = await givenAccount(t);
      const recipe = merchant();
      await submitted(a.key, { recipe, note: 'Worked on 2026-11-19.' });
      expect((await entry(recipe.key)).recipe).toEqual(recipe);
    });

    it('when a recipe is submitted as verified, then it goes live as unverified', async () => {
      const a = await givenAccount(t);
      const recipe = merchant(undefined, { status: 'verified' });
      const sub = await screened(a.key, recipe);
      const live = await entry(recipe.key);
      expect(live.status).toBe('unverified');
      expect(live.recipe.status).toBe('unverified');
      expect(sub.verdict).toContain(VERDICT.verifiedDowngraded);
      expect(sub.status).toBe('approved');
    });

    it('when member names start with $, then they are removed at every depth before anything sees the body', async () => {
      const a = await givenAccount(t);
      const recipe = merchant();
      const sent = {
        $schema: 'https://example.com/recipe.json',
        recipe: {
          ...recipe,
          $comment: 'top',
          match: { ...recipe.match, $where: 'nested' },
          steps: [{ ...recipe.steps[0], $debug: true, detail: { $deep: 1, keep: 'yes' } }, recipe.steps[1]],
        },
        note: 'a note',
        $verificationRequested: true,
      };
      const sub = await screened(a.key, sent);
      expect((await entry(recipe.key)).recipe).toEqual({ ...recipe, steps: [{ ...recipe.steps[0], detail: { keep: 'yes' } }, recipe.steps[1]] });
      // `$verificationRequested` was removed, so no claim was made.
      expect(sub.verdict).not.toContain(VERDICT.verificationClaimed);
    });

    it('when a $-prefixed member is the only thing wrong, then it is removed instead of failing validation', async () => {
      const a = await givenAccount(t);
      const recipe = merchant();
      await submitted(a.key, { ...recipe, $kind: 42, match: { ...recipe.match, $hosts: 'not an array' } });
    });
  });

  describe('invalid recipes', () => {
    it('when the body is not JSON, then 400 invalid_recipe with the problem in errors', async () => {
      const a = await givenAccount(t);
      const res = await answer(
        await t.call('/v1/recipes', { method: 'POST', key: a.key, headers: { 'content-type': 'application/json' }, body: '{"key": "x.com",' }),
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toMatchObject({ code: 'invalid_recipe', errors: [{ path: '', message: expect.any(String) }] });
    });

    it('when the body is not sent as application/json, then 400 invalid_recipe with the problem in errors', async () => {
      const a = await givenAccount(t);
      const res = await answer(await t.call('/v1/recipes', { method: 'POST', key: a.key, headers: { 'content-type': 'text/plain' }, body: JSON.stringify(merchant()) }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_recipe', error: expect.stringMatching(/application\/json/), errors: [{ path: '', message: expect.stringMatching(/application\/json/) }] });
    });

    it('when the recipe fails the document, then 400 invalid_recipe listing every problem', async () => {
      const a = await givenAccount(t);
      const res = await submit(a.key, { key: 'x.com', kind: 'shop', status: 'great', match: { hosts: [] } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_recipe');
      const paths = res.body.errors.map((e: any) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['/kind', '/status', '/match/hosts']));
      // A bare recipe is read as a recipe: nothing about the wrapper form it was not meant as.
      expect(paths).not.toContain('/recipe');
      expect(res.body.errors.map((e: any) => e.message).join(' ')).not.toMatch(/anyOf/);
    });

    it("when the server's own checks fail, then 400 invalid_recipe listing each of them with its path", async () => {
      const a = await givenAccount(t);
      const res = await submit(a.key, {
        recipe: {
          key: 'signup:evil.com',
          kind: 'merchant',
          platform: 'signup:auth0',
          status: 'partial',
          match: { hosts: ['https://evil.com/checkout', '*.evil.com', 'www.evil.com'] },
        },
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body.code).toBe('invalid_recipe');
      expect(res.body.errors).toEqual([
        { path: '/recipe/key', message: 'only signup and signup-platform recipes have keys starting with "signup:"' },
        { path: '/recipe/platform', message: 'a merchant recipe names a platform recipe or "custom", not a signup-platform recipe' },
        { path: '/recipe/match/hosts/0', message: expect.stringMatching(/must be a host name/) },
        { path: '/recipe/match/hosts/1', message: expect.stringMatching(/must be a host name/) },
      ]);
    });

    it('when a signup recipe names a merchant platform, or a key has spaces, then 400 invalid_recipe', async () => {
      const a = await givenAccount(t);
      const signup = await submit(a.key, { key: 'signup:x.com', kind: 'signup', platform: 'shopify', status: 'partial' });
      expect(signup.status).toBe(400);
      expect(signup.body.errors).toEqual([{ path: '/platform', message: expect.stringMatching(/signup-platform recipe/) }]);
      const spaced = await submit(a.key, { key: 'my shop.com', kind: 'merchant', status: 'partial' });
      expect(spaced.status).toBe(400);
      expect(spaced.body.errors).toEqual([{ path: '/key', message: 'must not contain spaces or control characters' }]);
    });

    it('when verificationRequested comes without a non-empty note, then 400 invalid_recipe', async () => {
      const a = await givenAccount(t);
      for (const extra of [{}, { note: '' }, { note: '   \n ' }]) {
        const res = await submit(a.key, { recipe: merchant(), verificationRequested: true, ...extra });
        expect(res.status, JSON.stringify(extra)).toBe(400);
        expect(res.body.code).toBe('invalid_recipe');
        expect(res.body.errors.length).toBeGreaterThan(0);
      }
      const blank = await submit(a.key, { recipe: merchant(), verificationRequested: true, note: '   ' });
      expect(blank.body.errors).toEqual([{ path: '/note', message: 'verificationRequested needs a non-empty note' }]);
    });

    it('when a submission is refused as invalid, then nothing is recorded and the budget is not charged', async () => {
      const s = await startRecipeServer({ config: { limitOverrides: { 'recipe-submissions-per-account': 1 } } });
      try {
        const a = await givenAccount(s);
        const before = await index(s);
        expect((await submit(a.key, { key: 'signup:bad.com', kind: 'merchant', status: 'partial' }, s)).status).toBe(400);
        expect(await index(s)).toEqual(before);
        await submitted(a.key, merchant(), s);
        await s.recipes.screening.idle();
      } finally {
        await s.close();
      }
    });
  });

  describe('member names JavaScript gives a meaning to', () => {
    /** Every answer a later caller could read: the index, the full bundle, a lookup, the catalog and the submission. */
    async function everything(s: RecipeServer, key: string, submission: string) {
      const read = async (path: string, k?: string) => {
        const res = await s.call(path, k ? { key: k } : {});
        return { status: res.status, cacheControl: res.headers.get('cache-control'), text: await res.text() };
      };
      return Promise.all([
        read('/v1/recipes'),
        read('/v1/recipes?full=1'),
        read(`/v1/recipes?url=${encodeURIComponent('https://www.acme.com/checkout')}`),
        read('/v1/tokens', key),
        read(`/v1/recipes/submissions/${submission}`, key),
      ]);
    }

    it('when a recipe carries __proto__, constructor or prototype members, then it is refused, charges nothing, and no later answer changes', async () => {
      const s = await startRecipeServer({ config: { limitOverrides: { 'recipe-submissions-per-account': 2 } } });
      try {
        const a = await givenAccount(s);
        const first = await submitted(a.key, merchant(), s);
        await s.recipes.screening.idle();
        const before = await everything(s, a.key, first);
        const site = freshSite();
        const bodies = [
          `{"key":"${site}","kind":"merchant","status":"partial","match":{"hosts":["www.${site}"]},"__proto__":{"polluted":"yes","status":"verified"}}`,
          `{"recipe":{"key":"${site}","kind":"merchant","status":"partial","steps":[{"constructor":{"prototype":{"polluted":"yes"}}}]},"note":"n"}`,
          `{"key":"${site}","kind":"merchant","status":"partial","match":{"hosts":["www.${site}"],"prototype":["evil.com"]}}`,
        ];
        for (const body of bodies) {
          const res = await answer(await s.call('/v1/recipes', { method: 'POST', key: a.key, headers: { 'content-type': 'application/json' }, body }));
          expect(res.status, body).toBe(400);
          expect(res.body.code).toBe('invalid_recipe');
        }
        await s.recipes.screening.idle();
        expect(await everything(s, a.key, first)).toEqual(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        // The budget of 2 still has its second submission.
        await submitted(a.key, merchant(site), s);
        await s.recipes.screening.idle();
      } finally {
        await s.close();
      }
    });

    it('when a stored body holds such members from before they were refused, then they are never published', async () => {
      const s = await startRecipeServer();
      try {
        const a = await givenAccount(s);
        const id = await submitted(a.key, merchant(), s);
        await s.recipes.screening.idle();
        const row = s.db.sqlite.prepare('SELECT body FROM recipe_submissions WHERE id = ?').get(id) as { body: string };
        const stored = row.body.replace(/^\{/, '{"__proto__":{"polluted":"yes"},"constructor":1,"steps2":[{"prototype":2}],');
        s.db.sqlite.prepare('UPDATE recipe_submissions SET body = ? WHERE id = ?').run(stored, id);
        const published = (await index(s)).find((e) => e.registryVersion === 'submission')!.recipe;
        expect(JSON.stringify(published)).not.toMatch(/__proto__|constructor|prototype|polluted/);
        expect(published.steps2).toEqual([{}]);
      } finally {
        await s.close();
      }
    });
  });

  describe('the note', () => {
    it('when the note is longer than 2,000 characters, then it is truncated to 2,000, not refused', async () => {
      const a = await givenAccount(t);
      const recipe = merchant();
      // Astral characters count as one character each and are never cut in half.
      const note = `${'a'.repeat(1990)}${'😀'.repeat(30)}`;
      const id = await submitted(a.key, { recipe, note, verificationRequested: true });
      await t.recipes.screening.idle();
      const res = await decide(id, 'verify');
      expect(res.status).toBe(200);
      const evidence = res.body.live.recipe.evidence as string;
      expect(Array.from(evidence)).toHaveLength(2000);
      expect(evidence).toBe(Array.from(note).slice(0, 2000).join(''));
    });
  });

  describe('the 64 KB body cap', () => {
    const CAP = 65_536;

    /** A valid recipe serialised to exactly `size` bytes. */
    function bodyOf(size: number): Buffer {
      const recipe = merchant(undefined, { steps: [{ action: 'note', text: '' }] });
      const base = Buffer.byteLength(JSON.stringify(recipe));
      recipe.steps = [{ action: 'note', text: 'x'.repeat(size - base) }];
      const body = Buffer.from(JSON.stringify(recipe));
      expect(body.length).toBe(size);
      return body;
    }

    /**
     * Sends `body` in small chunks with a declared Content-Length or chunked, stopping as soon as
     * the server answers, and reports how many bytes had been sent by then.
     */
    function rawPost(key: string, body: Buffer, framing: 'length' | 'chunked', extra = 0): Promise<{ status: number; body: any; sent: number; total: number }> {
      const total = body.length + extra;
      const payload = Buffer.concat([body, Buffer.alloc(extra, 0x20)]);
      const chunks: Buffer[] = [];
      for (let i = 0; i < payload.length; i += 1024) chunks.push(payload.subarray(i, i + 1024));
      return new Promise((resolve, reject) => {
        const url = new URL(t.base);
        let sent = 0;
        let answered = false;
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: '/v1/recipes',
            method: 'POST',
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              ...(framing === 'length' ? { 'content-length': String(body.length) } : { 'transfer-encoding': 'chunked' }),
            },
          },
          (res) => {
            answered = true;
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => {
              req.destroy();
              resolve({ status: res.statusCode!, body: JSON.parse(text), sent, total });
            });
          },
        );
        // A server that cuts the request closes the connection; writes in flight may fail after the answer.
        req.on('error', (e) => (answered ? undefined : reject(e)));
        const pump = (i: number) => {
          if (answered) return;
          if (i >= chunks.length) return void (framing === 'length' || extra === 0 ? req.end() : undefined);
          sent += chunks[i]!.length;
          if (req.write(chunks[i]!)) setImmediate(() => pump(i + 1));
          else req.once('drain', () => pump(i + 1));
        };
        pump(0);
      });
    }

    for (const framing of ['length', 'chunked'] as const) {
      it(`when the body is exactly 65,536 bytes (${framing}), then it is accepted`, async () => {
        const a = await givenAccount(t);
        const res = await rawPost(a.key, bodyOf(CAP), framing);
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        expect(res.body.status).toBe('pending');
        await t.recipes.screening.idle();
      });

      it(`when the body is 65,537 bytes (${framing}), then 413 invalid_recipe without reading the rest, and nothing is recorded`, async () => {
        const a = await givenAccount(t);
        const before = await index();
        // Chunked: the client would go on sending another megabyte; the server answers at the cap.
        const res = await rawPost(a.key, bodyOf(CAP + 1), framing, framing === 'chunked' ? 1_048_576 : 0);
        expect(res.status).toBe(413);
        expect(res.body).toEqual({ code: 'invalid_recipe', error: expect.stringContaining('65536') });
        expect(res.sent).toBeLessThan(res.total);
        if (framing === 'chunked') expect(res.sent).toBeLessThan(CAP + 64 * 1024);
        expect(await index()).toEqual(before);
      });
    }
  });

  describe('the submission budget', () => {
    it('when an account has made 20 submissions in 24 hours, then the 21st is 429 rate_limited without Retry-After, across its keys', async () => {
      const s = await startRecipeServer();
      try {
        const a = await givenAccount(s);
        const second = await a.addKey();
        for (let i = 0; i < 20; i++) {
          await submitted(i % 2 === 0 ? a.key : second.key, merchant(), s);
          s.clock.advance(60_000);
        }
        const before = await index(s);
        const refused = await submit(second.key, merchant(), s);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBeNull();
        expect(refused.headers.get('cache-control')).toBe('no-store');
        expect(refused.body.code).toBe('rate_limited');
        // A refused submission records nothing: not live, not counted.
        expect(await index(s)).toEqual(before);
        // Another account has its own budget.
        await submitted((await givenAccount(s)).key, merchant(), s);
        // Rolling: 24 hours after the first submission, one slot is free again, and only one.
        s.clock.advance(DAY - 20 * 60_000);
        await submitted(a.key, merchant(), s);
        expect((await submit(a.key, merchant(), s)).status).toBe(429);
        s.clock.advance(60_000);
        await submitted(a.key, merchant(), s);
        await s.recipes.screening.idle();
      } finally {
        await s.close();
      }
    });

    it('when the deployment sets another budget, then that budget applies', async () => {
      const s = await startRecipeServer({ config: { limitOverrides: { 'recipe-submissions-per-account': 2 } } });
      try {
        const a = await givenAccount(s);
        await submitted(a.key, merchant(), s);
        await submitted(a.key, merchant(), s);
        const res = await submit(a.key, merchant(), s);
        expect(res.status).toBe(429);
        expect(res.body.code).toBe('rate_limited');
        await s.recipes.screening.idle();
      } finally {
        await s.close();
      }
    });
  });

  describe('screening', () => {
    it('when a submission is accepted, then it is pending with an empty verdict until screening runs after the response', async () => {
      const a = await givenAccount(t);
      t.recipes.screening.pause();
      const id = await submitted(a.key, merchant());
      expect((await poll(a.key, id)).body).toMatchObject({ id, status: 'pending', verdict: [] });
      t.recipes.screening.resume();
      await t.recipes.screening.idle();
      expect((await poll(a.key, id)).body.status).toBe('approved');
    });

    it('when the recipe serves its own site and names a known platform, then approved with the findings as fixed texts', async () => {
      const a = await givenAccount(t);
      const site = freshSite();
      const sub = await screened(a.key, merchant(site, { platform: 'shopify', match: { hosts: [site, `shop.${site}`] } }));
      expect(sub).toMatchObject({ key: site, status: 'approved', verdict: [VERDICT.wellFormed, VERDICT.hostsOnSite] });
    });

    const needsHuman: [string, () => unknown, string][] = [
      ['names a platform the registry does not have', () => merchant(undefined, { platform: 'bigcartel' }), VERDICT.unknownPlatform],
      ['lists a host outside the key’s site', () => merchant(undefined, { match: { hosts: ['checkout.elsewhere.com'] } }), VERDICT.hostOffSite],
      ['has a key that names no site', () => merchant('my-little-shop', { match: { hosts: ['www.my-little-shop.com'] } }), VERDICT.keyNotSite],
      ['takes the key of a recipe of another kind', () => ({ key: 'payco', kind: 'merchant', status: 'partial', platform: 'custom' }), VERDICT.kindChanged],
      ['claims verification', () => ({ recipe: merchant(), note: 'Bought socks, order 77.', verificationRequested: true }), VERDICT.verificationClaimed],
    ];
    for (const [name, body, finding] of needsHuman) {
      it(`when the recipe ${name}, then needs_human and the recipe stays live`, async () => {
        const a = await givenAccount(t);
        const sent = body() as any;
        const sub = await screened(a.key, sent);
        expect(sub.status).toBe('needs_human');
        expect(sub.verdict).toContain(finding);
        const key = (sent.recipe ?? sent).key;
        expect((await entry(key)).registryVersion).toBe('submission');
        await decide(sub.id, 'reject');
      });
    }

    it('when a dead-end comes without a note, then rejected and withdrawn; with a note, then approved', async () => {
      const a = await givenAccount(t);
      const bare = merchant(undefined, { status: 'dead-end' });
      const rejected = await screened(a.key, bare);
      expect(rejected).toMatchObject({ status: 'rejected', verdict: expect.arrayContaining([VERDICT.deadEndWithoutNote]) });
      expect(await entry(bare.key)).toBeUndefined();
      const explained = merchant(undefined, { status: 'dead-end' });
      const approved = await screened(a.key, { recipe: explained, note: 'Payment needs a phone call.' });
      expect(approved.status).toBe('approved');
      expect((await entry(explained.key)).status).toBe('dead-end');
    });

    it('when a contribution of a release key is rejected, then the release recipe serves the key again', async () => {
      const a = await givenAccount(t);
      const sent = { key: 'hooli.shop', kind: 'merchant', platform: 'custom', status: 'dead-end', match: { hosts: ['hooli.shop'] } };
      t.recipes.screening.pause();
      const id = await submitted(a.key, sent);
      expect((await entry('hooli.shop')).registryVersion).toBe('submission');
      t.recipes.screening.resume();
      await t.recipes.screening.idle();
      expect((await poll(a.key, id)).body.status).toBe('rejected');
      expect(await entry('hooli.shop')).toMatchObject({ registryVersion: '2026.11', status: 'dead-end' });
    });

    it('when the recipe body carries evidence, then the evidence is not published', async () => {
      const a = await givenAccount(t);
      const recipe = merchant(undefined, { evidence: 'Trust me.' });
      const sub = await screened(a.key, recipe);
      expect(sub.verdict).toContain(VERDICT.evidenceNotPublished);
      expect((await entry(recipe.key)).recipe).not.toHaveProperty('evidence');
    });

    it('when the server restarts with submissions pending, then they are screened', async () => {
      const db = openDb(':memory:');
      const first = await startRecipeServer({ db });
      const a = await givenAccount(first);
      first.recipes.screening.pause();
      const id = await submitted(a.key, merchant(), first);
      await first.close();
      const second = await startRecipeServer({ db });
      try {
        await second.recipes.screening.idle();
        expect((await poll(a.key, id, second)).body.status).toBe('approved');
      } finally {
        await second.close();
      }
    });
  });
});

describe('verified recipes and unreviewed contributions', () => {
  // A server of its own: these tests put contributions on the release's verified acme.com.
  let v: RecipeServer;
  beforeAll(async () => {
    v = await startRecipeServer();
  });
  afterAll(() => v.close());

  /** Every public answer a cache or a client could keep: the index, the full bundle and lookups, as sent. */
  async function publicAnswers(pages: string[]) {
    const read = async (path: string) => {
      const res = await v.call(path);
      return { status: res.status, cacheControl: res.headers.get('cache-control'), text: await res.text() };
    };
    return {
      index: await read('/v1/recipes'),
      full: await read('/v1/recipes?full=1'),
      lookups: await Promise.all(pages.map((p) => read(`/v1/recipes?url=${encodeURIComponent(p)}`))),
    };
  }

  const ACME_PAGES = ['https://www.acme.com/checkout', 'https://www.acme.com/checkout/pay', 'https://shop.acme.com/checkout', 'https://acme.com/cart'];

  it("when a contribution takes a verified recipe's key, then no public answer changes until a maintainer merges it", async () => {
    const a = await givenAccount(v);
    const before = await publicAnswers(ACME_PAGES);
    expect(before.index.cacheControl).toBe('public, max-age=300');
    expect(JSON.parse(before.full.text).recipes.find((e: any) => e.key === 'acme.com')).toMatchObject({ status: 'verified', registryVersion: '2026.11' });
    const poisoned = merchant('acme.com', { status: 'partial', match: { hosts: ['www.acme.com', 'acme.com'], paths: ['/checkout/'] }, steps: [{ action: 'goto', path: '/elsewhere' }] });
    const sub = await screened(a.key, { recipe: poisoned, note: 'Checked out with these steps.', verificationRequested: true }, v);
    // What a cache keeps for 300 s after this request is what it kept before: the verified recipe.
    expect(await publicAnswers(ACME_PAGES)).toEqual(before);
    expect(sub.status).toBe('needs_human');
    expect(sub.verdict).toContain(VERDICT.coversVerified);

    await decide(sub.id, 'merge', v);
    expect(await entry('acme.com', v)).toMatchObject({ status: 'partial', registryVersion: 'submission', recipe: { steps: poisoned.steps } });
    expect((await lookup('https://www.acme.com/checkout/pay', v)).body.merchant).toEqual({ id: 'acme.com', kind: 'merchant', platform: 'custom', status: 'partial' });
    await decide(sub.id, 'reject', v);
    expect(await publicAnswers(ACME_PAGES)).toEqual(before);
  });

  it('when a contribution of another key lists a host a verified recipe serves, then lookups keep the verified recipe until a merge', async () => {
    const a = await givenAccount(v);
    const before = await publicAnswers(ACME_PAGES);
    // An exact host, and a subdomain that the verified acme.com serves through its registrable domain;
    // each would win the slot by its exact host or its longer path.
    const exact = await screened(a.key, merchant('acme-deals.com', { match: { hosts: ['www.acme.com'], paths: ['/checkout/pay'] } }), v);
    const subdomain = await screened(a.key, merchant('acme-shop.com', { match: { hosts: ['shop.acme.com'] } }), v);
    expect(await publicAnswers(ACME_PAGES)).toEqual(before);
    for (const sub of [exact, subdomain]) expect(sub).toMatchObject({ status: 'needs_human', verdict: expect.arrayContaining([VERDICT.coversVerified]) });
    expect(await entry('acme-deals.com', v)).toBeUndefined();

    await decide(exact.id, 'merge', v);
    expect((await lookup('https://www.acme.com/checkout/pay', v)).body.merchant.id).toBe('acme-deals.com');
    expect((await lookup('https://shop.acme.com/checkout', v)).body.merchant.id).toBe('acme.com');
    await decide(exact.id, 'reject', v);
    await decide(subdomain.id, 'reject', v);
    expect(await publicAnswers(ACME_PAGES)).toEqual(before);
  });

  it('when a maintainer verified a contribution, then a later contribution of its key or one of its hosts is held back too', async () => {
    const a = await givenAccount(v);
    const site = freshSite();
    const first = await screened(a.key, { recipe: merchant(site), note: 'Bought socks with these steps.', verificationRequested: true }, v);
    await decide(first.id, 'verify', v);
    const verified = await entry(site, v);
    expect(verified).toMatchObject({ status: 'verified', registryVersion: 'submission' });
    v.clock.advance(1000);
    const sameKey = await screened(a.key, merchant(site, { status: 'partial' }), v);
    const sameHost = await screened(a.key, merchant(`pay.${site}`, { match: { hosts: [`www.${site}`], paths: ['/checkout/card'] } }), v);
    expect(await entry(site, v)).toEqual(verified);
    expect(await entry(`pay.${site}`, v)).toBeUndefined();
    expect((await lookup(`https://www.${site}/checkout/card`, v)).body.merchant).toMatchObject({ id: site, status: 'verified' });
    for (const sub of [sameKey, sameHost]) expect(sub.verdict).toContain(VERDICT.coversVerified);
  });

  it('when a contribution displaces nothing verified, then it is live at once, on the same site too', async () => {
    const a = await givenAccount(v);
    // The release's signup:acme.com is unverified and its payco platform partial: neither is protected.
    const signup = { key: 'signup:acme.com', kind: 'signup', platform: 'custom', status: 'partial', match: { hosts: ['www.acme.com'], paths: ['/register'] } };
    const platform = { key: 'payco-two', kind: 'platform', status: 'partial', match: { hosts: ['checkout.payco.com'], paths: ['/pay'] } };
    for (const recipe of [signup, platform, merchant()]) {
      const sub = await screened(a.key, recipe, v);
      expect(sub.verdict).not.toContain(VERDICT.coversVerified);
      expect(await entry(recipe.key, v)).toMatchObject({ registryVersion: 'submission', status: recipe.status });
    }
    expect((await lookup('https://www.acme.com/register', v)).body.signup).toEqual({ id: 'signup:acme.com', kind: 'signup', platform: 'custom', status: 'partial' });
    expect((await lookup('https://checkout.payco.com/pay', v)).body.platform.id).toBe('payco-two');
  });

  it('when the newest contribution of a key is held back, then the live contribution before it keeps serving', async () => {
    const a = await givenAccount(v);
    const site = freshSite();
    await screened(a.key, merchant(site, { status: 'unverified' }), v);
    const held = await screened(a.key, merchant(site, { status: 'partial', match: { hosts: ['www.acme.com'], paths: ['/checkout/gift'] } }), v);
    expect(held.verdict).toContain(VERDICT.coversVerified);
    expect(await entry(site, v)).toMatchObject({ status: 'unverified', recipe: { match: { hosts: [`www.${site}`] } } });
    expect((await lookup('https://www.acme.com/checkout/gift', v)).body.merchant.id).toBe('acme.com');
  });

  it('when a maintainer verifies a recipe, then an unreviewed contribution that would displace it is held back from then on', async () => {
    const a = await givenAccount(v);
    const site = freshSite();
    const earlier = await screened(a.key, merchant(site, { status: 'unverified' }), v);
    expect((await entry(site, v)).status).toBe('unverified');
    const claimed = await screened(a.key, { recipe: merchant(`www.${site}`, { match: { hosts: [`www.${site}`] } }), note: 'Bought a cable.', verificationRequested: true }, v);
    await decide(claimed.id, 'verify', v);
    // The earlier contribution lists www.<site>, which the verified one now serves; nobody merged it.
    expect(await entry(site, v)).toBeUndefined();
    expect((await lookup(`https://www.${site}/checkout`, v)).body.merchant).toMatchObject({ id: `www.${site}`, status: 'verified' });
    await decide(earlier.id, 'merge', v);
    expect((await entry(site, v)).status).toBe('unverified');
  });
});

describe('getRecipeSubmission', () => {
  it("when the caller's account made the submission, then 200 with id, key, status and verdict, for any of its keys", async () => {
    const a = await givenAccount(t);
    const other = await a.addKey();
    const recipe = merchant();
    const id = await submitted(a.key, recipe);
    await t.recipes.screening.idle();
    const res = await poll(other.key, id);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({ id, key: recipe.key, status: 'approved', verdict: [VERDICT.wellFormed, VERDICT.hostsOnSite] });
  });

  it("when the id is another account's submission or unknown, then 404 not_found", async () => {
    const a = await givenAccount(t);
    const id = await submitted(a.key, merchant());
    const stranger = await givenAccount(t);
    for (const probe of [id, 'sub_00000000000000000000000000000000', 'x']) {
      const res = await poll(stranger.key, probe);
      expect(res.status, probe).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body.code).toBe('not_found');
    }
    await t.recipes.screening.idle();
  });

  it('when no key is sent, then 401 unauthorized', async () => {
    const res = await get('/v1/recipes/submissions/sub_x');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });
});

describe('decideRecipeSubmission (fixture surface)', () => {
  it('when a maintainer verifies a claim, then the recipe goes live as verified with the note as evidence', async () => {
    const a = await givenAccount(t);
    const recipe = merchant(undefined, { status: 'verified' });
    const note = 'Bought a phone case on 2026-11-12 with these steps; confirmation page showed order 1042.';
    const sub = await screened(a.key, { recipe, note, verificationRequested: true });
    expect(sub.status).toBe('needs_human');
    expect((await entry(recipe.key)).status).toBe('unverified');
    const res = await decide(sub.id, 'verify');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.submission).toEqual({ id: sub.id, key: recipe.key, status: 'merged', verdict: [...sub.verdict, VERDICT.verified] });
    expect(res.body.live).toEqual({
      key: recipe.key,
      kind: 'merchant',
      platform: 'custom',
      status: 'verified',
      registryVersion: 'submission',
      recipe: { ...recipe, status: 'verified', evidence: note },
    });
    expect((await lookup(`https://www.${recipe.key}/checkout`)).body.merchant.status).toBe('verified');
    expect((await poll(a.key, sub.id)).body.status).toBe('merged');
  });

  it('when the verified note has leading or trailing spaces and newlines, then it is published as evidence exactly as written', async () => {
    const a = await givenAccount(t);
    const recipe = merchant();
    const note = ' \n\t Bought a USB cable on 2026-11-12 with these steps; order 1042 confirmed. \n\n ';
    const sub = await screened(a.key, { recipe, note, verificationRequested: true });
    const res = await decide(sub.id, 'verify');
    expect(res.status).toBe(200);
    expect(res.body.live.recipe.evidence).toBe(note);
    expect((await entry(recipe.key)).recipe.evidence).toBe(note);
  });

  it('when a maintainer merges an older submission, then it becomes the live version of its key again', async () => {
    const a = await givenAccount(t);
    const site = freshSite();
    const first = await screened(a.key, merchant(site, { status: 'partial' }));
    await screened(a.key, merchant(site, { status: 'unverified' }));
    expect((await entry(site)).status).toBe('unverified');
    t.clock.advance(1000);
    const res = await decide(first.id, 'merge');
    expect(res.body.submission.status).toBe('merged');
    expect(res.body.submission.verdict.at(-1)).toBe(VERDICT.merged);
    expect(res.body.live).toMatchObject({ status: 'partial', registryVersion: 'submission' });
    expect((await entry(site)).status).toBe('partial');
  });

  it('when a maintainer rejects the live contribution of a key, then the previous one serves, or none', async () => {
    const a = await givenAccount(t);
    const site = freshSite();
    const first = await screened(a.key, merchant(site, { status: 'partial' }));
    const second = await screened(a.key, merchant(site, { status: 'unverified' }));
    const res = await decide(second.id, 'reject');
    expect(res.body.submission).toMatchObject({ status: 'rejected', verdict: [...second.verdict, VERDICT.rejected] });
    expect(res.body.live).toMatchObject({ key: site, status: 'partial' });
    expect((await decide(first.id, 'reject')).body.live).toBeNull();
    expect(await entry(site)).toBeUndefined();
  });

  it('when a maintainer decides a submission still pending, then screening leaves the decision alone', async () => {
    const a = await givenAccount(t);
    t.recipes.screening.pause();
    const id = await submitted(a.key, merchant());
    expect((await decide(id, 'merge')).body.submission).toMatchObject({ status: 'merged', verdict: [VERDICT.merged] });
    t.recipes.screening.resume();
    await t.recipes.screening.idle();
    expect((await poll(a.key, id)).body).toMatchObject({ status: 'merged', verdict: [VERDICT.merged] });
  });

  it('when the submission is unknown, then 404 not_found; without the admin token, then 401', async () => {
    expect((await decide('sub_unknown', 'merge')).status).toBe(404);
    const res = await answer(await t.call('/_fixtures/recipe-submissions/sub_x/decision', { method: 'POST', json: { decision: 'merge' } }));
    expect(res.status).toBe(401);
    expect((await decide('sub_x', 'approve')).status).toBe(400);
  });
});

describe('the published screening rules', () => {
  it('when the document describes submitRecipe, then it carries every fixed verdict text the server can write', () => {
    const doc = contract().doc as any;
    const published = String(doc.paths['/v1/recipes'].post.description).replace(/\s+/g, ' ');
    for (const text of Object.values(VERDICT)) expect(published, text).toContain(text);
  });
});
