import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contract, type TestServer } from './support.js';
import { poll, signupAccount, startSignupServer, type Account } from './signup-support.js';
import { answers, exchange } from './raw.js';

/**
 * Answers go out in the order of the requests (RFC 9112 section 9.3.2), the HTTP layer's own
 * included: a complete request followed, in the same TCP segment, by one the HTTP layer refuses
 * is answered first, and the refusal comes after it. Sent over raw sockets, as a hostile client would.
 */

describe('answers in the order of the requests', () => {
  let t: TestServer;
  let a: Account;
  beforeAll(async () => {
    t = await startSignupServer();
  });
  // An account of its own for each test: an account holds at most five pending filings.
  beforeEach(async () => {
    a = await signupAccount(t);
  });
  afterAll(() => t.close());

  const filing = (n: number) => {
    const body = JSON.stringify({ website: `order${n}.com`, email: 'agent@example.com' });
    return (
      `POST /v1/logins/requests HTTP/1.1\r\nHost: vault.test\r\nAuthorization: Bearer ${a.key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: filing-${n}\r\n\r\n${body}`
    );
  };
  const header = contract().limit('request-header-size').value!;
  const refused: [string, string, number][] = [
    ['an unknown method', 'FOO / HTTP/1.1\r\nHost: vault.test\r\n\r\n', 400],
    ['CONNECT', 'CONNECT vault.test:443 HTTP/1.1\r\nHost: vault.test:443\r\n\r\n', 400],
    ['a head over the cap', `GET /v1/recipes HTTP/1.1\r\nHost: vault.test\r\nX-Big: ${'a'.repeat(header)}\r\n\r\n`, 431],
    ['bytes that are not HTTP', 'this is not HTTP\r\n\r\n', 400],
  ];

  for (const [what, second, status] of refused) {
    it(`when a complete filing is followed in the same segment by ${what}, then the filing is answered first, then the refusal`, async () => {
      const n = refused.findIndex((r) => r[0] === what);
      const raw = await exchange(t.base, [filing(n) + second]);
      const [first, refusal, ...rest] = answers(raw);
      expect(rest, raw).toEqual([]);
      expect(first?.status, raw).toBe(202);
      expect(first!.headers['x-request-id']).toBe(`filing-${n}`);
      expect(refusal?.status, raw).toBe(status);
      expect(refusal!.body.code).toBe('bad_request');
      expect(refusal!.headers.connection).toBe('close');
      // The refusal is the second request's, not the filing's.
      expect(refusal!.headers['x-request-id']).not.toBe(`filing-${n}`);
      const polled = await poll(t, a.key, first!.body.requestId);
      expect(polled.status).toBe(200);
    });
  }

  it('when two complete filings are followed by a malformed request, then both are answered in order before the refusal', async () => {
    const raw = await exchange(t.base, [filing(10) + filing(11) + 'FOO / HTTP/1.1\r\n\r\n']);
    expect(answers(raw).map((x) => [x.status, x.headers['x-request-id'] ?? ''])).toEqual([
      [202, 'filing-10'],
      [202, 'filing-11'],
      [400, expect.not.stringMatching(/^filing-/)],
    ]);
  });
});
