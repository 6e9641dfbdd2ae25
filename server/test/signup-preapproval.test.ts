import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './support.js';
import {
  DAY,
  addLogins,
  decide,
  file,
  fileOk,
  fixture,
  links,
  nextMinute,
  poll,
  signupAccount,
  signupToken,
  startSignupServer,
  type Account,
} from './signup-support.js';
import { getLoginByLabel } from '../store/logins.js';

let t: TestServer;
beforeAll(async () => {
  t = await startSignupServer();
});
afterAll(() => t.close());

const email = 'agent@example.com';

async function list(a: Account, sites: string, withEmail = email) {
  const res = await fixture(t, 'POST', `/accounts/${a.accountId}/signup-preapprovals`, { sites, email: withEmail });
  return { status: res.status, body: (await res.json()) as any };
}

async function listed(a: Account) {
  return ((await (await fixture(t, 'GET', `/accounts/${a.accountId}/signup-preapprovals`)).json()) as any).sites as { site: string; signups: number }[];
}

async function fileFor(a: Account, website: string, withEmail = email) {
  nextMinute(t);
  return fileOk(t, a.key, { website, email: withEmail });
}

describe('fileSignupRequest', () => {
  describe('pre-approved signups', () => {
    it('when the site and exact email are listed, then the request is approved at once and the first poll carries the tokens', async () => {
      const a = await signupAccount(t);
      expect((await list(a, 'acme.com')).status).toBe(200);
      const filed = await fileFor(a, 'acme.com');
      expect(filed).toEqual({ requestId: expect.any(String), status: 'approved', expiresAt: t.clock.now() + DAY });
      // No link: the account holder decided in advance.
      expect(await links(t, a.accountId)).toEqual([]);
      const polled = await poll(t, a.key, filed.requestId);
      expect(polled.body).toMatchObject({ status: 'approved', passwordOwnerManaged: false, login: { label: 'acme', website: 'acme.com', hasEmail: true } });
      expect(Object.keys(polled.body.login.tokens).sort()).toEqual(['email', 'password']);
      expect((await getLoginByLabel(t.db, a.accountId, 'acme'))!.created_by_key).toBe(a.keyId);
    });

    it('when the email differs even in case, or the site is another, then the request is pending', async () => {
      const a = await signupAccount(t);
      await list(a, 'acme.com');
      expect((await fileFor(a, 'acme.com', 'Agent@example.com')).status).toBe('pending');
      expect((await fileFor(a, 'acme.co.uk')).status).toBe('pending');
      expect((await listed(a))[0]).toEqual({ site: 'acme.com', signups: 0 });
    });

    it('when a listed site had 2 pre-approved signups, then the third is pending until the site is removed and re-added', async () => {
      const a = await signupAccount(t);
      await list(a, 'acme.com');
      expect((await fileFor(a, 'acme.com')).status).toBe('approved');
      expect((await fileFor(a, 'acme.com')).status).toBe('approved');
      expect((await listed(a))[0]).toEqual({ site: 'acme.com', signups: 2 });
      expect((await fileFor(a, 'acme.com')).status).toBe('pending');
      // Saved again with the same email: the count stays.
      await list(a, 'acme.com');
      expect((await fileFor(a, 'acme.com')).status).toBe('pending');
      expect((await fixture(t, 'DELETE', `/accounts/${a.accountId}/signup-preapprovals/acme.com`)).status).toBe(204);
      expect((await fileFor(a, 'acme.com')).status).toBe('pending');
      await list(a, 'acme.com');
      expect((await fileFor(a, 'acme.com')).status).toBe('approved');
    });

    it('when a listed site is saved with another email, then its count starts again and only the new email is pre-approved', async () => {
      const a = await signupAccount(t);
      await list(a, 'acme.com');
      await fileFor(a, 'acme.com');
      await fileFor(a, 'acme.com');
      await list(a, 'acme.com', 'other@example.com');
      expect((await listed(a))[0]).toEqual({ site: 'acme.com', signups: 0 });
      expect((await fileFor(a, 'acme.com')).status).toBe('pending');
      expect((await fileFor(a, 'acme.com', 'other@example.com')).status).toBe('approved');
    });

    it('when 60 pre-approved signups were made in the 24-hour window, then the 61st is pending until 24 hours after the first', async () => {
      const a = await signupAccount(t);
      const sites = Array.from({ length: 31 }, (_, i) => `p${i}x.com`);
      await list(a, sites.join('\n'));
      const first = t.clock.now();
      for (let i = 0; i < 60; i++) {
        if (i % 20 === 0) nextMinute(t);
        const filed = await fileOk(t, a.key, { website: sites[Math.floor(i / 2)]!, email });
        expect(filed.status, `signup ${i + 1}`).toBe('approved');
      }
      const windowStart = first + (60_000 - (first % 60_000));
      nextMinute(t);
      expect((await fileOk(t, a.key, { website: sites[30]!, email })).status).toBe('pending');
      t.clock.advance(windowStart + DAY - 1 - t.clock.now());
      expect((await fileOk(t, a.key, { website: sites[30]!, email })).status).toBe('pending');
      t.clock.advance(1);
      expect((await fileOk(t, a.key, { website: sites[30]!, email })).status).toBe('approved');
    });

    it('when an approval check fails, then the pre-approved request falls back to pending and the site keeps its allowance', async () => {
      const a = await signupAccount(t);
      await addLogins(t, a.accountId, ['acme', ...Array.from({ length: 49 }, (_, i) => `acme${i + 2}`)]);
      await list(a, 'acme.com');
      const filed = await fileFor(a, 'acme.com');
      expect(filed.status).toBe('pending');
      expect((await listed(a))[0]!.signups).toBe(0);
      const token = await signupToken(t, a.accountId, filed.requestId);
      const shown = await t.call(`/v1/signup-requests/${token}`);
      expect(((await shown.json()) as any).approvalFailure).toBe('label_unavailable');
    });

    it("when a scoped key's own list is full, then the pre-approved request falls back to pending", async () => {
      const a = await signupAccount(t, { scopedTo: [] });
      await addLogins(t, a.accountId, Array.from({ length: 50 }, (_, i) => `own${i}`), { createdByKey: a.keyId, onListOf: a.keyId });
      await list(a, 'acme.com');
      expect((await fileFor(a, 'acme.com')).status).toBe('pending');
    });

    it('when the account holds 500 logins, then a pre-approved request is refused with 403 login_limit too', async () => {
      const a = await signupAccount(t);
      await addLogins(t, a.accountId, Array.from({ length: 500 }, (_, i) => `saved${i}`));
      await list(a, 'acme.com');
      nextMinute(t);
      const res = await file(t, a.key, { website: 'acme.com', email });
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('login_limit');
      expect((await listed(a))[0]!.signups).toBe(0);
    });

    it('when five requests are pending, then a pre-approved request still completes, since it never waits', async () => {
      const a = await signupAccount(t);
      for (let i = 0; i < 5; i++) await fileFor(a, `wait${i}.com`);
      await list(a, 'acme.com');
      expect((await fileFor(a, 'acme.com')).status).toBe('approved');
      // Falling back to pending would need a sixth slot: refused.
      await list(a, 'acme.com', 'other@example.com');
      nextMinute(t);
      const res = await file(t, a.key, { website: 'acme.com', email });
      expect(res.status).toBe(429);
      expect((await res.json()).code).toBe('too_many_pending');
    });
  });
});

describe('pre-approved signups and the credential-change budget', () => {
  let spent: TestServer;
  beforeAll(async () => {
    // A deployment whose credential-change budget is 0: every counted change is refused.
    spent = await startSignupServer({ limitOverrides: { 'credential-changes-per-account': 0 } });
  });
  afterAll(() => spent.close());

  it('when the budget is spent, then a pre-approved signup still completes and an account-holder approval stays pending with daily_limit', async () => {
    const a = await signupAccount(spent);
    await fixture(spent, 'POST', `/accounts/${a.accountId}/signup-preapprovals`, { sites: 'acme.com', email });
    expect((await fileOk(spent, a.key, { website: 'acme.com', email })).status).toBe('approved');
    const filed = await fileOk(spent, a.key, { website: 'other.com', email });
    const token = await signupToken(spent, a.accountId, filed.requestId);
    expect((await decide(spent, token, 'approve')).body).toMatchObject({ status: 'pending', approvalFailure: 'daily_limit' });
  });
});

describe('addPreapprovedSites', () => {
  it('when an add has 100 lines it is saved; 101 lines, duplicates counted, is 400 signup_preapproval_too_many and nothing is saved', async () => {
    const a = await signupAccount(t);
    const hundred = Array.from({ length: 100 }, (_, i) => `s${i}.com`);
    expect((await list(a, `\n${hundred.join('\n')}\n\n`)).status).toBe(200);
    expect(await listed(a)).toHaveLength(100);
    const b = await signupAccount(t);
    const refused = await list(b, [...hundred.slice(0, 99), 's0.com', 's1.com'].join('\n'));
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('signup_preapproval_too_many');
    expect(await listed(b)).toEqual([]);
  });

  it('when the list would hold more than 300 sites, then 400 signup_preapproval_too_many and nothing is saved', async () => {
    const a = await signupAccount(t);
    for (let n = 0; n < 3; n++) {
      expect((await list(a, Array.from({ length: 100 }, (_, i) => `n${n}s${i}.com`).join('\n'))).status).toBe(200);
    }
    // Sites already listed do not count again.
    expect((await list(a, 'n0s1.com\nn2s99.com')).status).toBe(200);
    const refused = await list(a, 'n0s1.com\none-more.com');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('signup_preapproval_too_many');
    expect(await listed(a)).toHaveLength(300);
  });

  it('when a line names no registrable domain or the email is not one address, then 400 and nothing is saved', async () => {
    const a = await signupAccount(t);
    const site = await list(a, 'acme.com\nco.uk');
    expect(site.status).toBe(400);
    expect(site.body.code).toBe('invalid_website');
    const mail = await list(a, 'acme.com', 'not an email');
    expect(mail.status).toBe(400);
    expect(mail.body.code).toBe('invalid_email');
    expect(await listed(a)).toEqual([]);
  });

  it('when a line is a URL or a subdomain, then its registrable domain is listed', async () => {
    const a = await signupAccount(t);
    await list(a, 'https://www.acme.co.uk/signup?x=1\nshop.example.com');
    expect((await listed(a)).map((s) => s.site)).toEqual(['acme.co.uk', 'example.com']);
    expect((await fileFor(a, 'acme.co.uk')).status).toBe('approved');
  });
});

describe('removePreapprovedSite', () => {
  it('when the site is not listed, then 404 not_found', async () => {
    const a = await signupAccount(t);
    const res = await fixture(t, 'DELETE', `/accounts/${a.accountId}/signup-preapprovals/acme.com`);
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('not_found');
  });
});
