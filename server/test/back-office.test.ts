import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, contract, readAnswer, type Answer, type TestServer } from './support.js';
import { openDb } from '../store/db.js';
import { realClock } from '../domain/clock.js';
import { createApp } from '../app.js';
import { getLoginByLabel } from '../store/logins.js';

/**
 * The back office (openapi/back-office.yaml) over real HTTP: the admin token, every
 * dashboard-side rule at its boundary, and that no answer ever carries a stored secret.
 */

const ADMIN = 'test-admin';
let t: TestServer;
/** Every response body this file receives, to prove no stored secret is ever sent back. */
const bodies: string[] = [];
/** Every secret this file stores. */
const secrets = new Set<string>();

beforeAll(async () => {
  t = await startServer({ config: { adminToken: ADMIN } });
});
afterAll(() => t.close());

async function record(res: Response): Promise<Answer> {
  const answer = await readAnswer(res);
  bodies.push(answer.text);
  return answer;
}

/** A fixture call with the admin token (or `key` to send another one, null for none). */
async function fx(method: string, path: string, json?: unknown, key: string | null = ADMIN): Promise<Answer> {
  return record(await t.call(`/_fixtures${path}`, { method, key: key ?? undefined, json }));
}

async function catalog(key: string): Promise<Answer> {
  return record(await t.call('/v1/tokens', { key }));
}

async function account(plan: 'Free' | 'Plus' | 'Enterprise' = 'Free'): Promise<string> {
  const res = await fx('POST', '/accounts', { plan });
  expect(res.status).toBe(201);
  return res.body.accountId;
}

async function key(accountId: string, body: Record<string, unknown> = { name: 'agent' }): Promise<{ keyId: string; key: string }> {
  const res = await fx('POST', `/accounts/${accountId}/keys`, body);
  expect(res.status).toBe(201);
  return res.body;
}

let passwordCounter = 0;
function secret(prefix: string): string {
  const value = `${prefix}-${++passwordCounter}-${randomBytes(6).toString('hex')}`;
  secrets.add(value);
  return value;
}

async function login(accountId: string, body: Record<string, unknown>): Promise<Answer> {
  if (typeof body.password === 'string') secrets.add(body.password);
  if (typeof body.totpSecret === 'string') secrets.add(body.totpSecret);
  return fx('POST', `/accounts/${accountId}/logins`, body);
}

let cardCounter = 0;
async function card(accountId: string, body: Record<string, unknown>): Promise<Answer> {
  const number = `41111111${String(++cardCounter).padStart(8, '0')}`;
  secrets.add(number);
  return fx('POST', `/accounts/${accountId}/cards`, { number, ...body });
}

async function resolves(token: string) {
  const res = await fx('POST', '/tokens/resolve', { token });
  expect(res.status).toBe(200);
  return res.body as { resolves: boolean; reason?: string };
}

describe('admin token', () => {
  it('when the Authorization header is missing, then 401 unauthorized with no-store', async () => {
    const res = await fx('POST', '/accounts', { plan: 'Free' }, null);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('when the token is wrong or is an API key, then 401 unauthorized', async () => {
    const accountId = await account();
    const { key: apiKey } = await key(accountId);
    for (const wrong of ['test-admin2', 'test-admi', apiKey]) {
      const res = await fx('GET', '/clock', undefined, wrong);
      expect(res.status, wrong).toBe(401);
      expect(res.body.code).toBe('unauthorized');
    }
    const basic = await record(await t.call('/_fixtures/clock', { headers: { authorization: `Basic ${ADMIN}` } }));
    expect(basic.status).toBe(401);
  });

  it('when the token is wrong on an unknown fixture path, then 401, not 404', async () => {
    expect((await fx('GET', '/nothing-here', undefined, 'nope')).status).toBe(401);
    const known = await fx('GET', '/nothing-here');
    expect(known.status).toBe(404);
    expect(known.body.code).toBe('not_found');
  });

  it('when the server has no admin token, then the fixture surface does not exist', async () => {
    const plain = await startServer();
    try {
      const res = await plain.call('/_fixtures/accounts', { method: 'POST', key: ADMIN, json: { plan: 'Free' } });
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('not_found');
    } finally {
      await plain.close();
    }
  });
});

describe('createAccount', () => {
  it('when a plan is given, then 201 with the account', async () => {
    const res = await fx('POST', '/accounts', { plan: 'Plus', name: 'Test holder' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ plan: 'Plus', name: 'Test holder' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('when the plan is unknown or the body is not JSON, then 400 bad_request', async () => {
    expect((await fx('POST', '/accounts', { plan: 'Gold' })).body.code).toBe('bad_request');
    const res = await record(await t.call('/_fixtures/accounts', { method: 'POST', key: ADMIN, headers: { 'content-type': 'application/json' }, body: '{' }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
  });
});

describe('changeAccountPlan', () => {
  it('when a Free account moves to Plus, then a second agent card fits', async () => {
    const accountId = await account('Free');
    expect((await card(accountId, { anySite: true, agent: true })).status).toBe(201);
    expect((await card(accountId, { anySite: true, agent: true })).status).toBe(403);
    const res = await fx('PATCH', `/accounts/${accountId}`, { plan: 'Plus' });
    expect(res.status).toBe(200);
    expect(res.body.plan).toBe('Plus');
    expect((await card(accountId, { anySite: true, agent: true })).status).toBe(201);
  });

  it('when the account does not exist, then 404 not_found', async () => {
    const res = await fx('PATCH', '/accounts/acct_nope', { plan: 'Plus' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('deleteAccount', () => {
  it('when an account is deleted, then its keys are invalid and its tokens resolve to token_not_found', async () => {
    const accountId = await account();
    const { key: apiKey } = await key(accountId);
    const created = await login(accountId, { website: 'acme.com', password: secret('pw') });
    const token = created.body.tokens.password;
    expect(await resolves(token)).toEqual({ resolves: true });

    expect((await fx('DELETE', `/accounts/${accountId}`)).status).toBe(204);
    const res = await catalog(apiKey);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_api_key');
    expect(await resolves(token)).toEqual({ resolves: false, reason: 'token_not_found' });
    expect((await fx('DELETE', `/accounts/${accountId}`)).status).toBe(404);
  });
});

describe('createApiKey', () => {
  it('when the name has 200 characters after trimming, then 201 and the trimmed name is kept', async () => {
    const accountId = await account();
    const name = 'k'.repeat(200);
    const res = await fx('POST', `/accounts/${accountId}/keys`, { name: `  ${name}\t ` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, signup: false, scope: 'all' });
    expect(res.body.key).toMatch(/\S{20,}/);
    expect((await catalog(res.body.key)).status).toBe(200);
  });

  it('when the name has 201 characters after trimming, then 400 api_key_label_too_long', async () => {
    const accountId = await account();
    const res = await fx('POST', `/accounts/${accountId}/keys`, { name: 'k'.repeat(201) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('api_key_label_too_long');
  });

  it('when the scope lists labels, then the key sees only those logins', async () => {
    const accountId = await account();
    await login(accountId, { website: 'acme.com', password: secret('pw') });
    await login(accountId, { website: 'github.com', password: secret('pw') });
    const scoped = await key(accountId, { name: 'scoped', scope: ['github'], signup: true });
    const res = await catalog(scoped.key);
    expect(res.body.logins.map((l: { label: string }) => l.label)).toEqual(['github']);
  });

  it('when the scope names an unknown label, then 404 not_found and no key is issued', async () => {
    const accountId = await account();
    const res = await fx('POST', `/accounts/${accountId}/keys`, { name: 'scoped', scope: ['nosuch'] });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('revokeApiKey', () => {
  it('when a key is revoked, then GET /v1/tokens answers 401 invalid_api_key', async () => {
    const accountId = await account();
    const { keyId, key: apiKey } = await key(accountId);
    expect((await catalog(apiKey)).status).toBe(200);
    expect((await fx('DELETE', `/accounts/${accountId}/keys/${keyId}`)).status).toBe(204);
    const res = await catalog(apiKey);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_api_key');
    expect((await fx('DELETE', `/accounts/${accountId}/keys/${keyId}`)).status).toBe(204);
  });

  it('when the key belongs to another account, then 404 not_found', async () => {
    const { keyId } = await key(await account());
    const res = await fx('DELETE', `/accounts/${await account()}/keys/${keyId}`);
    expect(res.status).toBe(404);
  });
});

describe('addKeyLogin and removeKeyLogin', () => {
  it('when a login is added to and removed from a scoped key, then the catalog follows', async () => {
    const accountId = await account();
    await login(accountId, { website: 'acme.com', password: secret('pw') });
    const scoped = await key(accountId, { name: 'scoped', scope: [] });
    expect((await catalog(scoped.key)).body.logins).toEqual([]);
    expect((await fx('PUT', `/accounts/${accountId}/keys/${scoped.keyId}/logins/acme`)).status).toBe(204);
    expect((await catalog(scoped.key)).body.logins.map((l: { label: string }) => l.label)).toEqual(['acme']);
    expect((await fx('DELETE', `/accounts/${accountId}/keys/${scoped.keyId}/logins/acme`)).status).toBe(204);
    expect((await catalog(scoped.key)).body.logins).toEqual([]);
  });

  it('when the key sees all logins, then 409 key_not_scoped', async () => {
    const accountId = await account();
    await login(accountId, { website: 'acme.com', password: secret('pw') });
    const all = await key(accountId);
    const res = await fx('PUT', `/accounts/${accountId}/keys/${all.keyId}/logins/acme`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('key_not_scoped');
  });

  it('when the label is unknown, then 404 not_found', async () => {
    const accountId = await account();
    const scoped = await key(accountId, { name: 'scoped', scope: [] });
    expect((await fx('PUT', `/accounts/${accountId}/keys/${scoped.keyId}/logins/acme`)).status).toBe(404);
  });
});

describe('addCard', () => {
  it('when an agent card has a spending limit of zero or less, then 400 agent_card_cap_not_enforceable', async () => {
    const accountId = await account('Enterprise');
    for (const limits of [{ perTransaction: 0 }, { perWeek: -5 }, { per30Days: 0, perDay: 10 }]) {
      const res = await card(accountId, { anySite: true, agent: true, limits });
      expect(res.status, JSON.stringify(limits)).toBe(400);
      expect(res.body.code).toBe('agent_card_cap_not_enforceable');
    }
  });

  it('when limits are blank or just above zero, then 201', async () => {
    const accountId = await account('Enterprise');
    const blank = await card(accountId, { anySite: true, agent: true, limits: { perTransaction: null, perDay: null, perWeek: null, per30Days: null } });
    expect(blank.status).toBe(201);
    expect(blank.body).toMatchObject({ anySite: true, agent: true });
    expect(blank.body.tokens.number).toEqual(expect.any(String));
    expect((await card(accountId, { anySite: true, agent: true, limits: { perTransaction: 0.01 } })).status).toBe(201);
    expect((await card(accountId, { anySite: true, agent: true })).status).toBe(201);
  });

  it("when a Free account adds a second agent card, then 403 plan_quota_reached and nothing is saved", async () => {
    const accountId = await account('Free');
    const { key: apiKey } = await key(accountId);
    expect((await card(accountId, { anySite: true, agent: true })).status).toBe(201);
    const res = await card(accountId, { anySite: true, agent: true });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('plan_quota_reached');
    expect((await card(accountId, { anySite: true })).status).toBe(201);
    expect((await catalog(apiKey)).body.cards).toHaveLength(2);
  });

  it('when a card has an allow list, then the catalog keeps it for those sites only', async () => {
    const accountId = await account();
    const { key: apiKey } = await key(accountId);
    const res = await card(accountId, { anySite: false, allow: ['https://www.acme.com/shop'], block: [] });
    expect(res.status).toBe(201);
    const forAcme = await record(await t.call('/v1/tokens?url=https://acme.com/', { key: apiKey }));
    expect(forAcme.body.cards).toHaveLength(1);
    const forOther = await record(await t.call('/v1/tokens?url=https://other.org/', { key: apiKey }));
    expect(forOther.body.cards).toHaveLength(0);
  });

  it('when an any-site card has an allow list, or a plain card has limits, then 400 bad_request', async () => {
    const accountId = await account();
    expect((await card(accountId, { anySite: true, allow: ['acme.com'] })).body.code).toBe('bad_request');
    expect((await card(accountId, { anySite: true, limits: { perTransaction: 5 } })).body.code).toBe('bad_request');
    expect((await card(accountId, { anySite: false, allow: ['localhost'] })).body.code).toBe('invalid_website');
  });
});

describe('addLogin', () => {
  const hosts = (n: number) => Array.from({ length: n }, (_, i) => `s${i}.example.com`);

  it('when a login has 10 extra sites after reduction to hosts, then 201', async () => {
    const accountId = await account();
    // Twelve entries, ten hosts: a URL and its bare host are one site.
    const extra = [...hosts(10), 'https://s0.example.com/login', 'S1.EXAMPLE.COM'];
    const res = await login(accountId, { website: 'acme.com', extraWebsites: extra, password: secret('pw') });
    expect(res.status).toBe(201);
    expect(res.body.extraWebsites).toHaveLength(10);
  });

  it('when a login has 11 extra sites, then 400 login_extra_sites_limit and nothing is saved', async () => {
    const accountId = await account();
    const { key: apiKey } = await key(accountId);
    const res = await login(accountId, { website: 'acme.com', extraWebsites: hosts(11), password: secret('pw') });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('login_extra_sites_limit');
    expect((await catalog(apiKey)).body.logins).toEqual([]);
  });

  it('when the username or password has 3 characters, then 400 with their codes; 4 is accepted', async () => {
    const accountId = await account();
    const short = await login(accountId, { website: 'acme.com', username: 'abc', password: secret('pw') });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('login_username_too_short');
    const shortPw = await login(accountId, { website: 'acme.com', password: 'p@s' });
    expect(shortPw.status).toBe(400);
    expect(shortPw.body.code).toBe('login_password_too_short');
    const ok = await login(accountId, { website: 'acme.com', username: 'abcd', password: 'p@ss' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ label: 'acme', website: 'acme.com', hasUsername: true, hasEmail: false, hasTotp: false });
  });

  it('when every field is given, then the entry lists their tokens and the catalog the same entry', async () => {
    const accountId = await account();
    const { key: apiKey } = await key(accountId);
    const res = await login(accountId, {
      website: 'https://www.acme.co.uk/account',
      extraWebsites: ['login.acmeid.net'],
      email: 'jane@example.com',
      username: 'jane.doe',
      password: secret('pw'),
      totpSecret: `JBSWY3DP${randomBytes(4).toString('hex').toUpperCase()}`,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ label: 'acme', website: 'acme.co.uk', extraWebsites: ['login.acmeid.net'], hasEmail: true, hasTotp: true });
    expect(Object.keys(res.body.tokens).sort()).toEqual(['email', 'password', 'totp', 'username']);
    expect((await catalog(apiKey)).body.logins).toEqual([res.body]);
  });

  it('when labels collide, then <name>2 and on; sites with the same name share them', async () => {
    const accountId = await account();
    const labels = [];
    for (const website of ['acme.com', 'acme.co.uk', 'shop.acme.com']) {
      labels.push((await login(accountId, { website, password: secret('pw') })).body.label);
    }
    expect(labels).toEqual(['acme', 'acme2', 'acme3']);
  });

  it('when every label of a site name is taken, then 409 label_unavailable', async () => {
    const small = await startServer({ config: { adminToken: ADMIN, limitOverrides: { 'labels-per-site-name': 2 } } });
    try {
      const post = async (body: unknown, path = '/_fixtures/accounts') =>
        small.call(path, { method: 'POST', key: ADMIN, json: body }).then(async (r) => ({ status: r.status, body: await r.json() }));
      const { body: acct } = await post({ plan: 'Free' });
      const path = `/_fixtures/accounts/${acct.accountId}/logins`;
      expect((await post({ website: 'acme.com', password: 'pass1' }, path)).status).toBe(201);
      expect((await post({ website: 'acme.com', password: 'pass2' }, path)).status).toBe(201);
      const res = await post({ website: 'acme.com', password: 'pass3' }, path);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('label_unavailable');
    } finally {
      await small.close();
    }
  });

  it('when the site names no registrable domain, then 400 invalid_website', async () => {
    const accountId = await account();
    expect((await login(accountId, { website: 'localhost', password: secret('pw') })).body.code).toBe('invalid_website');
    expect((await login(accountId, { website: 'acme.com', extraWebsites: ['not a site'], password: secret('pw') })).body.code).toBe('invalid_website');
  });
});

describe('removeLogin', () => {
  it('when a login is deleted, then its tokens dangle and resolve to token_not_found', async () => {
    const accountId = await account();
    const { key: apiKey } = await key(accountId);
    const res = await login(accountId, { website: 'acme.com', email: 'jane@example.com', password: secret('pw') });
    const { password, email } = res.body.tokens;
    expect((await fx('DELETE', `/accounts/${accountId}/logins/acme`)).status).toBe(204);
    expect(await resolves(password)).toEqual({ resolves: false, reason: 'token_not_found' });
    expect(await resolves(email)).toEqual({ resolves: false, reason: 'token_not_found' });
    expect((await catalog(apiKey)).body.logins).toEqual([]);
    expect((await fx('DELETE', `/accounts/${accountId}/logins/acme`)).status).toBe(404);
  });
});

describe('replaceLoginPassword', () => {
  it('when the account holder replaces a password, then the tokens stay and the password is owner-managed', async () => {
    const accountId = await account();
    const { key: apiKey } = await key(accountId);
    const before = (await login(accountId, { website: 'acme.com', password: secret('pw') })).body;
    const res = await fx('PUT', `/accounts/${accountId}/logins/acme/password`, { password: secret('own') });
    expect(res.status).toBe(204);
    expect((await getLoginByLabel(t.db, accountId, 'acme'))!.password_owner_managed).toBe(1);
    expect((await catalog(apiKey)).body.logins).toEqual([before]);
    expect(await resolves(before.tokens.password)).toEqual({ resolves: true });
  });

  it('when the new password has 3 characters, then 400 login_password_too_short', async () => {
    const accountId = await account();
    await login(accountId, { website: 'acme.com', password: secret('pw') });
    const res = await fx('PUT', `/accounts/${accountId}/logins/acme/password`, { password: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('login_password_too_short');
    expect((await getLoginByLabel(t.db, accountId, 'acme'))!.password_owner_managed).toBe(0);
  });
});

describe('setIdentityFields', () => {
  const setPhone = async (accountId: string, phone: string) => fx('PATCH', `/accounts/${accountId}/identity`, { phone });

  it('when a phone number has 3 digits after the country code, then 400 phone_shape; 4 is accepted', async () => {
    const accountId = await account();
    const short = await setPhone(accountId, '+44 123');
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('phone_shape');
    const ok = await setPhone(accountId, '+44 1234');
    expect(ok.status).toBe(200);
    expect(ok.body.missing).not.toContain('phone');
  });

  it('when a phone number has 16 digits in all, then 400 phone_shape; 15 is accepted', async () => {
    const accountId = await account();
    expect((await setPhone(accountId, '+1 234567890123456')).body.code).toBe('phone_shape');
    expect((await setPhone(accountId, '+1 23456789012345')).status).toBe(200);
  });

  it('when a phone number is not international or names no country code, then 400 phone_shape', async () => {
    const accountId = await account();
    for (const phone of ['4155550100', '+', '+1 415 555 0100 ext 2', '+3 1234567']) {
      expect((await setPhone(accountId, phone)).body.code, phone).toBe('phone_shape');
    }
  });

  it('when fields are set and cleared, then their tokens stay and resolve only while filled', async () => {
    const accountId = await account();
    const first = await fx('PATCH', `/accounts/${accountId}/identity`, { first_name: 'Jane', phone: '+1 (415) 555-0100' });
    expect(first.status).toBe(200);
    const tokens = first.body.tokens;
    expect(first.body.missing).not.toContain('first_name');
    expect(first.body.missing).toContain('last_name');
    expect(await resolves(tokens.first_name)).toEqual({ resolves: true });
    expect(await resolves(tokens.phone_area)).toEqual({ resolves: true });
    expect(await resolves(tokens.last_name)).toEqual({ resolves: false, reason: 'token_not_found' });

    const uk = await fx('PATCH', `/accounts/${accountId}/identity`, { first_name: null, phone: '+44 20 7946 0958' });
    expect(uk.body.tokens).toEqual(tokens);
    expect(uk.body.missing).toContain('first_name');
    expect(await resolves(tokens.first_name)).toEqual({ resolves: false, reason: 'token_not_found' });
    expect(await resolves(tokens.phone_national)).toEqual({ resolves: true });
    expect(await resolves(tokens.phone_area)).toEqual({ resolves: false, reason: 'token_not_found' });
  });

  it('when a field is unknown, then 400 bad_request', async () => {
    const res = await fx('PATCH', `/accounts/${await account()}/identity`, { shoe_size: '42' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
  });
});

describe('addAddress', () => {
  it('when the label has 16 characters, then 201; 17 gives 400 address_label_shape', async () => {
    const accountId = await account();
    const ok = await fx('POST', `/accounts/${accountId}/addresses`, { label: 'a1'.repeat(8), line1: '1 Market St' });
    expect(ok.status).toBe(201);
    expect(ok.body.label).toBe('a1'.repeat(8));
    const long = await fx('POST', `/accounts/${accountId}/addresses`, { label: 'a'.repeat(17) });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('address_label_shape');
  });

  it('when the label is empty or not lowercase letters and digits, then 400 address_label_shape', async () => {
    const accountId = await account();
    for (const label of ['', 'Home', 'my-home', 'home ']) {
      expect((await fx('POST', `/accounts/${accountId}/addresses`, { label })).body.code, label).toBe('address_label_shape');
    }
  });

  it('when the label is a reserved word, then 400 address_label_reserved', async () => {
    const accountId = await account();
    for (const label of ['card', 'city', 'email']) {
      const res = await fx('POST', `/accounts/${accountId}/addresses`, { label });
      expect(res.status).toBe(400);
      expect(res.body.code, label).toBe('address_label_reserved');
    }
  });

  it('when the label is taken, then 409 address_label_taken', async () => {
    const accountId = await account();
    expect((await fx('POST', `/accounts/${accountId}/addresses`, { label: 'home' })).status).toBe(201);
    const res = await fx('POST', `/accounts/${accountId}/addresses`, { label: 'home' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('address_label_taken');
  });

  it('when an address is saved, then the catalog lists it and only filled fields resolve', async () => {
    const accountId = await account();
    const { key: apiKey } = await key(accountId);
    const res = await fx('POST', `/accounts/${accountId}/addresses`, { label: 'work', line1: '1 Market St', phone: '+1 415 555 0100' });
    expect(res.status).toBe(201);
    expect((await catalog(apiKey)).body.addresses).toEqual([res.body]);
    expect(await resolves(res.body.tokens.line1)).toEqual({ resolves: true });
    expect(await resolves(res.body.tokens.line2)).toEqual({ resolves: false, reason: 'token_not_found' });
    const badPhone = await fx('POST', `/accounts/${accountId}/addresses`, { label: 'other', phone: '+1 415' });
    expect(badPhone.body.code).toBe('phone_shape');
  });
});

describe('getClock and advanceClock', () => {
  it('when the clock is manual, then advancing moves the server time', async () => {
    const before = await fx('GET', '/clock');
    expect(before.body).toEqual({ now: t.clock.now(), manual: true });
    const res = await fx('POST', '/clock/advance', { ms: 90_000 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ now: before.body.now + 90_000, manual: true });
    expect(t.clock.now()).toBe(before.body.now + 90_000);
  });

  it('when ms is negative or not a whole number, then 400 bad_request', async () => {
    for (const ms of [-1, 1.5, '10']) {
      const res = await fx('POST', '/clock/advance', { ms });
      expect(res.status, String(ms)).toBe(400);
      expect(res.body.code).toBe('bad_request');
    }
  });

  it('when the server runs on the real clock, then 409 clock_not_manual', async () => {
    const db = openDb(':memory:');
    const app = createApp({ db, clock: realClock, masterKey: randomBytes(32), contract: contract(), config: { adminToken: ADMIN }, log: () => {} });
    const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_fixtures`;
      const headers = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
      const clock = await (await fetch(`${base}/clock`, { headers })).json();
      expect(clock.manual).toBe(false);
      const res = await fetch(`${base}/clock/advance`, { method: 'POST', headers, body: JSON.stringify({ ms: 1000 }) });
      expect(res.status).toBe(409);
      expect((await res.json()).code).toBe('clock_not_manual');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    }
  });
});

describe('resolveToken', () => {
  it('when a token is unknown, then token_not_found', async () => {
    expect(await resolves('tok_login_password_0000')).toEqual({ resolves: false, reason: 'token_not_found' });
    expect(await resolves('anything')).toEqual({ resolves: false, reason: 'token_not_found' });
  });

  it('when a card is saved, then its number resolves and its security code needs live entry', async () => {
    const accountId = await account();
    const res = await card(accountId, { anySite: true });
    expect(await resolves(res.body.tokens.number)).toEqual({ resolves: true });
    expect(await resolves(res.body.tokens.securityCode)).toEqual({ resolves: false, reason: 'cvv_entry_required' });
  });

  it('when a login has no TOTP secret, then no totp token; with one, the token resolves', async () => {
    const accountId = await account();
    const without = await login(accountId, { website: 'acme.com', password: secret('pw') });
    expect(without.body.tokens.totp).toBeUndefined();
    const withTotp = await login(accountId, { website: 'github.com', password: secret('pw'), totpSecret: secret('TOTP') });
    expect(await resolves(withTotp.body.tokens.totp)).toEqual({ resolves: true });
  });
});

describe('stored secrets', () => {
  it('when every fixture above has answered, then no response body contained a stored secret', () => {
    expect(secrets.size).toBeGreaterThan(10);
    expect(bodies.length).toBeGreaterThan(50);
    for (const value of secrets) {
      for (const body of bodies) expect(body.includes(value), `a response contained ${value}`).toBe(false);
    }
    // Identity and address values stored above.
    for (const value of ['Jane', '4155550100', '2079460958', '1 Market St']) {
      expect(bodies.some((b) => b.includes(value)), value).toBe(false);
    }
  });
});
