import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, readAnswer, type Answer, type TestServer } from './support.js';
import { decide, fileOk, nextMinute, signupAccount, signupToken, startSignupServer, type Account } from './signup-support.js';
import { IdempotentWrites, keyCredential, type IdempotentRequest } from '../domain/idempotency.js';
import { getLoginByLabel, readPassword } from '../store/logins.js';

/**
 * The `Idempotency-Key` header (the document's IdempotencyKey parameter), on one server process:
 * a write sent again with its key is answered with the first answer and not carried out again, and
 * charges no limit or budget again; another body is refused; only final answers are kept.
 */

const WRITES_PER_MINUTE = 4;
const BUDGET = 3;
const seconds = (id: string) => contract().limit(id).value! * 1000;
const WINDOW = seconds('idempotency-key-window');
const IN_FLIGHT = seconds('idempotency-key-in-flight');

let t: TestServer;
beforeAll(async () => {
  t = await startSignupServer({
    limitOverrides: {
      'login-writes-per-key': WRITES_PER_MINUTE,
      'credential-changes-per-account': BUDGET,
      'pending-signup-requests': 100,
      'recipe-submissions-per-account': 1,
    },
  });
});
afterAll(() => t.close());

let keys = 0;
const newKey = () => `key-${++keys}-${Date.now()}`;

async function post(path: string, init: { key?: string; idempotencyKey?: string; json?: unknown; body?: string; headers?: Record<string, string> }): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.idempotencyKey !== undefined) headers['Idempotency-Key'] = init.idempotencyKey;
  const body = init.body ?? (init.json === undefined ? undefined : JSON.stringify(init.json));
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  return readAnswer(await t.call(path, { method: 'POST', key: init.key, body, headers }));
}

const file = (a: Account, idempotencyKey: string | undefined, json: unknown = { website: 'acme.com', email: 'agent@example.com' }) =>
  post('/v1/logins/requests', { key: a.key, idempotencyKey, json });

function requestsOf(accountId: string): number {
  return (t.db.sqlite.prepare('SELECT COUNT(*) AS n FROM signup_requests WHERE account_id = ?').get(accountId) as { n: number }).n;
}

/** An account with a login its key created through an approved signup (the approval counts one change). */
async function agentLogin(): Promise<{ a: Account; label: string }> {
  const a = await signupAccount(t);
  nextMinute(t);
  const filed = await fileOk(t, a.key, { website: 'acme.com', email: 'agent@example.com' });
  await decide(t, await signupToken(t, a.accountId, filed.requestId), 'approve');
  const polled = await t.call(`/v1/logins/requests/${filed.requestId}`, { key: a.key });
  return { a, label: ((await polled.json()) as { login: { label: string } }).login.label };
}

function expectReplayOf(replay: Answer, first: Answer, key: string) {
  expect(replay.status).toBe(first.status);
  expect(replay.text).toBe(first.text);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.headers.get('idempotency-key')).toBe(key);
  for (const name of ['content-type', 'cache-control', 'retry-after']) expect(replay.headers.get(name)).toBe(first.headers.get(name));
}

describe('fileSignupRequest with an Idempotency-Key', () => {
  it('when the same key and body are sent again, then the first answer comes back marked replayed, and nothing is filed again', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const key = newKey();
    const first = await file(a, key);
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotency-key')).toBe(key);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    for (let i = 0; i < 3; i++) expectReplayOf(await file(a, key), first, key);
    expect(requestsOf(a.accountId)).toBe(1);
  });

  it('when a write is replayed, then the key\'s login writes of the minute are not charged again', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const key = newKey();
    const first = await file(a, key);
    for (let i = 0; i < WRITES_PER_MINUTE + 2; i++) expectReplayOf(await file(a, key), first, key);
    // The first filing counted one write of the minute; the replays counted none.
    for (let i = 1; i < WRITES_PER_MINUTE; i++) expect((await file(a, newKey(), { website: `site${i}.com`, email: 'agent@example.com' })).status).toBe(202);
    const refused = await file(a, newKey(), { website: 'one-more.com', email: 'agent@example.com' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(requestsOf(a.accountId)).toBe(WRITES_PER_MINUTE);
  });

  it('when the same key comes with another body or to another path, then 422 idempotency_key_reused and nothing is written', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const key = newKey();
    const first = await file(a, key);
    const other = await file(a, key, { website: 'globex.com', email: 'agent@example.com' });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(other.headers.get('idempotency-key')).toBe(key);
    // Byte for byte: the same members in another order are another body.
    expect((await file(a, key, { email: 'agent@example.com', website: 'acme.com' })).body.code).toBe('idempotency_key_reused');
    const elsewhere = await post('/v1/logins/username', { key: a.key, idempotencyKey: key, body: JSON.stringify({ website: 'acme.com', email: 'agent@example.com' }) });
    expect(elsewhere.status).toBe(422);
    expect(requestsOf(a.accountId)).toBe(1);
    // The first answer is still the key's.
    expectReplayOf(await file(a, key), first, key);
  });

  it('when the first answer was a 429, then it is not kept: the same key tries the write again', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    for (let i = 0; i < WRITES_PER_MINUTE; i++) await fileOk(t, a.key, { website: `site${i}.com`, email: 'agent@example.com' });
    const key = newKey();
    const limited = await file(a, key);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers.get('idempotency-key')).toBe(key);
    expect((await file(a, key)).status).toBe(429);
    nextMinute(t);
    const carried = await file(a, key);
    expect(carried.status).toBe(202);
    expect(carried.headers.get('idempotent-replayed')).toBeNull();
    expect(requestsOf(a.accountId)).toBe(WRITES_PER_MINUTE + 1);
    expectReplayOf(await file(a, key), carried, key);
  });

  it('when the first answer was a 400, then it is kept and replayed for the same body', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const key = newKey();
    const first = await file(a, key, { website: 'acme.com', email: 'not an email' });
    expect(first.status).toBe(400);
    expect(first.body.code).toBe('invalid_email');
    expectReplayOf(await file(a, key, { website: 'acme.com', email: 'not an email' }), first, key);
  });

  it('when a refusal comes before the key is looked up (401, 403, 413), then it keeps nothing and still carries the key back', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const key = newKey();
    const unknown = await post('/v1/logins/requests', { key: 'vk_unknown', idempotencyKey: key, json: { website: 'acme.com', email: 'agent@example.com' } });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('idempotency-key')).toBe(key);
    const noPermission = await post('/v1/logins/requests', { key: (await a.addKey({ signup: false })).key, idempotencyKey: key, json: { website: 'acme.com', email: 'agent@example.com' } });
    expect(noPermission.status).toBe(403);
    const tooLarge = await file(a, key, { website: 'acme.com', email: 'agent@example.com', pad: 'x'.repeat(5000) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('idempotency-key')).toBe(key);
    const carried = await file(a, key);
    expect(carried.status).toBe(202);
    expect(carried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('when the key is not 1 to 255 visible ASCII characters, then 400 with the operation\'s code, nothing is written and nothing is carried back', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    for (const bad of ['', 'a b', 'é', 'x'.repeat(256)]) {
      const refused = await file(a, bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.code).toBe('bad_request');
      expect(refused.headers.get('idempotency-key')).toBeNull();
    }
    // Sent twice, a key arrives as one joined value, which no key may be.
    const res = await fetch(`${t.base}/v1/logins/requests`, {
      method: 'POST',
      headers: [['authorization', `Bearer ${a.key}`], ['content-type', 'application/json'], ['idempotency-key', 'one'], ['idempotency-key', 'two']],
      body: JSON.stringify({ website: 'acme.com', email: 'agent@example.com' }),
    });
    expect(res.status).toBe(400);
    expect((await file(a, 'x'.repeat(255))).status).toBe(202);
    expect(requestsOf(a.accountId)).toBe(1);
  });

  it('when two keys hold the same value for two API keys, then each key is its own', async () => {
    const a = await signupAccount(t);
    const b = await signupAccount(t);
    nextMinute(t);
    const key = newKey();
    const first = await file(a, key);
    const other = await file(b, key);
    expect(other.status).toBe(202);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.requestId).not.toBe(first.body.requestId);
  });

  it('when the window has passed, then the key is new again', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const key = newKey();
    const first = await file(a, key);
    t.clock.advance(WINDOW - 1);
    expectReplayOf(await file(a, key), first, key);
    t.clock.advance(1);
    const again = await file(a, key);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.requestId).not.toBe(first.body.requestId);
  });

  it('when many requests with one key arrive at once, then exactly one is carried out; the others get its answer or 409 idempotency_key_in_use', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const sent = Array.from({ length: 4 }, () => newKey());
    const answers = await Promise.all(sent.flatMap((key) => Array.from({ length: 5 }, () => file(a, key).then((answer) => ({ key, answer })))));
    for (const key of sent) {
      const mine = answers.filter((x) => x.key === key).map((x) => x.answer);
      const carried = mine.filter((x) => x.status === 202 && x.headers.get('idempotent-replayed') === null);
      expect(carried).toHaveLength(1);
      for (const x of mine) {
        if (x === carried[0]) continue;
        if (x.status === 409) {
          expect(x.body.code).toBe('idempotency_key_in_use');
          expect(x.headers.get('retry-after')).toBe('1');
        } else expectReplayOf(x, carried[0]!, key);
      }
    }
    expect(requestsOf(a.accountId)).toBe(sent.length);
  });
});

describe('a key still being processed', () => {
  /** Claims the key as a request of this or another process would, through the same rules. */
  async function claim(a: Account, key: string, json: unknown, clock = t.clock) {
    const writes = new IdempotentWrites({ db: t.db, sealer: t.sealer, clock }, { windowMs: WINDOW, inFlightMs: IN_FLIGHT });
    const request: IdempotentRequest = { credential: keyCredential(a.keyId), key, method: 'POST', path: '/v1/logins/requests', body: Buffer.from(JSON.stringify(json)) };
    const decision = await writes.begin(request);
    if (decision.kind !== 'claimed') throw new Error(`the key was ${decision.kind}`);
    return { writes, claim: decision.claim };
  }

  it('when the key is held, then 409 idempotency_key_in_use with Retry-After 1; once it is given up, the write is carried out', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const key = newKey();
    const body = { website: 'acme.com', email: 'agent@example.com' };
    const held = await claim(a, key, body);
    const busy = await file(a, key, body);
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('idempotency_key_in_use');
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.headers.get('idempotency-key')).toBe(key);
    expect(requestsOf(a.accountId)).toBe(0);
    // Another body is refused even while the first is in flight.
    expect((await file(a, key, { website: 'globex.com', email: 'agent@example.com' })).status).toBe(422);
    await held.writes.release(held.claim);
    expect((await file(a, key, body)).status).toBe(202);
    expect(requestsOf(a.accountId)).toBe(1);
  });

  it('when the request holding a key never answers (its process stopped), then the key is held for the in-flight bound only', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const key = newKey();
    const body = { website: 'acme.com', email: 'agent@example.com' };
    const stale = await claim(a, key, body);
    t.clock.advance(IN_FLIGHT - 1);
    expect((await file(a, key, body)).status).toBe(409);
    t.clock.advance(1);
    const carried = await file(a, key, body);
    expect(carried.status).toBe(202);
    // The stopped request's late answer does not replace the one kept since.
    await stale.writes.finish(stale.claim, { status: 500, headers: {}, body: Buffer.alloc(0) });
    await stale.writes.finish(stale.claim, { status: 202, headers: {}, body: Buffer.from('{}') });
    expectReplayOf(await file(a, key, body), carried, key);
  });
});

describe('rotateLoginPassword with an Idempotency-Key', () => {
  it('when a rotation is replayed, then the credential-change budget is not charged again and the password stays', async () => {
    const { a, label } = await agentLogin();
    const login = (await getLoginByLabel(t.db, a.accountId, label))!;
    const key = newKey();
    const first = await post('/v1/logins/password', { key: a.key, idempotencyKey: key, json: { label } });
    expect(first.status).toBe(200);
    const password = await readPassword(t.db, t.sealer, login.id);
    for (let i = 0; i < BUDGET + 1; i++) expectReplayOf(await post('/v1/logins/password', { key: a.key, idempotencyKey: key, json: { label } }), first, key);
    expect(await readPassword(t.db, t.sealer, login.id)).toBe(password);
    // The approval and the first rotation counted two changes of three; the replays none.
    expect((await post('/v1/logins/password', { key: a.key, idempotencyKey: newKey(), json: { label } })).status).toBe(200);
    const spent = await post('/v1/logins/password', { key: a.key, idempotencyKey: newKey(), json: { label } });
    expect(spent.status).toBe(429);
    expect(spent.body.code).toBe('daily_limit');
  });
});

describe('submitRecipe with an Idempotency-Key', () => {
  const recipe = { key: 'globex.com', kind: 'merchant', platform: 'custom', status: 'unverified', steps: [{ action: 'fill', field: 'email' }] };

  it('when a submission is replayed, then the same submission comes back and the account\'s submissions are not charged again', async () => {
    const a = await signupAccount(t);
    const key = newKey();
    const first = await post('/v1/recipes', { key: a.key, idempotencyKey: key, json: recipe });
    expect(first.status).toBe(202);
    expectReplayOf(await post('/v1/recipes', { key: a.key, idempotencyKey: key, json: recipe }), first, key);
    // One submission of one was counted: a new write is refused, the replay still answered.
    expect((await post('/v1/recipes', { key: a.key, idempotencyKey: newKey(), json: recipe })).status).toBe(429);
  });

  it('when the key is malformed, then 400 invalid_recipe with the problem listed, as every 400 of the operation', async () => {
    const a = await signupAccount(t);
    const refused = await post('/v1/recipes', { key: a.key, idempotencyKey: 'two words', json: recipe });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_recipe');
    expect(refused.body.errors).toEqual([{ path: '', message: expect.stringContaining('Idempotency-Key') }]);
  });
});

describe('decideSignupApproval with an Idempotency-Key', () => {
  it('when a decision is sent again with its key, then its answer comes back though the link is used up; another decision is refused', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const filed = await fileOk(t, a.key, { website: 'acme.com', email: 'agent@example.com' });
    const token = await signupToken(t, a.accountId, filed.requestId);
    const key = newKey();
    const path = `/v1/signup-requests/${token}`;
    const first = await post(path, { idempotencyKey: key, json: { decision: 'approve' } });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('approved');
    const again = await post(path, { idempotencyKey: key, json: { decision: 'approve' } });
    expectReplayOf(again, first, key);
    for (const name of ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'vary']) expect(again.headers.get(name)).toBe(first.headers.get(name));
    expect((await post(path, { idempotencyKey: key, json: { decision: 'deny' } })).status).toBe(422);
    // Without the key, the used link answers as it always has.
    expect((await post(path, { json: { decision: 'approve' } })).status).toBe(404);
  });

  it('when the token names no link, then the key is carried back but nothing is kept', async () => {
    const key = newKey();
    const refused = await post('/v1/signup-requests/lnk_unknown', { idempotencyKey: key, json: { decision: 'approve' } });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('idempotency-key')).toBe(key);
    expect(t.db.sqlite.prepare("SELECT COUNT(*) AS n FROM idempotency_keys WHERE credential LIKE 'link:%' AND idempotency_key = ?").get(key)).toEqual({ n: 0 });
  });
});

describe('what a key keeps', () => {
  it('when an answer is kept, then it is sealed and the body is kept as a tag, never in plain text', async () => {
    const a = await signupAccount(t);
    nextMinute(t);
    const key = newKey();
    const email = 'kept.agent@example.com';
    const first = await file(a, key, { website: 'acme.com', email });
    const row = t.db.sqlite.prepare('SELECT * FROM idempotency_keys WHERE credential = ? AND idempotency_key = ?').get(keyCredential(a.keyId), key) as Record<string, Buffer | string | number | null>;
    const stored = JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : v));
    for (const plain of [email, first.body.requestId as string, a.key, 'acme.com']) expect(stored).not.toContain(plain);
    expect(row.owner).toBeNull();
  });
});
