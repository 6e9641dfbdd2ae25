import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainToUnicode } from 'node:url';
import type { TestServer } from './support.js';
import { contract } from './support.js';
import { decide, file, fileOk, fixture, nextMinute, poll, signupAccount, signupToken, startSignupServer, type Account } from './signup-support.js';
import { hostName, registrableWebsite } from '../domain/sites.js';

/**
 * Sites and host names (the document's "Sites and host names", sections 2.1, 4.1, 4.6): a website
 * is a host name; an internationalised name has one normal form, ASCII, which is what is stored,
 * compared (pre-approvals, the catalog's `url` filter) and returned.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startSignupServer();
});
afterAll(() => t.close());

const email = 'agent@example.com';
// `exÿ.com` in its ASCII form, as the WHATWG URL host rules (and browsers) convert it.
const IDN = 'exÿ.com';
const IDN_ASCII = 'xn--ex-7ka.com';

async function approvedLogin(a: Account, website: string) {
  nextMinute(t);
  const filed = await fileOk(t, a.key, { website, email });
  if (filed.status === 'pending') await decide(t, await signupToken(t, a.accountId, filed.requestId), 'approve');
  return (await poll(t, a.key, filed.requestId)).body.login as { label: string; website: string };
}

async function catalogLogins(a: Account, query: string) {
  const res = await t.call(`/v1/tokens?${query}`, { key: a.key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { logins: { label: string }[] }).logins.map((l) => l.label);
}

describe('fileSignupRequest website', () => {
  it('when the website is not a host name, then 400 invalid_website with the document sentence and nothing is filed', async () => {
    const a = await signupAccount(t);
    const sentence = contract().resolve(contract().doc.components.schemas.SignupRequestCreate).properties.website['x-error-message'];
    // The URL delimiters and `%` are refused, never read as the end of the host or decoded.
    const delimited = ['acme.com/login', 'acme.com?x', 'acme.com#x', 'acme.com\\x', '%61cme.com', 'a^b.com'];
    for (const website of ['a_b.com', 'a!b.com', 'ex$mple.com', '-acme.com', 'acme-.com', 'xn--zz.com', `${'a'.repeat(64)}.com`, 'ex\u0000.com', 'acme.com.', ...delimited]) {
      nextMinute(t);
      const res = await file(t, a.key, { website, email });
      expect(res.status, website).toBe(400);
      const body = (await res.json()) as { code: string; error: string };
      expect(body.code, website).toBe('invalid_website');
      expect(body.error, website).toMatch(/^website must be .*registrable domain/);
      if (!website.includes('\u0000') && /[^a-z0-9.-]/.test(website)) expect(body.error, website).toBe(sentence);
    }
    expect(((await (await fixture(t, 'GET', `/accounts/${a.accountId}/links`)).json()) as { links: unknown[] }).links).toEqual([]);
  });

  it('when the website is an internationalised name or has capitals, then the login is stored and returned in ASCII lower case', async () => {
    const a = await signupAccount(t);
    expect((await approvedLogin(a, IDN)).website).toBe(IDN_ASCII);
    expect((await approvedLogin(a, 'ACME.com')).website).toBe('acme.com');
    // The same site written either way is one site: the second login takes the next label.
    const again = await approvedLogin(a, IDN_ASCII);
    expect(again.website).toBe(IDN_ASCII);
    expect(again.label).toMatch(/2$/);
  });

  it('when the website has characters the WHATWG host rules map or drop, then it is converted, not refused, as the catalog reads the same page', async () => {
    const a = await signupAccount(t);
    const converted: [string, string][] = [
      ['example\u3002org', 'example.org'],
      ['\u{1F600}.com', 'xn--e28h.com'],
      ['soft\u00ADhyphen.com', 'softhyphen.com'],
      ['\uFF41cme-fullwidth.com', 'acme-fullwidth.com'],
    ];
    for (const [website, ascii] of converted) {
      const login = await approvedLogin(a, website);
      expect(login.website, website).toBe(ascii);
      expect(registrableWebsite(website), website).toBe(ascii);
      // The catalog's url filter reads the same name the same way: the page finds the login.
      expect(await catalogLogins(a, `url=${encodeURIComponent(`https://${website}/`)}`), website).toContain(login.label);
    }
  });

  it('when a pre-approved site is listed in one form and filed in the other, then it is the same site', async () => {
    const a = await signupAccount(t);
    expect((await fixture(t, 'POST', `/accounts/${a.accountId}/signup-preapprovals`, { sites: IDN.toUpperCase(), email })).status).toBe(200);
    nextMinute(t);
    expect((await fileOk(t, a.key, { website: IDN_ASCII, email })).status).toBe('approved');
    const b = await signupAccount(t);
    await fixture(t, 'POST', `/accounts/${b.accountId}/signup-preapprovals`, { sites: IDN_ASCII, email });
    nextMinute(t);
    expect((await fileOk(t, b.key, { website: IDN, email })).status).toBe('approved');
  });
});

describe('getTokenCatalog url filter', () => {
  it('when the page is given in either form of an internationalised name, then the login registered for it is listed', async () => {
    const a = await signupAccount(t);
    const login = await approvedLogin(a, IDN);
    for (const page of [`https://www.${IDN}/login`, `https://shop.${IDN_ASCII}/`, IDN.toUpperCase(), encodeURIComponent(`https://${IDN}/`)]) {
      expect(await catalogLogins(a, `url=${page.startsWith('https%3A') ? page : encodeURIComponent(page)}`), page).toEqual([login.label]);
    }
  });

  it('when the page host is not a host name, then it matches no site', async () => {
    const a = await signupAccount(t);
    await fixture(t, 'POST', `/accounts/${a.accountId}/logins`, { website: 'ab.com', password: 'saved-password' });
    expect(await catalogLogins(a, 'url=https://ab.com/')).toEqual(['ab']);
    // A subdomain whose label is not a host-name label: the URL rules and the suffix list would take it.
    for (const page of ['https://a_b.ab.com/', 'a_b.ab.com', 'https://x!.ab.com/']) expect(await catalogLogins(a, `url=${encodeURIComponent(page)}`), page).toEqual([]);
  });
});

describe('fixture surface sites', () => {
  it('when a login, extra site or allow-list site is not a host name, then 400 invalid_website; an internationalised one is stored in ASCII', async () => {
    const a = await signupAccount(t);
    const login = (body: Record<string, unknown>) => fixture(t, 'POST', `/accounts/${a.accountId}/logins`, { password: 'saved-password', ...body });
    expect(((await (await login({ website: 'a_b.com' })).json()) as { code: string }).code).toBe('invalid_website');
    expect(((await (await login({ website: 'acme.com', extraWebsites: ['https://x_y.acme.com/'] })).json()) as { code: string }).code).toBe('invalid_website');
    const card = await fixture(t, 'POST', `/accounts/${a.accountId}/cards`, { number: '4242424242424242', anySite: false, allow: ['a_b.com'] });
    expect(((await card.json()) as { code: string }).code).toBe('invalid_website');
    const saved = await login({ website: `https://www.${IDN}/`, extraWebsites: [`login.${IDN}`] });
    expect(saved.status).toBe(201);
    expect(await saved.json()).toMatchObject({ website: IDN_ASCII, extraWebsites: [`login.${IDN_ASCII}`] });
  });
});

describe('the normal form', () => {
  it('when a name is converted, then it is the ASCII form of the WHATWG URL rules, in lower case, and converts back', () => {
    expect(hostName(IDN)).toBe(IDN_ASCII);
    expect(hostName('MÜNCHEN.de')).toBe('xn--mnchen-3ya.de');
    expect(domainToUnicode(hostName('例え.jp')!)).toBe('例え.jp');
    expect(hostName('acme。com')).toBe('acme.com');
    for (const bad of ['a_b.com', 'a b.com', '', 'xn--a.com', 'a..com', `${'a'.repeat(64)}.com`, `${'a.'.repeat(127)}com`]) expect(hostName(bad), bad).toBeNull();
    expect(registrableWebsite('www.acme.com')).toBeNull();
    expect(registrableWebsite('someone.github.io')).toBe('someone.github.io');
    expect(registrableWebsite('ACME.CO.UK')).toBe('acme.co.uk');
  });
});
