import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { contract, type TestServer } from './support.js';
import { file, signupAccount, startSignupServer } from './signup-support.js';
import { answers, exchange } from './raw.js';

/**
 * Section 8.1 item 4, "a refused request records nothing", for requests that end without a 400 or
 * 413 from the app: a body that stalls until the request timeout (408), and a client that drops
 * the connection mid-body. Neither wrote anything, so neither stays on the key's per-minute count.
 */

const PER_MINUTE = contract().limit('login-writes-per-key').value!;

describe('login writes that end before their body arrives', () => {
  let t: TestServer;
  beforeAll(async () => {
    // A short request timeout, so the stalled bodies are refused in seconds, not thirty.
    t = await startSignupServer({ limitOverrides: { 'request-headers-timeout': 1, 'request-timeout': 2 } });
  });
  afterAll(() => t.close());

  /**
   * The server learns of a dropped connection after the client has left, and takes the count back
   * in its next commit: a filing is tried until it is accepted, for at most 5 s. A 429 on the way
   * is a refusal, which counts nothing itself.
   */
  async function expectAccepted(key: string, website: string) {
    let status = 0;
    for (const until = Date.now() + 5_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      status = (await file(t, key, { website, email: 'agent@example.com' })).status;
      if (status !== 429) break;
    }
    expect(status).toBe(202);
  }

  const head = (key: string, length: number) =>
    `POST /v1/logins/requests HTTP/1.1\r\nHost: vault.test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it(`when ${PER_MINUTE} filings stall mid-body until the 408, then none is counted and the next filing is accepted`, async () => {
    const a = await signupAccount(t);
    const stalled = Promise.all(Array.from({ length: PER_MINUTE }, () => exchange(t.base, [`${head(a.key, 80)}{"website":`])));
    // While they are in flight they hold their places: the limit is never passed.
    await new Promise((r) => setTimeout(r, 300));
    const meanwhile = await file(t, a.key, { website: 'meanwhile.com', email: 'agent@example.com' });
    expect(meanwhile.status).toBe(429);
    expect(((await meanwhile.json()) as { code: string }).code).toBe('rate_limited');
    const raws = await stalled;
    for (const raw of raws) expect(answers(raw).map((x) => x.status), raw).toEqual([408]);
    await expectAccepted(a.key, 'stalled.com');
  });

  it(`when ${PER_MINUTE} clients drop the connection mid-body, then none is counted and the next filing is accepted`, async () => {
    const a = await signupAccount(t);
    // Dropped after 300 ms: long after each was counted, long before the request timeout.
    const { hostname, port } = new URL(t.base);
    await Promise.all(
      Array.from(
        { length: PER_MINUTE },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect(Number(port), hostname, () => socket.write(`${head(a.key, 80)}{"website":`));
            socket.on('error', () => {});
            setTimeout(() => socket.destroy(), 300);
            socket.on('close', () => resolve());
          }),
      ),
    );
    await expectAccepted(a.key, 'dropped.com');
  });
});
