import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { errorCodesOf } from '../contract.js';
import { isStorageFull, openDb, type SqliteStore } from '../store/db.js';
import { answerProblem } from './answers.js';
import { contract, startServer, type TestServer } from './support.js';
import { ADMIN, fileOk, fixture, poll, signupAccount, signupApproved, signupToken, type Account } from './signup-support.js';

/**
 * A full disk. The switch below makes every write statement fail as SQLite fails when the disk
 * holding the database has no room (SQLITE_FULL), without filling a real disk; the first test
 * holds its error to the one a real SQLite gives.
 */

const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

function fullSwitch(db: SqliteStore): { full: boolean } {
  const state = { full: false };
  const prepare = db.sqlite.prepare.bind(db.sqlite);
  db.sqlite.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (WRITE.test(sql)) {
      const run = statement.run.bind(statement);
      statement.run = (...params: unknown[]) => {
        if (state.full) throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
        return run(...params);
      };
    }
    return statement;
  }) as SqliteStore['sqlite']['prepare'];
  return state;
}

let t: TestServer;
let disk: { full: boolean };
let a: Account;
beforeAll(async () => {
  const db = openDb(':memory:');
  disk = fullSwitch(db);
  t = await startServer({ db, config: { adminToken: ADMIN } });
  a = await signupAccount(t);
});
afterAll(() => t.close());

/**
 * A request answered while the disk is full, held to the document as t.call does: the 503
 * `storage_full` included, which every operation that can answer it documents.
 */
async function whileFull(path: string, init: { method?: string; key?: string; json?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const method = init.method ?? 'GET';
  const res = await fetch(`${t.base}${path}`, { method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  const text = await res.clone().text();
  expect(answerProblem(contract(), true, method, path, res.status, text)).toBeUndefined();
  return res;
}

/** The operations whose 503 answer documents `storage_full`. */
function documentingStorageFull(): string[] {
  const c = contract();
  return [...c.operations.values()]
    .filter((op) => {
      const answer = op.raw.responses?.['503'];
      return answer !== undefined && errorCodesOf((n) => c.resolve(n), c.resolve(answer)).includes('storage_full');
    })
    .map((op) => op.operationId)
    .sort();
}

async function answer(res: Response) {
  return { status: res.status, headers: res.headers, body: (await res.json()) as { code: string; error: string } };
}

function expectStorageFull(got: Awaited<ReturnType<typeof answer>>, what: string) {
  expect(got.status, `${what}: ${JSON.stringify(got.body)}`).toBe(503);
  expect(got.body.code, what).toBe('storage_full');
  expect(got.body.error, what).toMatch(/storage is full/);
  expect(got.headers.get('retry-after'), what).toBe('30');
  expect(got.headers.get('cache-control'), what).toBe('no-store');
}

describe('a full disk', () => {
  it('is recognised as SQLite reports it (a database at its max_page_count)', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE filler (x BLOB)');
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    let caught: unknown;
    try {
      db.prepare('INSERT INTO filler VALUES (?)').run(Buffer.alloc(64 * 1024));
    } catch (e) {
      caught = e;
    }
    expect(isStorageFull(caught)).toBe(true);
    expect(isStorageFull(new Error('database or disk is full'))).toBe(false);
    db.close();
  });

  it('when the catalog read cannot record its count, then 503 storage_full with Retry-After, not 500; reads that record nothing keep answering', async () => {
    const filed = await fileOk(t, a.key, { website: 'before.com', email: 'agent@example.com' });
    const token = await signupToken(t, a.accountId, filed.requestId);
    disk.full = true;
    try {
      expectStorageFull(await answer(await whileFull('/v1/tokens', { key: a.key })), 'GET /v1/tokens');
      expect((await t.call('/v1/recipes')).status).toBe(200);
      expect((await t.call('/v1/recipes?url=https://acme.com/checkout')).status).toBe(200);
      expect((await poll(t, a.key, filed.requestId)).status).toBe(200);
      expect((await t.call(`/v1/signup-requests/${encodeURIComponent(token)}`)).status).toBe(200);
      expect((await t.call('/health')).status).toBe(200);
    } finally {
      disk.full = false;
    }
    expect((await t.call('/v1/tokens', { key: a.key })).status).toBe(200);
  });

  it('when a write cannot be stored, then 503 storage_full and nothing of it is kept; once room returns, the same writes succeed', async () => {
    const count = (table: string) => (t.db.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const filing = { website: 'during.com', email: 'agent@example.com' };
    const recipe = { key: 'storagefull.com', kind: 'merchant', status: 'partial' };
    const cvv = (await (await fixture(t, 'POST', `/accounts/${a.accountId}/cvv-requests`)).json()) as { token: string };
    const filed = await fileOk(t, a.key, { website: 'pending.com', email: 'agent@example.com' });
    const signupLink = await signupToken(t, a.accountId, filed.requestId);
    const before = { requests: count('signup_requests'), submissions: count('recipe_submissions') };

    disk.full = true;
    try {
      expectStorageFull(await answer(await whileFull('/v1/logins/requests', { method: 'POST', key: a.key, json: filing })), 'fileSignupRequest');
      expectStorageFull(await answer(await whileFull('/v1/recipes', { method: 'POST', key: a.key, json: recipe })), 'submitRecipe');
      expectStorageFull(await answer(await whileFull(`/v1/cvv-requests/${encodeURIComponent(cvv.token)}`)), 'getCvvRequest');
      const decision = await whileFull(`/v1/signup-requests/${encodeURIComponent(signupLink)}`, { method: 'POST', json: { decision: 'deny' } });
      expectStorageFull(await answer(decision), 'decideSignupApproval');
    } finally {
      disk.full = false;
    }
    expect({ requests: count('signup_requests'), submissions: count('recipe_submissions') }).toEqual(before);
    expect((await poll(t, a.key, filed.requestId)).body.status).toBe('pending');

    expect((await t.call('/v1/logins/requests', { method: 'POST', key: a.key, json: filing })).status).toBe(202);
    expect((await t.call('/v1/recipes', { method: 'POST', key: a.key, json: recipe })).status).toBe(202);
    expect((await t.call(`/v1/cvv-requests/${encodeURIComponent(cvv.token)}`)).status).toBe(200);
    const decided = await t.call(`/v1/signup-requests/${encodeURIComponent(signupLink)}`, { method: 'POST', json: { decision: 'deny' } });
    expect(decided.status).toBe(200);
  });

  it('when every operation is called while full, then those that must record something answer storage_full, each of them documents it, and no other does', async () => {
    const filed = await fileOk(t, a.key, { website: 'probe.com', email: 'agent@example.com' });
    const signupLink = await signupToken(t, a.accountId, filed.requestId);
    const approved = await signupApproved(t, a, 'probe-login.com');
    const link = async (what: string, json?: unknown) => ((await (await fixture(t, 'POST', `/accounts/${a.accountId}/${what}`, json)).json()) as { token: string }).token;
    const purchase = await link('purchase-approvals', {});
    const cvv = await link('cvv-requests');
    const challenge = await link('challenge-requests');
    const submitted = (await (await t.call('/v1/recipes', { method: 'POST', key: a.key, json: { key: 'probe.com', kind: 'merchant', status: 'partial' } })).json()) as { id: string };
    const calls: Record<string, [string, { method?: string; key?: string; json?: unknown }]> = {
      getTokenCatalog: ['/v1/tokens', { key: a.key }],
      getRecipes: ['/v1/recipes', {}],
      submitRecipe: ['/v1/recipes', { method: 'POST', key: a.key, json: { key: 'probe-full.com', kind: 'merchant', status: 'partial' } }],
      getRecipeSubmission: [`/v1/recipes/submissions/${submitted.id}`, { key: a.key }],
      fileSignupRequest: ['/v1/logins/requests', { method: 'POST', key: a.key, json: { website: 'probe-full.com', email: 'agent@example.com' } }],
      getSignupRequest: [`/v1/logins/requests/${filed.requestId}`, { key: a.key }],
      setLoginUsername: ['/v1/logins/username', { method: 'POST', key: a.key, json: { label: approved.login.label, username: 'probe' } }],
      rotateLoginPassword: ['/v1/logins/password', { method: 'POST', key: a.key, json: { label: approved.login.label } }],
      createLogin: ['/v1/logins', { method: 'POST' }],
      getPurchaseApproval: [`/v1/approvals/${purchase}`, {}],
      decidePurchaseApproval: [`/v1/approvals/${purchase}/decide`, { method: 'POST', json: { decision: 'approve' } }],
      getSignupApproval: [`/v1/signup-requests/${signupLink}`, {}],
      decideSignupApproval: [`/v1/signup-requests/${signupLink}`, { method: 'POST', json: { decision: 'deny' } }],
      getCvvRequest: [`/v1/cvv-requests/${cvv}`, {}],
      getChallengeRequest: [`/v1/challenge-requests/${challenge}`, {}],
      getProxyHealth: ['/health', {}],
    };
    expect(Object.keys(calls).sort(), 'every operation of the document is called').toEqual([...contract().operations.values()].map((op) => op.operationId).sort());
    const refused: string[] = [];
    disk.full = true;
    try {
      for (const [operationId, [path, init]] of Object.entries(calls)) {
        const got = await answer(await whileFull(path, init));
        if (got.status === 503) {
          expectStorageFull(got, operationId);
          refused.push(operationId);
        } else if (operationId === 'createLogin') expect(got.body.code, 'the retired operation answers as always').toBe('signup_requires_approval');
        else expect(got.status, `${operationId}: ${JSON.stringify(got.body)}`).toBeLessThan(300);
      }
    } finally {
      disk.full = false;
    }
    expect(refused.sort()).toEqual(documentingStorageFull());
  });
});
