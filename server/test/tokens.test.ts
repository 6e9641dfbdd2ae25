import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, givenAccount, type TestServer } from './support.js';
import { insertCard } from '../store/cards.js';
import { insertLogin, deleteLogin } from '../store/logins.js';
import { insertAddress, setIdentityFields } from '../store/profile.js';
import { getKey, revokeKey } from '../store/keys.js';
import { setPlan } from '../store/accounts.js';
import { tokenFieldsOfIdentityField } from '../domain/profile-fields.js';

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(() => t.close());

/** An account with a site-scoped card for acme.com, an any-site card, logins on acme and others. */
async function richAccount(plan: 'Free' | 'Plus' = 'Free') {
  const a = await givenAccount(t, { plan });
  const now = t.clock.now();
  const base = { accountId: a.accountId, now };
  await insertCard(t.db, t.sealer, { ...base, number: '4000056655665556', anySite: true, allow: [], block: [], agent: false, limits: null });
  await insertCard(t.db, t.sealer, { ...base, number: '4242424242424242', anySite: false, allow: ['acme.com'], block: [], agent: false, limits: null });
  await insertCard(t.db, t.sealer, { ...base, number: '5200828282828210', anySite: false, allow: ['other.org'], block: [], agent: false, limits: null });
  await insertLogin(t.db, t.sealer, { ...base, label: 'acme', website: 'acme.com', extraWebsites: ['login.acmeid.net'], email: 'jane@example.com', password: 'acme-secret-pass' });
  await insertLogin(t.db, t.sealer, { ...base, label: 'acme2', website: 'acme.co.uk', extraWebsites: [], username: 'jane_uk', password: 'uk-secret-pass', totpSecret: 'JBSWY3DPEHPK3PXP' });
  await insertLogin(t.db, t.sealer, { ...base, label: 'github', website: 'github.com', extraWebsites: [], password: 'gh-secret-pass' });
  await setIdentityFields(t.db, t.sealer, a.accountId, { first_name: 'Jane', last_name: 'Doe', phone: '+14155550100' }, tokenFieldsOfIdentityField);
  await insertAddress(t.db, t.sealer, { accountId: a.accountId, label: 'home', fields: { line1: '1 Market St', city: 'San Francisco' }, now });
  return a;
}

async function catalog(key: string, query = '') {
  const res = await t.call(`/v1/tokens${query}`, { key });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return (await res.json()) as any;
}

describe('getTokenCatalog', () => {
  describe('authentication', () => {
    it('when the Authorization header is missing, then 401 unauthorized with no-store', async () => {
      const res = await t.call('/v1/tokens');
      expect(res.status).toBe(401);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toMatchObject({ code: 'unauthorized' });
    });

    it('when the header is not in Bearer form, then 401 unauthorized', async () => {
      const { key } = await givenAccount(t);
      for (const value of [`Basic ${key}`, key, 'Bearer', 'bearer']) {
        const res = await t.call('/v1/tokens', { headers: { authorization: value } });
        expect(res.status, value).toBe(401);
        expect((await res.json()).code).toBe('unauthorized');
      }
    });

    it('when the key is unknown or revoked, then 401 invalid_api_key', async () => {
      const a = await givenAccount(t);
      expect((await t.call('/v1/tokens', { key: 'vk_unknown' })).status).toBe(401);
      // Used a moment before, so a key remembered from that request must not outlive the revocation.
      expect((await t.call('/v1/tokens', { key: a.key })).status).toBe(200);
      await revokeKey(t.db, a.keyId, t.clock.now());
      const res = await t.call('/v1/tokens', { key: a.key });
      expect(res.status).toBe(401);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect((await res.json()).code).toBe('invalid_api_key');
    });
  });

  describe('the catalog', () => {
    it('when fetched, then cards, logins, identity with missing, phone tokens and addresses are listed', async () => {
      const a = await richAccount();
      const body = await catalog(a.key);
      expect(body.relatedLogins).toBeUndefined();
      expect(body.cards).toHaveLength(3);
      expect(body.cards.map((c: any) => c.anySite)).toEqual([true, false, false]);
      const acme = body.logins.find((l: any) => l.label === 'acme');
      expect(acme).toMatchObject({ website: 'acme.com', extraWebsites: ['login.acmeid.net'], hasEmail: true, hasTotp: false });
      expect(acme.hasUsername).toBeUndefined();
      expect(Object.keys(acme.tokens).sort()).toEqual(['email', 'password']);
      const uk = body.logins.find((l: any) => l.label === 'acme2');
      expect(uk).toMatchObject({ hasEmail: false, hasUsername: true, hasTotp: true });
      expect(Object.keys(uk.tokens).sort()).toEqual(['password', 'totp', 'username']);
      expect(Object.keys(body.identity.tokens)).toEqual(
        expect.arrayContaining(['first_name', 'phone', 'phone_country', 'phone_national', 'phone_area', 'phone_prefix', 'phone_line']),
      );
      expect(body.identity.missing).toEqual(expect.arrayContaining(['full_name', 'email', 'date_of_birth']));
      expect(body.identity.missing).not.toContain('first_name');
      expect(body.identity.missing).not.toContain('phone');
      expect(body.addresses).toEqual([{ label: 'home', tokens: expect.objectContaining({ line1: expect.any(String), city: expect.any(String) }) }]);
    });

    it('when an identity field is empty, then its token is still listed and the field is in missing', async () => {
      const a = await givenAccount(t);
      const body = await catalog(a.key);
      expect(body.identity.missing).toEqual(
        expect.arrayContaining(['first_name', 'phone', 'phone_country', 'phone_national', 'phone_area', 'phone_prefix', 'phone_line']),
      );
      expect(body.identity.tokens.phone_line).toEqual(expect.any(String));
    });

    it('when fetched twice, then the tokens are the same, distinct and never a stored value', async () => {
      const a = await richAccount();
      const first = await catalog(a.key);
      const second = await catalog(a.key);
      expect(second).toEqual(first);
      const text = JSON.stringify(first);
      const tokens = [...text.matchAll(/"(tok_[^"]+)"/g)].map((m) => m[1]);
      expect(new Set(tokens).size).toBe(tokens.length);
      for (const secret of ['4000056655665556', '4242424242424242', 'acme-secret-pass', 'JBSWY3DPEHPK3PXP', 'jane@example.com', 'jane_uk', 'Jane', '4155550100', 'Market']) {
        expect(text).not.toContain(secret);
      }
    });

    it('when a scoped key fetches, then only the logins on its list are listed', async () => {
      const a = await richAccount();
      const loginId = (t.db.sqlite.prepare("SELECT id FROM logins WHERE account_id = ? AND label = 'github'").get(a.accountId) as { id: string }).id;
      const scoped = await a.addKey({ scopedTo: [loginId] });
      const body = await catalog(scoped.key);
      expect(body.logins.map((l: any) => l.label)).toEqual(['github']);
    });

    it('when a login is deleted, then it leaves the catalog', async () => {
      const a = await richAccount();
      await deleteLogin(t.db, a.accountId, 'github');
      const body = await catalog(a.key);
      expect(body.logins.map((l: any) => l.label)).not.toContain('github');
    });

    it('when the fetch succeeds, then the key is marked as used', async () => {
      const a = await givenAccount(t);
      expect((await getKey(t.db, a.keyId))?.last_used_at).toBeNull();
      await catalog(a.key);
      const first = t.clock.now();
      expect((await getKey(t.db, a.keyId))?.last_used_at).toBe(first);
      // Kept to the second.
      t.clock.advance(999);
      await catalog(a.key);
      expect((await getKey(t.db, a.keyId))?.last_used_at).toBe(first);
      t.clock.advance(1);
      await catalog(a.key);
      expect((await getKey(t.db, a.keyId))?.last_used_at).toBe(t.clock.now());
    });

    it('when account data changes between fetches, then the next fetch shows it at once', async () => {
      const a = await givenAccount(t);
      expect((await catalog(a.key)).cards).toEqual([]);
      const base = { accountId: a.accountId, now: t.clock.now() };
      await insertCard(t.db, t.sealer, { ...base, number: '4000056655665556', anySite: true, allow: [], block: [], agent: false, limits: null });
      expect((await catalog(a.key)).cards).toHaveLength(1);
      await insertLogin(t.db, t.sealer, { ...base, label: 'shop', website: 'shop.example', extraWebsites: [], email: 'j@example.com', password: 'pass-1234' });
      expect((await catalog(a.key)).logins.map((l: any) => l.label)).toEqual(['shop']);
      await deleteLogin(t.db, a.accountId, 'shop');
      expect((await catalog(a.key)).logins).toEqual([]);
    });
  });

  describe('url and host', () => {
    it('when url names a page, then page cards come first, anySite cards after, and logins narrow to the site', async () => {
      const a = await richAccount();
      const body = await catalog(a.key, `?url=${encodeURIComponent('https://www.acme.com/checkout?step=2#pay')}`);
      expect(body.cards.map((c: any) => c.anySite)).toEqual([false, true]);
      expect(body.logins.map((l: any) => l.label)).toEqual(['acme']);
      expect(body.relatedLogins.map((l: any) => l.label)).toEqual(['acme2']);
      expect(body.identity.tokens.first_name).toEqual(expect.any(String));
      expect(body.addresses).toHaveLength(1);
    });

    it('when the url is sent unencoded, then it is read the same way', async () => {
      const a = await richAccount();
      const body = await catalog(a.key, '?url=https://www.acme.com/checkout');
      expect(body.logins.map((l: any) => l.label)).toEqual(['acme']);
    });

    it('when host is given instead of url, then it acts as the same filter', async () => {
      const a = await richAccount();
      expect(await catalog(a.key, '?host=shop.acme.com')).toEqual(await catalog(a.key, '?url=https://shop.acme.com/'));
    });

    it("when the page is one of a login's extra sites, then the login is registered for it", async () => {
      const a = await richAccount();
      const body = await catalog(a.key, '?host=login.acmeid.net');
      expect(body.logins.map((l: any) => l.label)).toEqual(['acme']);
      expect(body.cards.map((c: any) => c.anySite)).toEqual([true]);
    });

    it('when the url does not parse, then every site-scoped card and every login is dropped and anySite cards kept', async () => {
      const a = await richAccount();
      const full = await catalog(a.key);
      for (const bad of ['not a url', '%%%', 'http://', '127.0.0.1', 'com']) {
        const body = await catalog(a.key, `?url=${encodeURIComponent(bad)}`);
        expect(body.cards.map((c: any) => c.anySite), bad).toEqual([true]);
        expect(body.logins, bad).toEqual([]);
        expect(body.relatedLogins, bad).toEqual([]);
        expect(body.identity).toEqual(full.identity);
        expect(body.addresses).toEqual(full.addresses);
      }
    });

    it('when url is empty or repeated, or the page is sent unencoded with its own query, then 200: empty or repeated matches no site, the query is ignored', async () => {
      const a = await richAccount();
      const empty = await t.call('/v1/tokens?url=', { key: a.key });
      expect(empty.status).toBe(200);
      const emptyBody = (await empty.json()) as any;
      expect(emptyBody.cards.map((c: any) => c.anySite)).toEqual([true]);
      expect(emptyBody.logins).toEqual([]);
      const page = await catalog(a.key, `?url=${encodeURIComponent('https://www.acme.com/checkout')}`);
      const unencoded = await t.call('/v1/tokens?url=https://www.acme.com/checkout?step=1&coupon=x', { key: a.key });
      expect(unencoded.status).toBe(200);
      expect(await unencoded.json()).toEqual(page);
      // Sent twice, it is no one page: read as empty, it matches no site.
      const twice = await t.call(`/v1/tokens?url=${encodeURIComponent('https://www.acme.com/checkout')}&url=https://other.org/`, { key: a.key });
      expect(twice.status).toBe(200);
      expect(await twice.json()).toEqual(emptyBody);
    });
  });

  describe('rate limits', () => {
    it('when a Free key sends 61 requests in a minute, then the 60th passes, the 61st is 429 with Retry-After, and the next window lets requests through', async () => {
      const a = await givenAccount(t, { plan: 'Free' });
      // Start at the top of a fixed minute so Retry-After is predictable.
      t.clock.advance(60_000 - (t.clock.now() % 60_000));
      for (let i = 1; i <= 60; i++) expect((await t.call('/v1/tokens', { key: a.key })).status, `request ${i}`).toBe(200);
      t.clock.advance(15_500);
      const refused = await t.call('/v1/tokens', { key: a.key });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect(refused.headers.get('retry-after')).toBe('45');
      expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
      t.clock.advance(44_500);
      expect((await t.call('/v1/tokens', { key: a.key })).status).toBe(200);
    });

    it('when the window has under a second left, then Retry-After is 1', async () => {
      const a = await givenAccount(t, { plan: 'Free' });
      t.clock.advance(60_000 - (t.clock.now() % 60_000));
      for (let i = 0; i < 60; i++) await t.call('/v1/tokens', { key: a.key });
      t.clock.advance(59_900);
      const refused = await t.call('/v1/tokens', { key: a.key });
      expect(refused.headers.get('retry-after')).toBe('1');
    });

    it('when two keys of a Free account share the minute, then the account refuses the 121st request', async () => {
      const a = await givenAccount(t, { plan: 'Free' });
      const b = await a.addKey();
      const c = await a.addKey();
      t.clock.advance(60_000 - (t.clock.now() % 60_000));
      for (let i = 0; i < 60; i++) expect((await t.call('/v1/tokens', { key: a.key })).status).toBe(200);
      for (let i = 0; i < 60; i++) expect((await t.call('/v1/tokens', { key: b.key })).status).toBe(200);
      const refused = await t.call('/v1/tokens', { key: c.key });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    });

    it('when a request is refused, then it records nothing', async () => {
      const a = await givenAccount(t, { plan: 'Free' });
      const b = await a.addKey();
      t.clock.advance(60_000 - (t.clock.now() % 60_000));
      for (let i = 0; i < 60; i++) await t.call('/v1/tokens', { key: a.key });
      // Refused requests of key a must not eat into the account's budget that key b still uses.
      for (let i = 0; i < 30; i++) expect((await t.call('/v1/tokens', { key: a.key })).status).toBe(429);
      for (let i = 0; i < 60; i++) expect((await t.call('/v1/tokens', { key: b.key })).status, `b ${i + 1}`).toBe(200);
    });

    it("when the account's limit refuses a request, then nothing is charged to the key's own counter either", async () => {
      const a = await givenAccount(t, { plan: 'Free' });
      const b = await a.addKey();
      const c = await a.addKey();
      t.clock.advance(60_000 - (t.clock.now() % 60_000));
      // 40 requests per key fill the Free account's 120 while each key is under its own 60.
      for (const key of [a.key, b.key, c.key]) for (let i = 0; i < 40; i++) expect((await t.call('/v1/tokens', { key })).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await t.call('/v1/tokens', { key: a.key })).status, 'refused by the account').toBe(429);
      // The refusals show through the API once the account's limit no longer binds: on Plus within the same
      // minute, key a has exactly 300 - 40 requests left, not 300 - 45.
      await setPlan(t.db, a.accountId, 'Plus');
      let passed = 0;
      while ((await t.call('/v1/tokens', { key: a.key })).status === 200) passed++;
      expect(passed).toBe(300 - 40);
    });

    it('when requests arrive concurrently, then exactly the plan limit passes', async () => {
      const a = await givenAccount(t, { plan: 'Free' });
      t.clock.advance(60_000 - (t.clock.now() % 60_000));
      const statuses = await Promise.all(Array.from({ length: 90 }, () => t.call('/v1/tokens', { key: a.key }).then((r) => r.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    });

    it('when the plan is Plus, then its own per-key limit applies', async () => {
      const a = await givenAccount(t, { plan: 'Plus' });
      t.clock.advance(60_000 - (t.clock.now() % 60_000));
      const statuses = await Promise.all(Array.from({ length: 301 }, () => t.call('/v1/tokens', { key: a.key }).then((r) => r.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    });
  });
});

describe('errors outside the operations', () => {
  it('when the path is unknown, then 404 not_found as JSON', async () => {
    const res = await t.call('/v1/unknown');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found', error: expect.any(String) });
  });

  it('when the method is not documented, then 405 with Allow and a JSON error', async () => {
    const res = await t.call('/v1/tokens', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(await res.json()).toMatchObject({ code: 'bad_request' });
  });

  it('when the request log is written, then it names the key id but never the key or a query value', async () => {
    const a = await givenAccount(t);
    await t.call('/v1/tokens?url=https://secret-page.example/', { key: a.key });
    const text = JSON.stringify(t.logs);
    expect(text).toContain(a.keyId);
    expect(text).not.toContain(a.key);
    expect(text).not.toContain('secret-page');
  });
});
