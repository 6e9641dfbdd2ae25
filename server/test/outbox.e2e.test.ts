import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './process.js';

/**
 * The demo outbox: with --demo (npm start) each new account-holder link of the demo account is
 * printed to the console, as it would be sent to the account holder; it never reaches the request log, and without --demo
 * nothing is printed at all, since a link's token is a credential. Real server processes, their
 * whole output read.
 */

const OUTBOX = /^To the account holder: (.+): (http:\/\/\S+)$/;

async function until<T>(find: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function call(base: string, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The JSON request log and the other lines of a server's output. */
function split(output: string): { log: string[]; other: string[] } {
  const lines = output.split('\n').filter((l) => l !== '');
  return { log: lines.filter((l) => l.startsWith('{')), other: lines.filter((l) => !l.startsWith('{')) };
}

describe('the demo outbox', () => {
  let dir = '';
  let server: ServerProcess;
  let local: { accountId: string; adminToken: string; keys: { signup: string } };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vault-outbox-'));
    server = await spawnServer({ VAULT_DATA_DIR: dir }, ['--demo']);
    await until(() => (server.output().includes('account-holder links are printed below') ? true : undefined), 'the banner');
    local = JSON.parse(readFileSync(join(dir, 'local.json'), 'utf8'));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('when the banner is read, then it names the plan, the sites of the demo cards and logins, and a page for each recipe slot that fills it', async () => {
    const banner = server.output();
    expect(banner).toContain('  demo plan: Plus');
    expect(banner).toContain('  demo cards: any site; acme.com only (agent card)');
    expect(banner).toContain('  demo logins: acme (acme.com, shop.acme.co.uk); acme2 (acme.co.uk); github (github.com, with TOTP)');
    const pages = [...banner.matchAll(/^ {4}([a-zA-Z, ]+): (https:\/\/\S+)$/gm)].map((m) => ({ slots: m[1]!.split(', '), url: m[2]! }));
    expect(pages.flatMap((p) => p.slots).sort()).toEqual(['merchant', 'platform', 'signup', 'signupPlatform']);
    for (const { slots, url } of pages) {
      const lookup = (await (await fetch(`${server.base}/v1/recipes?url=${encodeURIComponent(url)}`)).json()) as Record<string, unknown>;
      for (const slot of slots) expect(lookup[slot], `${slot} of ${url}`).not.toBeNull();
    }
  });

  it('when an agent files a signup request, then the link is printed as sent to the account holder, and it is the link of that request', async () => {
    const filed = await call(server.base, 'POST', '/v1/logins/requests', local.keys.signup, { website: 'example.com', email: 'jane@example.com' });
    expect(filed.status).toBe(202);
    const [what, url] = await until(() => {
      const line = split(server.output()).other.map((l) => OUTBOX.exec(l)).find((m) => m?.[1] === 'approve the signup for example.com');
      return line ? [line[1]!, line[2]!] : undefined;
    }, 'the outbox line');
    expect(what).toBe('approve the signup for example.com');
    expect(url.startsWith(`${server.base}/v1/signup-requests/lnk_`)).toBe(true);
    const listed = await call(server.base, 'GET', `/_fixtures/accounts/${local.accountId}/links`, local.adminToken);
    const link = (listed.body.links as { token: string; requestId?: string }[]).find((l) => l.requestId === filed.body.requestId)!;
    expect(url).toBe(`${server.base}/v1/signup-requests/${link.token}`);
    const page = await fetch(url);
    expect(((await page.json()) as { website: string }).website).toBe('example.com');
  });

  it('when a purchase is held, then its amount and merchant are in the line', async () => {
    const created = await call(server.base, 'POST', `/_fixtures/accounts/${local.accountId}/purchase-approvals`, local.adminToken, {
      kind: 'amount_mismatch',
      amount: '$52.40',
      merchant: 'shop.acme.com',
      declaredTotal: '$48.90',
    });
    expect(created.status).toBe(201);
    const line = await until(
      () => split(server.output()).other.find((l) => l.endsWith(`/v1/approvals/${created.body.token}`)),
      'the purchase line',
    );
    expect(line).toBe(`To the account holder: approve the purchase of $52.40 at shop.acme.com: ${server.base}/v1/approvals/${created.body.token}`);
  });

  it("when another account's links are created, then none is printed: it is not the demo account holder's", async () => {
    const account = await call(server.base, 'POST', '/_fixtures/accounts', local.adminToken, { plan: 'Free' });
    const key = await call(server.base, 'POST', `/_fixtures/accounts/${account.body.accountId}/keys`, local.adminToken, { name: 'k', signup: true });
    const filed = await call(server.base, 'POST', '/v1/logins/requests', key.body.key, { website: 'example.org', email: 'joe@example.org' });
    expect(filed.status).toBe(202);
    const held = await call(server.base, 'POST', `/_fixtures/accounts/${account.body.accountId}/purchase-approvals`, local.adminToken, { amount: '$1.00' });
    expect(held.status).toBe(201);
    // The demo account's next link is printed; by then the other account's would have been too.
    const demoHeld = await call(server.base, 'POST', `/_fixtures/accounts/${local.accountId}/purchase-approvals`, local.adminToken, { amount: '$2.00' });
    await until(() => (server.output().includes(`/v1/approvals/${demoHeld.body.token}`) ? true : undefined), "the demo account's line");
    const listed = await call(server.base, 'GET', `/_fixtures/accounts/${account.body.accountId}/links`, local.adminToken);
    const tokens = (listed.body.links as { token: string }[]).map((l) => l.token);
    expect(tokens).toHaveLength(2);
    for (const token of tokens) expect(server.output()).not.toContain(token);
    expect(server.output()).not.toContain('approve the signup for example.org');
  });

  it('when a filing is pre-approved or refused, then nothing is printed for it: only a request that waits on the account holder has a link', async () => {
    const admin = (method: string, path: string, body?: unknown) => call(server.base, method, `/_fixtures/accounts/${local.accountId}${path}`, local.adminToken, body);
    expect((await admin('POST', '/signup-preapprovals', { sites: 'preapproved.example', email: 'jane@example.com' })).status).toBe(200);
    const preapproved = await call(server.base, 'POST', '/v1/logins/requests', local.keys.signup, { website: 'preapproved.example', email: 'jane@example.com' });
    expect(preapproved.body.status).toBe('approved');
    const waiting: string[] = [];
    let refused: string | undefined;
    for (let i = 0; refused === undefined && i < 20; i++) {
      const website = `waiting-${i}.example`;
      const filed = await call(server.base, 'POST', '/v1/logins/requests', local.keys.signup, { website, email: 'jane@example.com' });
      if (filed.status === 202) waiting.push(website);
      else if (filed.body.code === 'too_many_pending') refused = website;
      else throw new Error(`filing ${website}: ${filed.status} ${JSON.stringify(filed.body)}`);
    }
    expect(refused, 'a filing refused at the pending ceiling').toBeDefined();
    expect(waiting.length).toBeGreaterThan(0);
    // Lines are printed in issue order: once the fence's is out, every earlier one would be.
    const fence = await admin('POST', '/purchase-approvals', { amount: '$3.00' });
    await until(() => (server.output().includes(`/v1/approvals/${fence.body.token}`) ? true : undefined), 'the fence line');
    for (const website of waiting) expect(server.output()).toContain(`To the account holder: approve the signup for ${website}: `);
    expect(server.output()).not.toContain('approve the signup for preapproved.example');
    expect(server.output()).not.toContain(`approve the signup for ${refused}`);
  });

  it('when the request log is read, then no line of it holds a link token', async () => {
    const tokens = split(server.output())
      .other.map((l) => OUTBOX.exec(l)?.[2]?.split('/').pop())
      .filter((t): t is string => t !== undefined);
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    const log = split(server.output()).log;
    expect(log.some((l) => JSON.parse(l).operation === 'fileSignupRequest')).toBe(true);
    for (const token of tokens) expect(log.filter((l) => l.includes(token))).toEqual([]);
  });
});

describe('a server started without --demo', () => {
  let dir = '';
  let server: ServerProcess;
  const admin = 'adm_outbox_test_without_demo';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vault-no-outbox-'));
    server = await spawnServer({ VAULT_DATA_DIR: dir, VAULT_ADMIN_TOKEN: admin });
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('when links are created, then none is printed and no token appears anywhere in the output', async () => {
    const account = await call(server.base, 'POST', '/_fixtures/accounts', admin, { plan: 'Free' });
    const key = await call(server.base, 'POST', `/_fixtures/accounts/${account.body.accountId}/keys`, admin, { name: 'k', signup: true });
    const filed = await call(server.base, 'POST', '/v1/logins/requests', key.body.key, { website: 'example.com', email: 'jane@example.com' });
    expect(filed.status).toBe(202);
    const held = await call(server.base, 'POST', `/_fixtures/accounts/${account.body.accountId}/purchase-approvals`, admin, { amount: '$1.00' });
    const listed = await call(server.base, 'GET', `/_fixtures/accounts/${account.body.accountId}/links`, admin);
    // The answers are logged: wait for the last one, then nothing else may have been printed.
    await until(() => (server.output().includes('"operation":"listAccountHolderLinks"') ? true : undefined), 'the request log');
    const tokens = (listed.body.links as { token: string }[]).map((l) => l.token);
    expect(tokens).toContain(held.body.token);
    expect(server.output()).not.toContain('To the account holder');
    for (const token of tokens) expect(server.output()).not.toContain(token);
  });
});
