// A reference server on 127.0.0.1, port 0, with its fixture surface, and the account holder's side of
// it over HTTP (what the dashboard and the holder's links do), so client tests set up and decide state
// as the specification's actors would, with nothing mocked.
import { randomBytes } from 'node:crypto';
import { ManualClock } from '../../../server/domain/clock.js';
import type { ServerConfig } from '../../../server/config.js';
import { startServer, type TestServer } from '../../../server/test/support.js';

export interface Sandbox {
  server: TestServer;
  base: string;
  holder: Holder;
  close(): Promise<void>;
}

/**
 * A server whose manual clock starts at this machine's time, so the client's clock and the server's
 * agree until a test moves it (or on `clock`).
 */
export async function startSandbox(options: { config?: Partial<ServerConfig>; clock?: ManualClock } = {}): Promise<Sandbox> {
  const adminToken = `adm_${randomBytes(12).toString('hex')}`;
  const server = await startServer({ config: { adminToken, ...options.config }, clock: options.clock ?? new ManualClock(Date.now()) });
  return { server, base: server.base, holder: new Holder(server.base, adminToken), close: () => server.close() };
}

export interface IssuedKey {
  keyId: string;
  key: string;
}

export interface HolderLink {
  token: string;
  kind: 'signup' | 'purchase' | 'cvv' | 'challenge';
  requestId?: string;
  status: string;
}

/** The account holder, through the fixture surface and the links it receives. */
export class Holder {
  constructor(
    readonly base: string,
    private readonly adminToken: string,
  ) {}

  private async fixture<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}/_fixtures${path}`, {
      method,
      headers: { authorization: `Bearer ${this.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`fixture ${method} ${path}: ${res.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  async createAccount(plan: 'Free' | 'Plus' | 'Enterprise' = 'Free'): Promise<string> {
    return (await this.fixture<{ accountId: string }>('POST', '/accounts', { plan })).accountId;
  }

  createKey(accountId: string, options: { signup?: boolean; scope?: 'all' | string[] } = {}): Promise<IssuedKey> {
    return this.fixture('POST', `/accounts/${accountId}/keys`, { name: 'client test key', ...options });
  }

  /** An account with one key; `signup` grants the key the signup permission. */
  async account(options: { plan?: 'Free' | 'Plus' | 'Enterprise'; signup?: boolean; scope?: 'all' | string[] } = {}) {
    const accountId = await this.createAccount(options.plan);
    const key = await this.createKey(accountId, { signup: options.signup, scope: options.scope });
    return { accountId, ...key };
  }

  async links(accountId: string): Promise<HolderLink[]> {
    return (await this.fixture<{ links: HolderLink[] }>('GET', `/accounts/${accountId}/links`)).links;
  }

  /** The signup link of a request, once the server has made it. */
  async signupLink(accountId: string, requestId: string): Promise<string> {
    const link = (await this.links(accountId)).find((l) => l.kind === 'signup' && l.requestId === requestId);
    if (!link) throw new Error(`no signup link for ${requestId}`);
    return link.token;
  }

  /** Decides a signup request through its link, as the account holder does. */
  async decideSignup(accountId: string, requestId: string, decision: 'approve' | 'deny'): Promise<void> {
    const token = await this.signupLink(accountId, requestId);
    const res = await fetch(`${this.base}/v1/signup-requests/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision }),
    });
    if (res.status !== 200) throw new Error(`deciding ${requestId}: ${res.status} ${await res.text()}`);
  }

  advanceClock(ms: number): Promise<{ now: number }> {
    return this.fixture('POST', '/clock/advance', { ms });
  }

  /** Saves a login as the account holder; its label comes from the site name. */
  addLogin(accountId: string, body: { website: string; password: string; email?: string; username?: string }): Promise<{ label: string }> {
    return this.fixture('POST', `/accounts/${accountId}/logins`, body);
  }

  replaceLoginPassword(accountId: string, label: string, password: string): Promise<void> {
    return this.fixture('PUT', `/accounts/${accountId}/logins/${label}/password`, { password });
  }

  removeKeyLogin(accountId: string, keyId: string, label: string): Promise<void> {
    return this.fixture('DELETE', `/accounts/${accountId}/keys/${keyId}/logins/${label}`);
  }

  createPurchaseApproval(accountId: string, body: { kind?: string; offersDeclared?: boolean } = {}): Promise<{ token: string }> {
    return this.fixture('POST', `/accounts/${accountId}/purchase-approvals`, body);
  }

  createCvvRequest(accountId: string): Promise<{ token: string }> {
    return this.fixture('POST', `/accounts/${accountId}/cvv-requests`);
  }

  createChallengeRequest(accountId: string): Promise<{ token: string }> {
    return this.fixture('POST', `/accounts/${accountId}/challenge-requests`);
  }
}

/** Waits until `check` holds, polling every few milliseconds (for state another actor changes). */
export async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
