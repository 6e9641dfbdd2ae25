import type { AccountHolderDriver, ClockState, DriverFactory, IssuedKey, LinkState, WebhookDeliveryState } from './driver.js';
import { Connection, DIRECT, type HttpResponse } from '../runner/http.js';

const TIMEOUT_MS = 30_000;

/**
 * The account-holder driver over the reference server's back office (`/_fixtures`, documented
 * in openapi/back-office.yaml), which the server enables when started with an admin token. It is also
 * the example to follow when writing a driver for another deployment: each method is one call to
 * that deployment's own back office.
 *
 * Its requests go the runner's way to the deployment (`connection`: TLS files, staging headers,
 * proxy), since the back office is served beside the API.
 *
 * Options: `admin-token` (or the environment variable VAULT_ADMIN_TOKEN).
 */
export function backOfficeDriverOver(connection: Connection): DriverFactory {
  return ({ baseUrl, options }) => backOfficeDriver(baseUrl, options, connection);
}

/** The back-office driver on a connection of its own, with no TLS files, headers or proxy. */
export const createBackOfficeDriver: DriverFactory = ({ baseUrl, options }) => {
  const connection = new Connection(DIRECT, [baseUrl]);
  return { ...backOfficeDriver(baseUrl, options, connection), close: async () => connection.close() };
};

function backOfficeDriver(baseUrl: string, options: Record<string, string>, connection: Connection): AccountHolderDriver {
  const token = options['admin-token'] ?? process.env.VAULT_ADMIN_TOKEN;
  if (!token) throw new Error('the back-office driver needs the admin token: --admin-token <token> (or VAULT_ADMIN_TOKEN)');
  const base = baseUrl.replace(/\/+$/, '');

  async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    let res: HttpResponse;
    try {
      const request = connection.request({
        method,
        url: `${base}/_fixtures${path}`,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
      });
      res = await connection.send(request, TIMEOUT_MS);
    } catch (e) {
      throw new Error(`back office ${method} ${path}: ${(e as Error).message}`);
    }
    const text = res.text;
    if (res.status < 200 || res.status > 299) {
      let reason = text.slice(0, 200);
      try {
        const parsed = JSON.parse(text) as { code?: string; error?: string };
        reason = `${parsed.code}: ${parsed.error}`;
      } catch {
        // The raw text is the reason.
      }
      if (res.status === 401) throw new Error(`the back office refused the admin token (401); check --admin-token`);
      if (res.status === 404 && /No back-office operation at|No fixture at|No endpoint at/.test(reason)) {
        throw new Error(`the back office is not enabled at ${base} (start the reference server with an admin token)`);
      }
      throw Object.assign(new Error(`back office ${method} ${path} answered ${res.status} ${reason}`), { status: res.status, reason });
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  const acct = (id: string) => `/accounts/${encodeURIComponent(id)}`;

  const driver: AccountHolderDriver = {
    async openAccount({ plan, name }) {
      const account = await call<{ accountId: string }>('POST', '/accounts', { plan, ...(name ? { name } : {}) });
      return { accountId: account.accountId };
    },
    async deleteAccount(accountId) {
      await call('DELETE', acct(accountId));
    },
    async changePlan(accountId, plan) {
      await call('PATCH', acct(accountId), { plan });
    },
    async issueKey(accountId, { name, signup, scope }) {
      const created = await call<IssuedKey>('POST', `${acct(accountId)}/keys`, { name: name ?? 'conformance', signup: signup ?? false, scope: scope ?? 'all' });
      return { keyId: created.keyId, key: created.key };
    },
    async revokeKey(accountId, keyId) {
      await call('DELETE', `${acct(accountId)}/keys/${encodeURIComponent(keyId)}`);
    },
    async addKeyLogin(accountId, keyId, label) {
      await call('PUT', `${acct(accountId)}/keys/${encodeURIComponent(keyId)}/logins/${encodeURIComponent(label)}`);
    },
    async removeKeyLogin(accountId, keyId, label) {
      await call('DELETE', `${acct(accountId)}/keys/${encodeURIComponent(keyId)}/logins/${encodeURIComponent(label)}`);
    },
    async saveCard(accountId, card) {
      await call('POST', `${acct(accountId)}/cards`, card);
    },
    async saveLogin(accountId, login) {
      const entry = await call<{ label: string }>('POST', `${acct(accountId)}/logins`, login);
      return { label: entry.label };
    },
    async deleteLogin(accountId, label) {
      await call('DELETE', `${acct(accountId)}/logins/${encodeURIComponent(label)}`);
    },
    async replacePassword(accountId, label, password) {
      await call('PUT', `${acct(accountId)}/logins/${encodeURIComponent(label)}/password`, { password });
    },
    async setIdentity(accountId, fields) {
      await call('PATCH', `${acct(accountId)}/identity`, fields);
    },
    async saveAddress(accountId, address) {
      await call('POST', `${acct(accountId)}/addresses`, address);
    },
    async preapproveSites(accountId, sites, email) {
      await call('POST', `${acct(accountId)}/signup-preapprovals`, { sites: sites.join('\n'), email });
    },
    async removePreapprovedSite(accountId, site) {
      await call('DELETE', `${acct(accountId)}/signup-preapprovals/${encodeURIComponent(site)}`);
    },
    async signupLink(accountId, requestId) {
      const { links } = await call<{ links: { token: string; kind: string; requestId?: string }[] }>('GET', `${acct(accountId)}/links`);
      return links.find((l) => l.kind === 'signup' && l.requestId === requestId)?.token;
    },
    async linkState(accountId, token) {
      const { links } = await call<{ links: ({ token: string } & LinkState)[] }>('GET', `${acct(accountId)}/links`);
      const link = links.find((l) => l.token === token);
      return link && { status: link.status, ...(link.decidedAt ? { decidedAt: link.decidedAt } : {}), ...(link.approvalFailure ? { approvalFailure: link.approvalFailure } : {}) };
    },
    async holdPurchase(accountId, hold) {
      return call<{ token: string }>('POST', `${acct(accountId)}/purchase-approvals`, hold);
    },
    async promptSecurityCode(accountId) {
      return call<{ token: string }>('POST', `${acct(accountId)}/cvv-requests`);
    },
    async handOffChallenge(accountId) {
      return call<{ token: string }>('POST', `${acct(accountId)}/challenge-requests`);
    },
    async decideRecipeSubmission(submissionId, decision) {
      await call('POST', `/recipe-submissions/${encodeURIComponent(submissionId)}/decision`, { decision });
    },
    async registerWebhook(accountId, url) {
      const { cardId } = await call<{ cardId: string }>('POST', `${acct(accountId)}/cards`, { number: '5555555555554444', anySite: true, agent: true });
      const hook = `${acct(accountId)}/cards/${encodeURIComponent(cardId)}/webhook`;
      try {
        await call('PUT', hook, { url });
      } catch (e) {
        // A refusal of the endpoint itself (the plan, the address), as the dashboard would show it.
        const { status, reason } = e as { status?: number; reason?: string };
        if (status === 400 || status === 403) return { refused: reason ?? String(status) };
        throw e;
      }
      return { cardId, signingSecret: (await call<{ signingSecret: string }>('GET', hook)).signingSecret };
    },
    async sendTestWebhook(accountId, cardId) {
      await call('POST', `${acct(accountId)}/cards/${encodeURIComponent(cardId)}/webhook/test`);
    },
    async webhookDeliveries(accountId, cardId) {
      const { deliveries } = await call<{ deliveries: { status: string; attempts: { statusCode: number | null; outcome: string; detail: string }[] }[] }>(
        'GET',
        `${acct(accountId)}/cards/${encodeURIComponent(cardId)}/webhook/deliveries`,
      );
      return deliveries.map(
        (d): WebhookDeliveryState => ({
          delivered: d.status === 'delivered',
          attempts: d.attempts.map((a) => ({ statusCode: a.statusCode, failed: a.outcome !== 'delivered', ...(a.outcome === 'connection_failed' ? { connectionFailed: true, detail: a.detail } : {}) })),
        }),
      );
    },
    async clock() {
      return call<ClockState>('GET', '/clock');
    },
    async advanceClock(ms) {
      return call<ClockState>('POST', '/clock/advance', { ms });
    },
  };
  return driver;
}

export default createBackOfficeDriver;
