import { expect } from 'vitest';
import { startServer, givenAccount, type TestServer } from './support.js';
import type { ServerConfig } from '../config.js';
import { insertLogin } from '../store/logins.js';
import { addKeyLogin } from '../store/keys.js';
import { transaction } from '../store/db.js';

/** Helpers shared by the signup and account-holder link tests. */

export const ADMIN = 'adm_test_signup_fixtures';
export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export function startSignupServer(config: Partial<ServerConfig> = {}): Promise<TestServer> {
  return startServer({ config: { adminToken: ADMIN, ...config } });
}

export type Account = Awaited<ReturnType<typeof givenAccount>>;

/** An account whose first key has the signup permission. */
export function signupAccount(t: TestServer, options: { scopedTo?: string[] } = {}): Promise<Account> {
  return givenAccount(t, { signup: true, ...options });
}

export function fixture(t: TestServer, method: string, path: string, json?: unknown): Promise<Response> {
  return t.call(`/_fixtures${path}`, { method, key: ADMIN, ...(json !== undefined ? { json } : {}) });
}

export function file(t: TestServer, key: string, body: Record<string, unknown>): Promise<Response> {
  return t.call('/v1/logins/requests', { method: 'POST', key, json: body });
}

/** Files a request that must be accepted; returns its 202 body. */
export async function fileOk(t: TestServer, key: string, body: Record<string, unknown>) {
  const res = await file(t, key, body);
  const json = (await res.json()) as { requestId: string; status: string; expiresAt: number };
  expect(res.status, JSON.stringify(json)).toBe(202);
  return json;
}

export async function poll(t: TestServer, key: string, id: string) {
  const res = await t.call(`/v1/logins/requests/${encodeURIComponent(id)}`, { key });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

export interface LinkListing {
  token: string;
  kind: string;
  requestId?: string;
  status: string;
  expiresAt: number;
}

/** The links the account holder has received, newest first (fixture surface). */
export async function links(t: TestServer, accountId: string): Promise<LinkListing[]> {
  const res = await fixture(t, 'GET', `/accounts/${accountId}/links`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { links: LinkListing[] }).links;
}

export async function signupToken(t: TestServer, accountId: string, requestId: string): Promise<string> {
  const link = (await links(t, accountId)).find((l) => l.kind === 'signup' && l.requestId === requestId);
  expect(link, `a signup link for ${requestId}`).toBeDefined();
  return link!.token;
}

export async function decide(t: TestServer, token: string, decision: 'approve' | 'deny') {
  const res = await t.call(`/v1/signup-requests/${encodeURIComponent(token)}`, { method: 'POST', json: { decision } });
  return { status: res.status, body: (await res.json()) as any };
}

/** Files a request for the site and has the account holder approve it; returns the approved poll body. */
export async function signupApproved(t: TestServer, a: Pick<Account, 'accountId' | 'key'>, website: string, extra: Record<string, unknown> = {}) {
  const filed = await fileOk(t, a.key, { website, email: 'agent@example.com', ...extra });
  expect(filed.status).toBe('pending');
  const decided = await decide(t, await signupToken(t, a.accountId, filed.requestId), 'approve');
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  expect(decided.body.status, JSON.stringify(decided.body)).toBe('approved');
  const polled = await poll(t, a.key, filed.requestId);
  expect(polled.status).toBe(200);
  return { requestId: filed.requestId, ...(polled.body as { login: any; passwordPolicy: any; passwordOwnerManaged: boolean }) };
}

/** Logins the account holder saved, straight into the store (fast set-up for ceilings). */
export async function addLogins(t: TestServer, accountId: string, labels: string[], options: { createdByKey?: string; onListOf?: string } = {}): Promise<string[]> {
  return transaction(t.db, async (db) => {
    const ids: string[] = [];
    for (const label of labels) {
      const id = await insertLogin(db, t.sealer, {
        accountId,
        label,
        website: `${label}.example`,
        extraWebsites: [],
        password: 'saved-password',
        createdByKey: options.createdByKey ?? null,
        now: t.clock.now(),
      });
      if (options.onListOf) await addKeyLogin(db, options.onListOf, id);
      ids.push(id);
    }
    return ids;
  });
}

/** Moves past the current fixed minute, so the 20 login writes per key start again. */
export function nextMinute(t: TestServer): void {
  t.clock.advance(MINUTE - (t.clock.now() % MINUTE));
}
