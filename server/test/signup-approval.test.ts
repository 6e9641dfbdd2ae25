import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './support.js';
import { DAY, addLogins, decide, fileOk, nextMinute, poll, signupAccount, signupApproved, signupToken, startSignupServer } from './signup-support.js';
import { deleteAccount } from '../store/accounts.js';
import { deleteLogin, getLoginByLabel } from '../store/logins.js';
import { keyLoginIds } from '../store/keys.js';

let t: TestServer;
beforeAll(async () => {
  t = await startSignupServer();
});
afterAll(() => t.close());

const email = 'agent@example.com';

async function view(token: string) {
  const res = await t.call(`/v1/signup-requests/${encodeURIComponent(token)}`);
  return { status: res.status, body: (await res.json()) as any };
}

/** Files a pending request and returns it with its link token. */
async function pending(a: { accountId: string; key: string }, website: string, extra: Record<string, unknown> = {}) {
  nextMinute(t);
  const filed = await fileOk(t, a.key, { website, email, ...extra });
  expect(filed.status).toBe('pending');
  return { ...filed, token: await signupToken(t, a.accountId, filed.requestId) };
}

describe('getSignupApproval', () => {
  it('when the account holder opens the link, then it shows the request without an API key', async () => {
    const a = await signupAccount(t);
    const r = await pending(a, 'acme.com', { username: 'jane.doe' });
    const res = await view(r.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'pending', website: 'acme.com', email, username: 'jane.doe', expiresAt: r.expiresAt });
  });

  it('when the token is unknown, used, or of a deleted account, then 404 not_found', async () => {
    expect((await view('lnk_unknown')).status).toBe(404);
    const a = await signupAccount(t);
    const r = await pending(a, 'acme.com');
    expect((await decide(t, r.token, 'deny')).status).toBe(200);
    expect((await view(r.token)).status).toBe(404);
    expect((await decide(t, r.token, 'approve')).status).toBe(404);

    const b = await signupAccount(t);
    const other = await pending(b, 'acme.com');
    await deleteAccount(t.db, b.accountId);
    const gone = await view(other.token);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('not_found');
    expect((await decide(t, other.token, 'approve')).status).toBe(404);
  });
});

describe('decideSignupApproval', () => {
  it('when approved, then the login exists with a label from the site name and the link is spent', async () => {
    const a = await signupAccount(t);
    const r = await pending(a, 'my-shop.co.uk', { username: 'jane.doe' });
    const decided = await decide(t, r.token, 'approve');
    expect(decided).toEqual({ status: 200, body: { status: 'approved', website: 'my-shop.co.uk', email, username: 'jane.doe', expiresAt: r.expiresAt } });
    const polled = await poll(t, a.key, r.requestId);
    expect(polled.body.login).toMatchObject({ label: 'myshop', website: 'my-shop.co.uk', hasEmail: true, hasUsername: true });
    expect((await getLoginByLabel(t.db, a.accountId, 'myshop'))!.created_by_key).toBe(a.keyId);
    expect((await view(r.token)).status).toBe(404);
    expect((await decide(t, r.token, 'approve')).status).toBe(404);
  });

  it('when denied, then the request is denied and no login is created', async () => {
    const a = await signupAccount(t);
    const r = await pending(a, 'acme.com');
    expect((await decide(t, r.token, 'deny')).body.status).toBe('denied');
    expect((await poll(t, a.key, r.requestId)).body).toEqual({ status: 'denied' });
    expect(await getLoginByLabel(t.db, a.accountId, 'acme')).toBeUndefined();
  });

  it('when the decision is not approve or deny, then 400 bad_request and the request stays pending', async () => {
    const a = await signupAccount(t);
    const r = await pending(a, 'acme.com');
    for (const json of [{ decision: 'maybe' }, {}, { decision: true }]) {
      const res = await t.call(`/v1/signup-requests/${r.token}`, { method: 'POST', json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).code).toBe('bad_request');
    }
    expect((await view(r.token)).body.status).toBe('pending');
  });

  describe('labels', () => {
    it('when sites share a name, then they share its labels: acme, then acme2', async () => {
      const a = await signupAccount(t);
      expect((await signupApproved(t, a, 'acme.com')).login.label).toBe('acme');
      nextMinute(t);
      expect((await signupApproved(t, a, 'acme.co.uk')).login.label).toBe('acme2');
    });

    it('when a site name is longer than 32 characters, then the label is cut to fit with its number', async () => {
      const a = await signupAccount(t);
      const name = 'averyveryverylongshopnamethatgoesonandon';
      expect((await signupApproved(t, a, `${name}.com`)).login.label).toBe(name.slice(0, 32));
      nextMinute(t);
      expect((await signupApproved(t, a, `${name}.net`)).login.label).toBe(`${name.slice(0, 31)}2`);
      nextMinute(t);
      expect((await signupApproved(t, a, 'big-store2.com')).login.label).toBe('bigstore2');
    });

    it('when acme to acme49 are taken, then acme50 is allocated, and the 51st site stays pending with label_unavailable shown only to the account holder', async () => {
      const a = await signupAccount(t);
      await addLogins(t, a.accountId, ['acme', ...Array.from({ length: 48 }, (_, i) => `acme${i + 2}`)]);
      const fiftieth = await pending(a, 'acme.net');
      expect((await decide(t, fiftieth.token, 'approve')).body.status).toBe('approved');
      expect((await poll(t, a.key, fiftieth.requestId)).body.login.label).toBe('acme50');

      const fiftyFirst = await pending(a, 'acme.org');
      const refused = await decide(t, fiftyFirst.token, 'approve');
      expect(refused.status).toBe(200);
      expect(refused.body).toMatchObject({ status: 'pending', approvalFailure: 'label_unavailable' });
      expect((await view(fiftyFirst.token)).body).toMatchObject({ status: 'pending', approvalFailure: 'label_unavailable' });
      const agentView = await poll(t, a.key, fiftyFirst.requestId);
      expect(agentView.body).toEqual({ status: 'pending', expiresAt: fiftyFirst.expiresAt });

      // The link stays usable: once the account holder frees a label, approval completes.
      await deleteLogin(t.db, a.accountId, 'acme17');
      expect((await decide(t, fiftyFirst.token, 'approve')).body.status).toBe('approved');
      expect((await poll(t, a.key, fiftyFirst.requestId)).body.login.label).toBe('acme17');
    });
  });

  describe('ceilings at approval', () => {
    it('when the account reached 500 logins after filing, then approval leaves the request pending with login_limit', async () => {
      const a = await signupAccount(t);
      await addLogins(t, a.accountId, Array.from({ length: 499 }, (_, i) => `saved${i}`));
      const r = await pending(a, 'acme.com');
      await addLogins(t, a.accountId, ['saved499']);
      expect((await decide(t, r.token, 'approve')).body).toMatchObject({ status: 'pending', approvalFailure: 'login_limit' });
      expect((await poll(t, a.key, r.requestId)).body.status).toBe('pending');
      await deleteLogin(t.db, a.accountId, 'saved0');
      expect((await decide(t, r.token, 'approve')).body.status).toBe('approved');
    });

    it("when a scoped key has added 49 logins, then the 50th is added to its list and the 51st stays pending with scope_full", async () => {
      const a = await signupAccount(t, { scopedTo: [] });
      await addLogins(t, a.accountId, Array.from({ length: 49 }, (_, i) => `own${i}`), { createdByKey: a.keyId, onListOf: a.keyId });
      const fiftieth = await pending(a, 'acme.com');
      expect((await decide(t, fiftieth.token, 'approve')).body.status).toBe('approved');
      const login = (await getLoginByLabel(t.db, a.accountId, 'acme'))!;
      expect(await keyLoginIds(t.db, a.keyId)).toContain(login.id);
      const catalog = (await (await t.call('/v1/tokens', { key: a.key })).json()) as any;
      expect(catalog.logins.map((l: any) => l.label)).toContain('acme');

      const next = await pending(a, 'other.com');
      expect((await decide(t, next.token, 'approve')).body).toMatchObject({ status: 'pending', approvalFailure: 'scope_full' });
      expect((await poll(t, a.key, next.requestId)).body).toEqual({ status: 'pending', expiresAt: next.expiresAt });
    });

    it('when a scoped list holds 200 entries it is not full; over 200 it counts as full', async () => {
      const a = await signupAccount(t, { scopedTo: [] });
      // Entries the account holder put on the list, not added by the key itself.
      await addLogins(t, a.accountId, Array.from({ length: 199 }, (_, i) => `given${i}`), { onListOf: a.keyId });
      const at199 = await pending(a, 'acme.com');
      expect((await decide(t, at199.token, 'approve')).body.status).toBe('approved');
      const at200 = await pending(a, 'other.com');
      expect((await decide(t, at200.token, 'approve')).body.status).toBe('approved');
      const over = await pending(a, 'third.com');
      expect((await decide(t, over.token, 'approve')).body).toMatchObject({ status: 'pending', approvalFailure: 'scope_full' });
    });

    it('when the key is not scoped, then no list applies', async () => {
      const a = await signupAccount(t);
      await addLogins(t, a.accountId, Array.from({ length: 60 }, (_, i) => `own${i}`), { createdByKey: a.keyId });
      const r = await pending(a, 'acme.com');
      expect((await decide(t, r.token, 'approve')).body.status).toBe('approved');
    });

    it('when approving after the request expired, then the link is not found', async () => {
      const a = await signupAccount(t);
      const r = await pending(a, 'acme.com');
      t.clock.advance(DAY);
      expect((await decide(t, r.token, 'approve')).status).toBe(404);
      expect((await poll(t, a.key, r.requestId)).body).toEqual({ status: 'expired' });
    });
  });
});
