import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import type { TestServer } from './support.js';
import { contract } from './support.js';
import { fixture, nextMinute, signupAccount, signupApproved, startSignupServer, type Account } from './signup-support.js';
import { getLoginByLabel, readPassword, readUsername } from '../store/logins.js';

/**
 * Section 5 items 3 and 5 hold when a write happens, not only when its head arrived: the body of a
 * request may come up to the request timeout after its key was authenticated.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startSignupServer();
});
afterAll(() => t.close());

interface Answer {
  status: number;
  body: { code?: string; [k: string]: unknown };
}

/**
 * Sends the head of a POST with `Expect: 100-continue` and waits for `100 Continue`, which the
 * server sends only once the key and its permission have passed; then sends the first half of
 * the body, runs `meanwhile`, sends the rest, and reads the final answer.
 */
function midBody(path: string, key: string, json: unknown, meanwhile: () => Promise<void>): Promise<Answer> {
  const body = Buffer.from(JSON.stringify(json));
  const half = body.length >> 1;
  const { hostname, port } = new URL(t.base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let raw = '';
    let continued = false;
    socket.on('data', (c: Buffer) => {
      raw += c.toString('latin1');
      if (!continued && raw.startsWith('HTTP/1.1 100 ')) {
        continued = true;
        raw = raw.slice(raw.indexOf('\r\n\r\n') + 4);
        socket.write(body.subarray(0, half));
        meanwhile().then(() => socket.write(body.subarray(half)), reject);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      if (!continued) return reject(new Error(`no 100 Continue: ${raw.slice(0, 80)}`));
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(raw)?.[1]);
      resolve({ status, body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Answer['body'] });
    });
    socket.on('connect', () =>
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: vault.test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      ),
    );
  });
}

const count = (table: string) => (t.db.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

/** An account whose first key created a login through an approved signup request. */
async function agentLogin(options: { scopedTo?: string[] } = {}): Promise<{ a: Account; label: string; loginId: string }> {
  const a = await signupAccount(t, options);
  nextMinute(t);
  const approved = await signupApproved(t, a, `site${count('logins')}.com`);
  const label = approved.login.label as string;
  return { a, label, loginId: (await getLoginByLabel(t.db, a.accountId, label))!.id };
}

/**
 * Every write as a key the document has, with a valid body and what must not have changed when it
 * is refused. An operation added to the document fails the test below until it is listed here.
 */
const writes: Record<string, () => Promise<{ a: Account; path: string; json: unknown; unchanged: () => unknown }>> = {
  async fileSignupRequest() {
    const a = await signupAccount(t);
    return { a, path: '/v1/logins/requests', json: { website: 'filing.com', email: 'agent@example.com' }, unchanged: () => count('signup_requests') };
  },
  async submitRecipe() {
    const a = await signupAccount(t);
    return { a, path: '/v1/recipes', json: { key: 'authority.com', kind: 'merchant', status: 'partial' }, unchanged: () => count('recipe_submissions') };
  },
  async setLoginUsername() {
    const { a, label, loginId } = await agentLogin();
    return { a, path: '/v1/logins/username', json: { label, username: 'shopper.jane' }, unchanged: () => readUsername(t.db, t.sealer, loginId) };
  },
  async rotateLoginPassword() {
    const { a, label, loginId } = await agentLogin();
    return { a, path: '/v1/logins/password', json: { label }, unchanged: () => readPassword(t.db, t.sealer, loginId) };
  },
};

/** The operations that write as a key: secured, with a JSON body (the retired createLogin writes nothing). */
const keyWrites = [...contract().operations.values()]
  .filter((op) => op.secured && op.method === 'POST' && op.operationId !== 'createLogin')
  .map((op) => op.operationId);

describe('authority at the moment of the write', () => {
  it('lists every write as a key of the document', () => {
    expect(keyWrites.sort()).toEqual(Object.keys(writes).sort());
  });

  it.each(Object.keys(writes))('when the key of %s is revoked while its body arrives, then 401 invalid_api_key and nothing is written', async (operationId) => {
    const { a, path, json, unchanged } = await writes[operationId]!();
    const before = await unchanged();
    const answer = await midBody(path, a.key, json, async () => {
      expect((await fixture(t, 'DELETE', `/accounts/${a.accountId}/keys/${a.keyId}`)).status).toBe(204);
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(401);
    expect(answer.body.code).toBe('invalid_api_key');
    expect(await unchanged()).toEqual(before);
  });

  it.each(Object.keys(writes))('when the account of %s is deleted while its body arrives, then 401 invalid_api_key', async (operationId) => {
    const { a, path, json } = await writes[operationId]!();
    const answer = await midBody(path, a.key, json, async () => {
      expect((await fixture(t, 'DELETE', `/accounts/${a.accountId}`)).status).toBe(204);
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(401);
    expect(answer.body.code).toBe('invalid_api_key');
  });

  it.each(['fileSignupRequest', 'setLoginUsername', 'rotateLoginPassword'])(
    'when the signup permission of the key of %s is withdrawn while its body arrives, then 403 signup_not_enabled and nothing is written',
    async (operationId) => {
      const { a, path, json, unchanged } = await writes[operationId]!();
      const before = await unchanged();
      const answer = await midBody(path, a.key, json, async () => {
        t.db.sqlite.prepare('UPDATE api_keys SET signup_enabled = 0 WHERE id = ?').run(a.keyId);
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
      expect(answer.body.code).toBe('signup_not_enabled');
      expect(await unchanged()).toEqual(before);
    },
  );

  it('when the login leaves a scoped key\'s list while a username for it arrives, then 404 not_found and nothing is recorded', async () => {
    const { a, label, loginId } = await agentLogin({ scopedTo: [] });
    const answer = await midBody('/v1/logins/username', a.key, { label, username: 'shopper.jane' }, async () => {
      expect((await fixture(t, 'DELETE', `/accounts/${a.accountId}/keys/${a.keyId}/logins/${label}`)).status).toBe(204);
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(404);
    expect(answer.body.code).toBe('not_found');
    expect(await readUsername(t.db, t.sealer, loginId)).toBeNull();
  });

  it('when the key keeps its authority while the body arrives, then the write happens', async () => {
    const { a, path, json, unchanged } = await writes.fileSignupRequest!();
    const before = unchanged() as number;
    const answer = await midBody(path, a.key, json, async () => undefined);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(unchanged()).toBe(before + 1);
  });
});
