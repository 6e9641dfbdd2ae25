import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, type ServerProcess } from './process.js';
import { openDb, transaction, type SqliteStore } from '../store/db.js';
import { Sealer, verifyMasterKeyNow } from '../store/secrets.js';
import { openAccount } from '../domain/accounts.js';
import { createKey } from '../store/keys.js';
import { insertLogin, listLogins } from '../store/logins.js';

/**
 * Two server processes on one database file decide at once (sections 8.3, 8.4): every approval's
 * checks and writes run in one immediate transaction, so neither a label nor the last change of
 * a budget can be taken twice.
 */

const ADMIN = 'adm_concurrency_test';
const BUDGET = 3;
let dir: string;
let db: SqliteStore;
let sealer: Sealer;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vault-signup-race-'));
  const masterKey = randomBytes(32);
  sealer = new Sealer(masterKey);
  // The test's own connection migrates the file and writes the key check before the servers start.
  db = openDb(join(dir, 'vault.db'));
  verifyMasterKeyNow(db.sqlite, sealer);
  const env = {
    VAULT_DATA_DIR: dir,
    VAULT_MASTER_KEY: masterKey.toString('hex'),
    VAULT_ADMIN_TOKEN: ADMIN,
    VAULT_LIMITS: `credential-changes-per-account=${BUDGET}`,
  };
  servers = await Promise.all([spawnServer(env), spawnServer(env)]);
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function account() {
  const now = Date.now();
  const a = await openAccount(db, { plan: 'Free', name: 'Race account', now });
  const { secret } = await createKey(db, { accountId: a.id, name: 'signup key', signupEnabled: true, scoped: false, now });
  return { accountId: a.id, key: secret };
}

/** Files pending requests through the first server and reads their link tokens as the account holder. */
async function pendingRequests(a: { accountId: string; key: string }, sites: string[]): Promise<string[]> {
  const base = servers[0]!.base;
  const ids: string[] = [];
  for (const website of sites) {
    const res = await fetch(`${base}/v1/logins/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ website, email: 'agent@example.com' }),
    });
    const body = (await res.json()) as { requestId: string; status: string };
    expect(res.status, JSON.stringify(body)).toBe(202);
    expect(body.status).toBe('pending');
    ids.push(body.requestId);
  }
  const res = await fetch(`${base}/_fixtures/accounts/${a.accountId}/links`, { headers: { authorization: `Bearer ${ADMIN}` } });
  const { links } = (await res.json()) as { links: { token: string; requestId?: string }[] };
  return ids.map((id) => links.find((l) => l.requestId === id)!.token);
}

/** Every token approved at the same moment, alternating between the two processes. */
async function approveAtOnce(tokens: string[]) {
  return Promise.all(
    tokens.map(async (token, i) => {
      const res = await fetch(`${servers[i % 2]!.base}/v1/signup-requests/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'approve' }),
      });
      return { status: res.status, body: (await res.json()) as { status?: string; approvalFailure?: string } };
    }),
  );
}

describe('decideSignupApproval across two processes', () => {
  it('when five approvals race for the last free label, then exactly one gets acme50 and the others stay pending', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await account();
      await transaction(db, async (tx) => {
        for (const label of ['acme', ...Array.from({ length: 48 }, (_, i) => `acme${i + 2}`)]) {
          await insertLogin(tx, sealer, { accountId: a.accountId, label, website: 'acme.com', extraWebsites: [], password: 'saved-password', now: Date.now() });
        }
      });
      const tokens = await pendingRequests(a, ['acme.net', 'acme.org', 'acme.io', 'acme.de', 'acme.fr']);
      const results = await approveAtOnce(tokens);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(results.filter((r) => r.body.status === 'approved')).toHaveLength(1);
      expect(results.filter((r) => r.body.approvalFailure === 'label_unavailable')).toHaveLength(4);
      const labels = (await listLogins(db, a.accountId)).map((l) => l.label);
      expect(labels).toHaveLength(50);
      expect(labels.filter((l) => l === 'acme50')).toHaveLength(1);
    }
  }, 30_000);

  it(`when five approvals race for a budget of ${BUDGET} changes, then exactly ${BUDGET} complete`, async () => {
    for (let round = 0; round < 3; round++) {
      const a = await account();
      const tokens = await pendingRequests(a, ['one.com', 'two.com', 'three.com', 'four.com', 'five.com']);
      const results = await approveAtOnce(tokens);
      expect(results.filter((r) => r.body.status === 'approved')).toHaveLength(BUDGET);
      expect(results.filter((r) => r.body.approvalFailure === 'daily_limit')).toHaveLength(5 - BUDGET);
      expect(await listLogins(db, a.accountId)).toHaveLength(BUDGET);
    }
  }, 30_000);

  it('when one link is approved on both processes at once, then one login is created and the other answer is not found', async () => {
    const a = await account();
    const [token] = await pendingRequests(a, ['twice.com']);
    const results = await approveAtOnce([token!, token!]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(await listLogins(db, a.accountId)).toHaveLength(1);
  }, 30_000);
});
