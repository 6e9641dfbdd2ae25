import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './support.js';
import { contract, givenAccount } from './support.js';
import { MINUTE, fileOk, fixture, links, signupToken, startSignupServer } from './signup-support.js';
import { deleteAccount } from '../store/accounts.js';

let t: TestServer;
beforeAll(async () => {
  t = await startSignupServer();
});
afterAll(() => t.close());

async function create(accountId: string, what: 'purchase-approvals' | 'cvv-requests' | 'challenge-requests', json?: Record<string, unknown>) {
  const res = await fixture(t, 'POST', `/accounts/${accountId}/${what}`, json);
  expect(res.status).toBe(201);
  return (await res.json()) as { token: string; expiresAt: number; kind?: string; offersDeclared?: boolean };
}

async function get(path: string) {
  const res = await t.call(path);
  return { status: res.status, body: (await res.json()) as any };
}

async function decidePurchase(token: string, json: Record<string, unknown>) {
  const res = await t.call(`/v1/approvals/${token}/decide`, { method: 'POST', json });
  return { status: res.status, body: (await res.json()) as any };
}

describe('getPurchaseApproval', () => {
  it('when the account holder opens the link, then it shows the hold without an API key', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'purchase-approvals', { kind: 'amount_mismatch' });
    expect(link).toEqual({ token: expect.any(String), kind: 'amount_mismatch', offersDeclared: true, expiresAt: t.clock.now() + 5 * MINUTE });
    expect(await get(`/v1/approvals/${link.token}`)).toEqual({
      status: 200,
      body: { status: 'pending', kind: 'amount_mismatch', offersDeclared: true, expiresAt: link.expiresAt },
    });
  });

  it('when 5 minutes pass, then the link reads as not found; one millisecond before, it is live', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'purchase-approvals');
    t.clock.advance(5 * MINUTE - 1);
    expect((await get(`/v1/approvals/${link.token}`)).status).toBe(200);
    t.clock.advance(1);
    const gone = await get(`/v1/approvals/${link.token}`);
    expect(gone).toEqual({ status: 404, body: { code: 'not_found', error: expect.any(String) } });
    expect((await decidePurchase(link.token, { decision: 'approve' })).status).toBe(404);
    expect((await links(t, a.accountId))[0]!.status).toBe('expired');
  });

  it('when the token is unknown, of another kind of link, or of a deleted account, then 404 not_found', async () => {
    expect((await get('/v1/approvals/lnk_unknown')).status).toBe(404);
    const a = await givenAccount(t);
    const cvv = await create(a.accountId, 'cvv-requests');
    expect((await get(`/v1/approvals/${cvv.token}`)).status).toBe(404);
    const link = await create(a.accountId, 'purchase-approvals');
    await deleteAccount(t.db, a.accountId);
    expect((await get(`/v1/approvals/${link.token}`)).status).toBe(404);
    expect((await decidePurchase(link.token, { decision: 'approve' })).status).toBe(404);
    // cvv was never opened: it is gone with the account too.
    expect((await get(`/v1/cvv-requests/${cvv.token}`)).status).toBe(404);
  });
});

describe('decidePurchaseApproval', () => {
  it('when approved without at, then it is approved at the page total and the link is spent', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'purchase-approvals');
    expect(await decidePurchase(link.token, { decision: 'approve' })).toEqual({ status: 200, body: { status: 'approved', at: 'page' } });
    expect((await decidePurchase(link.token, { decision: 'approve' })).status).toBe(404);
    expect((await get(`/v1/approvals/${link.token}`)).status).toBe(404);
  });

  it('when denied, then the hold is denied and the link is spent', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'purchase-approvals', { kind: 'amount_mismatch' });
    expect(await decidePurchase(link.token, { decision: 'deny' })).toEqual({ status: 200, body: { status: 'denied' } });
    expect((await decidePurchase(link.token, { decision: 'deny' })).status).toBe(404);
  });

  it('when at is declared but the GET shows offersDeclared false, then 400 declared_not_offered and the hold stays pending', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'purchase-approvals', { kind: 'over_threshold', offersDeclared: false });
    expect((await get(`/v1/approvals/${link.token}`)).body.offersDeclared).toBe(false);
    const refused = await decidePurchase(link.token, { decision: 'approve', at: 'declared' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('declared_not_offered');
    expect((await get(`/v1/approvals/${link.token}`)).body.status).toBe('pending');
    expect((await decidePurchase(link.token, { decision: 'approve', at: 'page' })).body).toEqual({ status: 'approved', at: 'page' });
  });

  it('when offersDeclared is true, then at declared is accepted', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'purchase-approvals', { offersDeclared: true });
    expect((await decidePurchase(link.token, { decision: 'approve', at: 'declared' })).body).toEqual({ status: 'approved', at: 'declared' });
  });

  it('when an amount_mismatch hold is approved at the page total, then 400 declared_required and it stays pending; declared is accepted', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'purchase-approvals', { kind: 'amount_mismatch' });
    for (const json of [{ decision: 'approve' }, { decision: 'approve', at: 'page' }]) {
      const refused = await decidePurchase(link.token, json);
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(refused.body.code).toBe('declared_required');
    }
    expect((await get(`/v1/approvals/${link.token}`)).body.status).toBe('pending');
    expect((await decidePurchase(link.token, { decision: 'approve', at: 'declared' })).body).toEqual({ status: 'approved', at: 'declared' });
  });

  it('when the decision or at is not one of the allowed values, then 400 bad_request', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'purchase-approvals');
    for (const json of [{ decision: 'ok' }, { decision: 'approve', at: 'cart' }, {}]) {
      const res = await decidePurchase(link.token, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.code).toBe('bad_request');
    }
  });

  it('when an amount_mismatch hold would not offer the declared total, then the fixture refuses it', async () => {
    const a = await givenAccount(t);
    const res = await fixture(t, 'POST', `/accounts/${a.accountId}/purchase-approvals`, { kind: 'amount_mismatch', offersDeclared: false });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('bad_request');
  });
});

describe('getCvvRequest', () => {
  it('when opened, then it shows the prompt once; a second read is not found', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'cvv-requests');
    expect(link.expiresAt).toBe(t.clock.now() + 3 * MINUTE);
    expect(await get(`/v1/cvv-requests/${link.token}`)).toEqual({ status: 200, body: { status: 'pending', expiresAt: link.expiresAt } });
    expect((await get(`/v1/cvv-requests/${link.token}`)).status).toBe(404);
    expect((await links(t, a.accountId))[0]!.status).toBe('opened');
  });

  it('when about 3 minutes pass, then the prompt reads as not found', async () => {
    const a = await givenAccount(t);
    const before = await create(a.accountId, 'cvv-requests');
    const after = await create(a.accountId, 'cvv-requests');
    t.clock.advance(3 * MINUTE - 1);
    expect((await get(`/v1/cvv-requests/${before.token}`)).status).toBe(200);
    t.clock.advance(1);
    expect((await get(`/v1/cvv-requests/${after.token}`)).status).toBe(404);
  });
});

describe('getChallengeRequest', () => {
  it('when opened, then it shows the handoff once; a second read or another kind is not found', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'challenge-requests');
    expect(link.expiresAt).toBe(t.clock.now() + 10 * MINUTE);
    expect((await get(`/v1/cvv-requests/${link.token}`)).status).toBe(404);
    expect(await get(`/v1/challenge-requests/${link.token}`)).toEqual({ status: 200, body: { status: 'pending', expiresAt: link.expiresAt } });
    expect((await get(`/v1/challenge-requests/${link.token}`)).status).toBe(404);
  });

  it('when about 10 minutes pass, then the handoff reads as not found', async () => {
    const a = await givenAccount(t);
    const before = await create(a.accountId, 'challenge-requests');
    const after = await create(a.accountId, 'challenge-requests');
    t.clock.advance(10 * MINUTE - 1);
    expect((await get(`/v1/challenge-requests/${before.token}`)).status).toBe(200);
    t.clock.advance(1);
    expect((await get(`/v1/challenge-requests/${after.token}`)).status).toBe(404);
  });

  it('when the account is deleted, then the handoff reads as not found', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'challenge-requests');
    expect((await fixture(t, 'DELETE', `/accounts/${a.accountId}`)).status).toBe(204);
    expect((await get(`/v1/challenge-requests/${link.token}`)).status).toBe(404);
  });
});

describe('account-holder links', () => {
  it('when any link answers, success or error, then it carries Cache-Control: no-store', async () => {
    const a = await givenAccount(t);
    const purchase = await create(a.accountId, 'purchase-approvals');
    const cvv = await create(a.accountId, 'cvv-requests');
    const answers = [
      await t.call(`/v1/approvals/${purchase.token}`),
      await t.call(`/v1/approvals/${purchase.token}/decide`, { method: 'POST', json: { decision: 'perhaps' } }),
      await t.call(`/v1/approvals/${purchase.token}/decide`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      await t.call(`/v1/cvv-requests/${cvv.token}`),
      await t.call(`/v1/cvv-requests/${cvv.token}`),
      await t.call('/v1/challenge-requests/lnk_unknown'),
      await t.call('/v1/signup-requests/lnk_unknown', { method: 'POST', json: { decision: 'approve' } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 400, 200, 404, 404, 404]);
    for (const r of answers) expect(r.headers.get('cache-control'), r.url).toBe('no-store');
  });
});

describe('getProxyHealth', () => {
  it('when asked without a key, then 200 with ok true', async () => {
    const res = await t.call('/health');
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).ok).toBe(true);
  });
});

describe('request log', () => {
  it('when an account-holder link is opened or mistyped, then the log carries the path template, never the token', async () => {
    const a = await givenAccount(t);
    const link = await create(a.accountId, 'purchase-approvals');
    const cvv = await create(a.accountId, 'cvv-requests');
    await get(`/v1/approvals/${link.token}`);
    await decidePurchase(link.token, { decision: 'deny' });
    await get(`/v1/cvv-request/${cvv.token}`);
    const text = JSON.stringify(t.logs);
    expect(text).not.toContain(link.token);
    expect(text).not.toContain(cvv.token);
    expect(t.logs).toContainEqual(expect.objectContaining({ path: '/v1/approvals/{token}', operation: 'getPurchaseApproval', status: 200 }));
    expect(t.logs).toContainEqual(expect.objectContaining({ path: '/v1/approvals/{token}/decide', status: 200 }));
    expect(t.logs).toContainEqual(expect.objectContaining({ path: '/v1/cvv-request/{redacted}', status: 404 }));
  });
});

describe('HEAD on an account-holder link', () => {
  /** A live link of each GET operation of the document that takes a link token, on an account of its own. */
  const linkOf: Record<string, () => Promise<{ accountId: string; path: string }>> = {
    async getPurchaseApproval() {
      const { accountId } = await givenAccount(t);
      return { accountId, path: `/v1/approvals/${(await create(accountId, 'purchase-approvals')).token}` };
    },
    async getSignupApproval() {
      const a = await givenAccount(t, { signup: true });
      const filed = await fileOk(t, a.key, { website: 'head.com', email: 'agent@example.com' });
      return { accountId: a.accountId, path: `/v1/signup-requests/${await signupToken(t, a.accountId, filed.requestId)}` };
    },
    async getCvvRequest() {
      const { accountId } = await givenAccount(t);
      return { accountId, path: `/v1/cvv-requests/${(await create(accountId, 'cvv-requests')).token}` };
    },
    async getChallengeRequest() {
      const { accountId } = await givenAccount(t);
      return { accountId, path: `/v1/challenge-requests/${(await create(accountId, 'challenge-requests')).token}` };
    },
  };

  it('lists every link the account holder opens with GET', () => {
    const ops = [...contract().operations.values()].filter((op) => op.method === 'GET' && op.path.includes('{token}')).map((op) => op.operationId);
    expect(ops.sort()).toEqual(Object.keys(linkOf).sort());
  });

  it.each(Object.keys(linkOf))('when %s is asked for with HEAD, as a browser and as a program, then it answers as GET would and the link stays live', async (operationId) => {
    const { accountId, path } = await linkOf[operationId]!();
    const statuses = async () => (await links(t, accountId)).map((l) => l.status);
    const before = await statuses();
    for (const accept of ['text/html', 'application/json']) {
      // Not t.call, which reads every answer as a body the document describes.
      const head = await fetch(`${t.base}${path}`, { method: 'HEAD', headers: { accept } });
      expect(head.status, accept).toBe(200);
      expect(await head.text(), accept).toBe('');
      expect(head.headers.get('content-type'), accept).toMatch(accept === 'text/html' ? /^text\/html/ : /^application\/json/);
    }
    expect(await statuses()).toEqual(before);
    expect((await get(path)).status).toBe(200);
  });

  it('when a used single-use link is asked for with HEAD, then 404, as GET', async () => {
    const { path } = await linkOf.getCvvRequest!();
    expect((await get(path)).status).toBe(200);
    expect((await fetch(`${t.base}${path}`, { method: 'HEAD' })).status).toBe(404);
  });
});
