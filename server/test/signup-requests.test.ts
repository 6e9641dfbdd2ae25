import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import type { TestServer } from './support.js';
import { contract, givenAccount } from './support.js';
import {
  DAY,
  addLogins,
  decide,
  file,
  fileOk,
  links,
  nextMinute,
  poll,
  signupAccount,
  signupApproved,
  signupToken,
  startSignupServer,
} from './signup-support.js';
import { deleteLogin, getLoginByLabel, readPassword, setPassword } from '../store/logins.js';
import { removeKeyLogin } from '../store/keys.js';
import { countPending } from '../store/signup-requests.js';

let t: TestServer;
beforeAll(async () => {
  t = await startSignupServer();
});
afterAll(() => t.close());

const valid = { website: 'example.com', email: 'agent@example.com' };

/** Sends a raw body with its own framing: a declared Content-Length, or chunked with no length. */
function rawPost(path: string, key: string, chunks: Buffer[], framing: 'length' | 'chunked'): Promise<{ status: number; body: any; sent: number }> {
  return new Promise((resolve, reject) => {
    const url = new URL(t.base + path);
    const total = chunks.reduce((n, c) => n + c.length, 0);
    let sent = 0;
    let answered = false;
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          ...(framing === 'length' ? { 'content-length': String(total) } : { 'transfer-encoding': 'chunked' }),
        },
      },
      (res) => {
        answered = true;
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), sent }));
      },
    );
    // A server that cuts the request closes the connection; writes still in flight may fail after the answer.
    req.on('error', (e) => (answered ? undefined : reject(e)));
    // Writes until the server answers, so a server that cuts the request early never gets the rest.
    const pump = (i: number) => {
      if (answered) return;
      if (i >= chunks.length) return void req.end();
      sent += chunks[i]!.length;
      if (req.write(chunks[i]!)) setImmediate(() => pump(i + 1));
      else req.once('drain', () => pump(i + 1));
    };
    pump(0);
  });
}

describe('fileSignupRequest', () => {
  describe('permission, body cap and rate limit', () => {
    it('when the key has no signup permission, then 403 signup_not_enabled with no-store', async () => {
      const a = await givenAccount(t);
      const res = await file(t, a.key, valid);
      expect(res.status).toBe(403);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect((await res.json()).code).toBe('signup_not_enabled');
    });

    it('when no key is sent, then 401 unauthorized', async () => {
      const res = await t.call('/v1/logins/requests', { method: 'POST', json: valid });
      expect(res.status).toBe(401);
      expect((await res.json()).code).toBe('unauthorized');
    });

    it('when the body is exactly 4 KB, then it is read; at 4 KB and one byte, then 413 bad_request', async () => {
      const a = await signupAccount(t);
      const json = (size: number) => {
        const base = JSON.stringify(valid);
        return Buffer.from(base.slice(0, -1) + ' '.repeat(size - base.length) + '}');
      };
      expect(json(4096)).toHaveLength(4096);
      const ok = await rawPost('/v1/logins/requests', a.key, [json(4096)], 'length');
      expect(ok.status).toBe(202);
      const big = await rawPost('/v1/logins/requests', a.key, [json(4097)], 'length');
      expect(big.status).toBe(413);
      expect(big.body.code).toBe('bad_request');
    });

    it('when a chunked body with no length runs past 4 KB, then 413 bad_request before the rest is sent', async () => {
      const a = await signupAccount(t);
      const chunks = Array.from({ length: 4096 }, () => Buffer.alloc(1024, 0x20));
      const res = await rawPost('/v1/logins/requests', a.key, [Buffer.from('{"website":"a.com","email":"a@b.co","x":"'), ...chunks], 'chunked');
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('bad_request');
      // The 4 MB body was not read to its end: the server answered while it was still being written.
      expect(res.sent).toBeLessThan(4096 * 1024);
    });

    /** Files a pending request that the account holder denies at once: a write that succeeds and holds no place. */
    async function fileAndDeny(server: TestServer, a: Pick<Awaited<ReturnType<typeof signupAccount>>, 'accountId' | 'key'>, n: number) {
      const filed = await fileOk(server, a.key, { ...valid, website: `site${n}x.com` });
      expect((await decide(server, await signupToken(server, a.accountId, filed.requestId), 'deny')).status).toBe(200);
      return filed;
    }

    /** Writes that are each refused after they were counted: 400, 404, 409 and 413 on the three endpoints. */
    async function refusedWrites(server: TestServer, key: string, count: number) {
      const writes: [string, unknown, number][] = [
        ['/v1/logins/requests', { ...valid, website: 'not a site' }, 400],
        ['/v1/logins/username', { label: 'nope', username: 'someone' }, 404],
        ['/v1/logins/password', { label: 'nope' }, 409],
        ['/v1/logins/requests', { ...valid, pad: 'x'.repeat(5000) }, 413],
      ];
      for (let i = 0; i < count; i++) {
        const [path, json, status] = writes[i % writes.length]!;
        const res = await server.call(path, { method: 'POST', key, json });
        expect(res.status, `refused write ${i + 1} to ${path}`).toBe(status);
      }
    }

    it('when a key makes 20 login writes in a minute, then the 21st is 429 rate_limited with Retry-After, polls do not count, and the next minute is open', async () => {
      nextMinute(t);
      const a = await signupAccount(t);
      const first = await fileAndDeny(t, a, 0);
      t.clock.advance(15_000);
      for (let i = 1; i < 20; i++) await fileAndDeny(t, a, i);
      for (let i = 0; i < 30; i++) expect((await poll(t, a.key, first.requestId)).status).toBe(200);
      for (const path of ['/v1/logins/requests', '/v1/logins/username', '/v1/logins/password']) {
        const refused = await t.call(path, { method: 'POST', key: a.key, json: path.endsWith('requests') ? valid : { label: 'nope', username: 'someone' } });
        expect(refused.status, path).toBe(429);
        expect((await refused.json()).code).toBe('rate_limited');
        expect(refused.headers.get('retry-after')).toBe('45');
      }
      // Another key of the same account has its own 20.
      const other = await a.addKey({ signup: true });
      expect((await t.call('/v1/logins/username', { method: 'POST', key: other.key, json: { label: 'nope', username: 'someone' } })).status).toBe(404);
      nextMinute(t);
      expect((await t.call('/v1/logins/username', { method: 'POST', key: a.key, json: { label: 'nope', username: 'someone' } })).status).toBe(404);
    });

    it('when login writes are refused after they were counted (400, 404, 409, 413), then they record nothing: the key keeps its 20', async () => {
      nextMinute(t);
      const a = await signupAccount(t);
      // Section 8.1 item 4, "a refused request records nothing", read as every refusal.
      await refusedWrites(t, a.key, 24);
      for (let i = 0; i < 20; i++) await fileAndDeny(t, a, i);
      const refused = await file(t, a.key, valid);
      expect(refused.status).toBe(429);
      expect((await refused.json()).code).toBe('rate_limited');
      // Refusals of the other rules count nothing either: five pending, then too_many_pending, in a new minute.
      nextMinute(t);
      for (let i = 0; i < 5; i++) await fileOk(t, a.key, { ...valid, website: `pending${i}x.com` });
      for (let i = 0; i < 21; i++) {
        const res = await file(t, a.key, valid);
        expect([res.status, (await res.json()).code], `filing ${i + 6}`).toEqual([429, 'too_many_pending']);
      }
    });

    it('when the deployment counts refused requests (VAULT_COUNT_REFUSED_REQUESTS=1), then twenty refused filings spend the minute', async () => {
      const other = await startSignupServer({ countRefusedRequests: true });
      try {
        nextMinute(other);
        const a = await signupAccount(other);
        await refusedWrites(other, a.key, 20);
        const refused = await file(other, a.key, valid);
        expect(refused.status).toBe(429);
        expect((await refused.json()).code).toBe('rate_limited');
        nextMinute(other);
        expect((await file(other, a.key, valid)).status).toBe(202);
      } finally {
        await other.close();
      }
    });
  });

  describe('validation', () => {
    it('when website is not a registrable domain, then 400 invalid_website', async () => {
      const a = await signupAccount(t);
      for (const website of ['www.acme.com', 'co.uk', 'acme', '127.0.0.1', 'https://acme.com', 'acme.com/login', '', 'acme .com']) {
        nextMinute(t);
        const res = await file(t, a.key, { ...valid, website });
        expect(res.status, website).toBe(400);
        expect((await res.json()).code, website).toBe('invalid_website');
      }
      // someone.github.io is registrable: github.io is a public suffix of the list's private section.
      for (const website of ['acme.co.uk', 'acme.com', 'someone.github.io']) {
        nextMinute(t);
        const res = await file(t, a.key, { ...valid, website });
        expect(res.status, website).toBe(202);
      }
    });

    it('when email is not one address of 4 to 254 characters with one @ and no whitespace, then 400 invalid_email', async () => {
      const a = await signupAccount(t);
      const long = `${'a'.repeat(254 - '@example.com'.length)}@example.com`;
      for (const email of ['a@b', 'no-at.example.com', 'a@b@example.com', 'a b@example.com', 'ab@example.com\n', `a${long}`, '']) {
        nextMinute(t);
        const res = await file(t, a.key, { ...valid, email });
        expect(res.status, email).toBe(400);
        expect((await res.json()).code, email).toBe('invalid_email');
      }
      for (const email of ['a@bc', long]) {
        nextMinute(t);
        expect((await file(t, a.key, { ...valid, email })).status, email).toBe(202);
        const [latest] = await links(t, a.accountId);
        await decide(t, latest!.token, 'deny');
      }
    });

    it('when email has whitespace of any Unicode kind or a control character, then 400 invalid_email and nothing is filed', async () => {
      const a = await signupAccount(t);
      // Every White_Space character (U+0085, NEL, is the one the pattern's \s misses), then controls that are not whitespace.
      const whitespace = ['\u0009', '\u000B', '\u0085', '\u00A0', '\u1680', '\u2000', '\u200A', '\u2028', '\u2029', '\u202F', '\u205F', '\u3000'];
      const controls = ['\u0000', '\u001B', '\u007F', '\u0080', '\u009F'];
      const pending = await countPending(t.db, a.accountId, t.clock.now());
      for (const c of [...whitespace, ...controls]) {
        for (const email of [`ja${c}ne@example.com`, `jane@exa${c}mple.com`, `jane@example.com${c}`]) {
          nextMinute(t);
          const res = await file(t, a.key, { ...valid, email });
          expect(res.status, JSON.stringify(email)).toBe(400);
          const body = (await res.json()) as { code: string; error: string };
          expect(body.code, JSON.stringify(email)).toBe('invalid_email');
          expect(body.error).toMatch(/whitespace/);
        }
      }
      expect(await countPending(t.db, a.accountId, t.clock.now())).toBe(pending);
      // Format characters are not whitespace: accepted, and shown visibly on the account holder's page.
      nextMinute(t);
      expect((await file(t, a.key, { ...valid, email: 'ja\u200Bne\u202E@example.com' })).status).toBe(202);
    });

    it('when username is under 4 characters or has a control character, then 400 invalid_username', async () => {
      const a = await signupAccount(t);
      for (const username of ['abc', 'ab\u0007cd', 'tab\there', '']) {
        const res = await file(t, a.key, { ...valid, username });
        expect(res.status, JSON.stringify(username)).toBe(400);
        expect((await res.json()).code).toBe('invalid_username');
      }
      expect((await file(t, a.key, { ...valid, username: 'abcd' })).status).toBe(202);
    });

    it('when the body is not JSON or misses a member, then 400 bad_request', async () => {
      const a = await signupAccount(t);
      const notJson = await t.call('/v1/logins/requests', { method: 'POST', key: a.key, headers: { 'content-type': 'application/json' }, body: '{website' });
      expect(notJson.status).toBe(400);
      expect((await notJson.json()).code).toBe('bad_request');
      const missing = await file(t, a.key, { website: 'acme.com' });
      expect(missing.status).toBe(400);
      expect((await missing.json()).code).toBe('bad_request');
    });

    it('when password rule fields break a rule, then 400 password_too_short or invalid_policy', async () => {
      const a = await signupAccount(t);
      const cases: [Record<string, unknown>, string][] = [
        [{ maxLength: 11 }, 'password_too_short'],
        [{ minLength: 65 }, 'invalid_policy'],
        [{ minLength: 20, maxLength: 16 }, 'invalid_policy'],
        [{ minLength: 12.5 }, 'invalid_policy'],
        [{ maxLength: 20.5 }, 'invalid_policy'],
        [{ symbols: '%^&' }, 'invalid_policy'],
      ];
      for (const [rules, code] of cases) {
        nextMinute(t);
        const res = await file(t, a.key, { ...valid, ...rules });
        expect(res.status, JSON.stringify(rules)).toBe(400);
        expect((await res.json()).code, JSON.stringify(rules)).toBe(code);
      }
    });

    it('when a length is too large for a double (1e400), then it is judged by the rules, never ignored', async () => {
      const a = await signupAccount(t);
      // JSON.stringify cannot write these numbers; JSON.parse reads them as infinities.
      const raw = (rules: string) => {
        nextMinute(t);
        return t.call('/v1/logins/requests', { method: 'POST', key: a.key, headers: { 'content-type': 'application/json' }, body: `{"website":"example.com","email":"agent@example.com",${rules}}` });
      };
      const refused: [string, string][] = [
        ['"maxLength":-1e400', 'password_too_short'],
        ['"minLength":1e400', 'invalid_policy'],
        ['"minLength":1e400,"maxLength":1e400', 'invalid_policy'],
        ['"minLength":20,"maxLength":-1e400', 'password_too_short'],
      ];
      for (const [rules, code] of refused) {
        const res = await raw(rules);
        expect(res.status, rules).toBe(400);
        expect((await res.json()).code, rules).toBe(code);
      }
      for (const rules of ['"maxLength":1e400', '"minLength":-1e400', '"maxLength":1e400,"minLength":30']) {
        const res = await raw(rules);
        expect(res.status, rules).toBe(202);
        const { requestId } = (await res.json()) as { requestId: string };
        await decide(t, await signupToken(t, a.accountId, requestId), 'approve');
        expect((await poll(t, a.key, requestId)).body.passwordPolicy.length, rules).toBe(rules.includes('30') ? 30 : 24);
      }
    });

    it('when email or username is refused, then the error is the sentence of the document, not the validator', async () => {
      const a = await signupAccount(t);
      const schemas = contract().doc.components.schemas;
      for (const [body, code, sentence] of [
        [{ ...valid, email: 'a b' }, 'invalid_email', schemas.SignupRequestCreate.properties.email['x-error-message']],
        [{ ...valid, email: 'ab' }, 'invalid_email', schemas.SignupRequestCreate.properties.email['x-error-message']],
        [{ ...valid, username: 'a\u0001bcd' }, 'invalid_username', schemas.Username['x-error-message']],
        [{ ...valid, username: 'abc' }, 'invalid_username', schemas.Username['x-error-message']],
      ] as const) {
        nextMinute(t);
        const res = await file(t, a.key, body);
        expect(await res.json(), JSON.stringify(body)).toEqual({ code, error: sentence });
        expect(sentence).toMatch(/^[A-Za-z].* .*\.$/);
      }
    });

    it('when rule fields have the wrong type, then they are ignored and the defaults apply', async () => {
      const a = await signupAccount(t);
      const approved = await signupApproved(t, a, 'wrongtypes.com', { minLength: '40', maxLength: null, noSymbols: 'yes', symbols: 7, noRepeats: 1 });
      expect(approved.passwordPolicy).toEqual({ length: 24, classes: ['lowercase', 'uppercase', 'digit', 'symbol'], symbolAlphabet: '!@#$*+-_=.?' });
    });
  });

  describe('ceilings', () => {
    it('when the account holds 500 logins, then 403 login_limit and no request is created; at 499 the request is filed', async () => {
      const a = await signupAccount(t);
      await addLogins(t, a.accountId, Array.from({ length: 499 }, (_, i) => `saved${i}`));
      expect((await file(t, a.key, valid)).status).toBe(202);
      await addLogins(t, a.accountId, ['saved499']);
      const before = await links(t, a.accountId);
      const res = await file(t, a.key, { ...valid, website: 'other.com' });
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('login_limit');
      expect(await links(t, a.accountId)).toEqual(before);
    });

    it('when five requests are pending, then the fifth was accepted and the sixth is 429 too_many_pending without Retry-After', async () => {
      const a = await signupAccount(t);
      const filed = [];
      for (let i = 1; i <= 5; i++) filed.push(await fileOk(t, a.key, { ...valid, website: `site${i}.com` }));
      const sixth = await file(t, a.key, { ...valid, website: 'site6.com' });
      expect(sixth.status).toBe(429);
      expect(sixth.headers.get('retry-after')).toBeNull();
      expect((await sixth.json()).code).toBe('too_many_pending');
      expect(await links(t, a.accountId)).toHaveLength(5);
      // The limit is per account: another key of the account is refused too.
      const other = await a.addKey({ signup: true });
      expect((await file(t, other.key, { ...valid, website: 'site6.com' })).status).toBe(429);
      // A decision frees a slot.
      await decide(t, await signupToken(t, a.accountId, filed[0]!.requestId), 'deny');
      expect((await file(t, a.key, { ...valid, website: 'site6.com' })).status).toBe(202);
    });
  });

  describe('expiry', () => {
    it('when 24 hours pass after filing, then the request is expired, its link is gone and its slot is free', async () => {
      const a = await signupAccount(t);
      const filed = await fileOk(t, a.key, valid);
      expect(filed).toEqual({ requestId: expect.any(String), status: 'pending', expiresAt: t.clock.now() + DAY });
      for (let i = 2; i <= 5; i++) await fileOk(t, a.key, { ...valid, website: `later${i}.com` });
      const token = await signupToken(t, a.accountId, filed.requestId);
      t.clock.advance(DAY - 1);
      expect((await poll(t, a.key, filed.requestId)).body).toEqual({ status: 'pending', expiresAt: filed.expiresAt });
      expect((await file(t, a.key, { ...valid, website: 'blocked.com' })).status).toBe(429);
      t.clock.advance(1);
      expect((await poll(t, a.key, filed.requestId)).body).toEqual({ status: 'expired' });
      expect((await t.call(`/v1/signup-requests/${token}`)).status).toBe(404);
      expect((await decide(t, token, 'approve')).status).toBe(404);
      nextMinute(t);
      expect((await file(t, a.key, { ...valid, website: 'now-free.com' })).status).toBe(202);
    });
  });
});

describe('getSignupRequest', () => {
  it('when another key of the account or an unknown id is used, then 404 request_not_found', async () => {
    const a = await signupAccount(t);
    const filed = await fileOk(t, a.key, valid);
    const other = await a.addKey({ signup: true });
    for (const [key, id] of [
      [other.key, filed.requestId],
      [a.key, 'sreq_unknown'],
      [(await givenAccount(t, { signup: true })).key, filed.requestId],
    ] as const) {
      const res = await poll(t, key, id);
      expect(res.status).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body.code).toBe('request_not_found');
    }
  });

  it('when approved, then the body has the login entry of the catalog, the policy and passwordOwnerManaged false, and never a password', async () => {
    const a = await signupAccount(t);
    const approved = await signupApproved(t, a, 'approved-shop.com', { username: 'shopper.jane', maxLength: 16, noSymbols: true });
    const { requestId, ...body } = approved;
    expect(Object.keys(body).sort()).toEqual(['login', 'passwordOwnerManaged', 'passwordPolicy', 'status']);
    expect(body.passwordOwnerManaged).toBe(false);
    expect(body.passwordPolicy).toEqual({ length: 16, classes: ['lowercase', 'uppercase', 'digit'] });
    const catalog = (await (await t.call('/v1/tokens', { key: a.key })).json()) as any;
    expect(catalog.logins).toContainEqual(body.login);
    expect(body.login).toMatchObject({ label: 'approvedshop', website: 'approved-shop.com', hasEmail: true, hasUsername: true, hasTotp: false });
    const login = (await getLoginByLabel(t.db, a.accountId, 'approvedshop'))!;
    const password = (await readPassword(t.db, t.sealer, login.id))!;
    expect(password).toMatch(/^[a-zA-Z0-9]{16}$/);
    const raw = await (await t.call(`/v1/logins/requests/${requestId}`, { key: a.key })).text();
    expect(raw).not.toContain(password);
    expect(raw).not.toContain('agent@example.com');
  });

  it('when denied, then the body is the status alone', async () => {
    const a = await signupAccount(t);
    const filed = await fileOk(t, a.key, valid);
    await decide(t, await signupToken(t, a.accountId, filed.requestId), 'deny');
    expect((await poll(t, a.key, filed.requestId)).body).toEqual({ status: 'denied' });
  });

  it('when the account holder replaced the password before the poll, then passwordOwnerManaged is true', async () => {
    const a = await signupAccount(t);
    const approved = await signupApproved(t, a, 'replaced.com');
    await setPassword(t.db, t.sealer, (await getLoginByLabel(t.db, a.accountId, approved.login.label))!.id, 'my own password', true);
    const again = await poll(t, a.key, approved.requestId);
    expect(again.body.passwordOwnerManaged).toBe(true);
    expect(again.body.passwordPolicy).toEqual(approved.passwordPolicy);
  });

  it("when the approved login leaves a scoped key's list, or is deleted, then 403 scope_denied", async () => {
    const a = await signupAccount(t, { scopedTo: [] });
    const approved = await signupApproved(t, a, 'scoped-shop.com');
    const loginId = (await getLoginByLabel(t.db, a.accountId, approved.login.label))!.id;
    await removeKeyLogin(t.db, a.keyId, loginId);
    const res = await poll(t, a.key, approved.requestId);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('scope_denied');

    const b = await signupAccount(t);
    const other = await signupApproved(t, b, 'deleted-shop.com');
    await deleteLogin(t.db, b.accountId, other.login.label);
    const gone = await poll(t, b.key, other.requestId);
    expect(gone.status).toBe(403);
    expect(gone.body.code).toBe('scope_denied');
  });

  it('when polled many times, then neither the per-minute writes nor the budget are charged', async () => {
    nextMinute(t);
    const a = await signupAccount(t);
    const filed = await fileOk(t, a.key, valid);
    for (let i = 0; i < 40; i++) expect((await poll(t, a.key, filed.requestId)).status).toBe(200);
    for (let i = 0; i < 19; i++) {
      expect((await t.call('/v1/logins/username', { method: 'POST', key: a.key, json: { label: 'nope', username: 'someone' } })).status).toBe(404);
    }
  });
});
