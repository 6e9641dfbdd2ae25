import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenAccount, readAnswer, type TestServer } from './support.js';
import { fileOk, nextMinute, signupToken, startSignupServer } from './signup-support.js';

/**
 * A request body is JSON in UTF-8 (RFC 8259 section 8.1): a body whose Content-Type declares
 * another charset is refused with the operation's own 400 before it is read, never taken for UTF-8.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startSignupServer({ limitOverrides: { 'login-writes-per-key': 1000, 'pending-signup-requests': 1000 } });
});
afterAll(() => t.close());

const OTHER = ['utf-16', 'UTF-16LE', 'utf-7', 'iso-8859-1', '"utf-16"', 'us-ascii', ''];
const SPELLINGS = [
  (c: string) => `application/json; charset=${c}`,
  (c: string) => `application/json;charset=${c}`,
  (c: string) => `application/json ; CHARSET = ${c}`,
  (c: string) => `application/json; charset=utf-8; charset=${c}`,
];
const UTF8 = ['application/json', 'application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json;charset=utf8'];

function requestsOf(accountId: string): number {
  return (t.db.sqlite.prepare('SELECT COUNT(*) AS n FROM signup_requests WHERE account_id = ?').get(accountId) as { n: number }).n;
}

describe('fileSignupRequest', () => {
  const send = (key: string, contentType: string, body: string | Uint8Array<ArrayBuffer>) =>
    t.call('/v1/logins/requests', { method: 'POST', key, body, headers: { 'content-type': contentType } }).then(readAnswer);

  it('when the body declares a charset other than UTF-8, then 400 bad_request and nothing is filed', async () => {
    const a = await givenAccount(t, { signup: true });
    nextMinute(t);
    const body = JSON.stringify({ website: 'acme.com', email: 'agent@example.com' });
    for (const charset of OTHER) {
      for (const spell of SPELLINGS) {
        const contentType = spell(charset);
        const refused = await send(a.key, contentType, body);
        expect(refused.status, contentType).toBe(400);
        expect(refused.body.code).toBe('bad_request');
        expect(refused.body.error).toMatch(/^Send the body in UTF-8; this request declares charset=/);
      }
    }
    expect(requestsOf(a.accountId)).toBe(0);
  });

  it('when the body is UTF-16 and says so, then it is refused for its charset, not read as broken JSON', async () => {
    const a = await givenAccount(t, { signup: true });
    const body = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify({ website: 'acme.com', email: 'agent@example.com' }), 'utf16le')]));
    const refused = await send(a.key, 'application/json; charset=utf-16', body);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Send the body in UTF-8; this request declares charset=utf-16.');
  });

  it('when the body declares UTF-8, in any spelling, or no charset, then it is filed', async () => {
    const a = await givenAccount(t, { signup: true });
    nextMinute(t);
    for (const [i, contentType] of UTF8.entries()) {
      const filed = await send(a.key, contentType, JSON.stringify({ website: `site${i}.com`, email: 'agent@example.com' }));
      expect(filed.status, contentType).toBe(202);
    }
    expect(requestsOf(a.accountId)).toBe(UTF8.length);
  });
});

describe('submitRecipe', () => {
  const recipe = JSON.stringify({ key: 'globex.com', kind: 'merchant', platform: 'custom', status: 'unverified', steps: [{ action: 'fill', field: 'email' }] });

  it('when the body declares iso-8859-1, then 400 invalid_recipe listing the charset as the problem; as UTF-8, then accepted', async () => {
    const a = await givenAccount(t);
    const refused = await t.call('/v1/recipes', { method: 'POST', key: a.key, body: recipe, headers: { 'content-type': 'application/json; charset=iso-8859-1' } }).then(readAnswer);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_recipe');
    expect(refused.body.errors).toEqual([{ path: '', message: 'is declared in charset iso-8859-1, not UTF-8' }]);
    const accepted = await t.call('/v1/recipes', { method: 'POST', key: a.key, body: recipe, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(accepted.status).toBe(202);
  });
});

describe('decideSignupApproval', () => {
  it('when the page\'s form declares iso-8859-1, then 400 bad_request and nothing is decided; as UTF-8, then decided', async () => {
    const a = await givenAccount(t, { signup: true });
    nextMinute(t);
    const filed = await fileOk(t, a.key, { website: 'acme.com', email: 'agent@example.com' });
    const path = `/v1/signup-requests/${await signupToken(t, a.accountId, filed.requestId)}`;
    const form = (charset: string) => t.call(path, { method: 'POST', body: 'decision=approve', headers: { 'content-type': `application/x-www-form-urlencoded; charset=${charset}` } }).then(readAnswer);
    const refused = await form('iso-8859-1');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('bad_request');
    expect((await form('UTF-8')).body.status).toBe('approved');
  });
});
