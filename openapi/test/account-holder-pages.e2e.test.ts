import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../server/test/process.js';

/**
 * The sandbox as a team meets it, in headless Chromium: the reference server started as `npm start`
 * starts it (--demo), an agent's request filed with the demo key, the link the server prints opened
 * as the account holder opens it, the decision clicked, and the agent's poll read until it changes.
 * The pages may load nothing from another origin and log no error.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

interface Local {
  accountId: string;
  adminToken: string;
  keys: { agent: string; signup: string };
}

let dir = '';
let server: ServerProcess;
let local: Local;
let browser: Browser;
let page: Page;
const elsewhere: string[] = [];
const problems: string[] = [];

async function until<T>(find: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function api(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The link the server printed for the account holder, by what it asks. */
function printedLink(what: string): Promise<string> {
  return until(() => {
    const line = server
      .output()
      .split('\n')
      .find((l) => l.startsWith(`To the account holder: ${what}: `));
    return line?.slice(`To the account holder: ${what}: `.length);
  }, `the printed link to ${what}`);
}

/** Files a signup request as the agent, with the demo key that has the signup permission. */
async function fileSignup(website: string): Promise<string> {
  const filed = await api('POST', '/v1/logins/requests', local.keys.signup, { website, email: 'jane@example.com' });
  expect(filed.status).toBe(202);
  expect(filed.body.status).toBe('pending');
  return filed.body.requestId;
}

/** Polls as the agent until the request leaves `pending`. */
function pollUntilDecided(requestId: string) {
  return until(async () => {
    const polled = await api('GET', `/v1/logins/requests/${requestId}`, local.keys.signup);
    return polled.body.status === 'pending' ? undefined : polled.body;
  }, `a decision on ${requestId}`);
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is required at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  dir = mkdtempSync(join(tmpdir(), 'vault-pages-'));
  server = await spawnServer({ VAULT_DATA_DIR: dir }, ['--demo']);
  await until(() => (server.output().includes('account-holder links are printed below') ? true : undefined), 'the banner');
  local = JSON.parse(readFileSync(join(dir, 'local.json'), 'utf8')) as Local;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Chromium logs every answer of status 400 and above as "Failed to load resource"; the refusal
// pages are such answers, and each test checks the one it expects by its heading.
const REFUSAL_LOGGED = /^Failed to load resource: the server responded with a status of (400|404)\b/;

async function openPage(): Promise<Page> {
  elsewhere.length = 0;
  problems.length = 0;
  page = await browser.newPage();
  page.on('console', (m) => m.type() === 'error' && !REFUSAL_LOGGED.test(m.text()) && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  const origin = new URL(server.base).origin;
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });
  return page;
}

afterEach(async () => {
  await page?.close();
  expect(elsewhere, 'requests that left the server').toEqual([]);
  expect(problems).toEqual([]);
});

describe('the account holder decides in a browser', () => {
  it('when the agent files a signup and the account holder clicks Approve on the printed link, then the poll turns approved', async () => {
    const requestId = await fileSignup('example.com');
    const link = await printedLink('approve the signup for example.com');
    const p = await openPage();
    await p.goto(link);
    await expect(p.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Approve the signup for example.com?');
    await expect(p.locator('dl').textContent()).resolves.toContain('jane@example.com');
    await p.getByRole('button', { name: 'Approve', exact: true }).click();
    await p.getByRole('heading', { name: 'Signup approved' }).waitFor();
    expect(await p.getByRole('status').textContent()).toContain('The agent\'s next poll carries its tokens.');
    const decided = await pollUntilDecided(requestId);
    expect(decided.status).toBe('approved');
    expect(decided.login.website).toBe('example.com');
  });

  it('when the account holder denies from the keyboard, then the poll turns denied', async () => {
    const requestId = await fileSignup('example.org');
    const p = await openPage();
    await p.goto(await printedLink('approve the signup for example.org'));
    await p.keyboard.press('Tab');
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('Deny');
    await p.keyboard.press('Enter');
    await p.getByRole('heading', { name: 'Signup denied' }).waitFor();
    expect((await pollUntilDecided(requestId)).status).toBe('denied');
    await p.goBack();
    await p.reload();
    await p.getByRole('heading', { name: 'This link no longer works' }).waitFor();
  });

  it('when a purchase requires the declared total, then the page shows what is approved, refuses the page total and approves at the declared total', async () => {
    const held = await api('POST', `/_fixtures/accounts/${local.accountId}/purchase-approvals`, local.adminToken, {
      kind: 'amount_mismatch',
      amount: '$52.40',
      merchant: 'shop.acme.com',
      declaredTotal: '$48.90',
    });
    expect(held.status).toBe(201);
    const link = await printedLink('approve the purchase of $52.40 at shop.acme.com');
    const p = await openPage();
    await p.goto(link);
    await p.getByRole('heading', { name: 'Approve the purchase at shop.acme.com?' }).waitFor();
    const shown = await p.locator('dl').innerText();
    expect(shown).toMatch(/Amount on the page\s+\$52\.40/);
    expect(shown).toMatch(/Declared total\s+\$48\.90/);
    expect(await p.getByRole('button').allTextContents()).toEqual(['Approve at the declared total ($48.90)', 'Deny']);

    // A form approving at the page total, as a stale or hand-made page would post it, is refused.
    await p.evaluate(() => {
      const form = document.querySelector('form')!.cloneNode(true) as HTMLFormElement;
      form.querySelector('input[name="at"]')!.remove();
      document.body.append(form);
      form.submit();
    });
    await p.getByRole('heading', { name: 'The decision was not taken' }).waitFor();
    expect(await p.getByRole('alert').textContent()).toContain('can only be approved at the declared total');
    await p.getByRole('link', { name: 'Back to the request' }).click();

    await p.getByRole('button', { name: 'Approve at the declared total ($48.90)' }).click();
    await p.getByRole('heading', { name: 'Purchase approved' }).waitFor();
    expect(await p.getByRole('status').textContent()).toBe('Approved at the declared total, $48.90, at shop.acme.com.');
    const listed = await api('GET', `/_fixtures/accounts/${local.accountId}/links`, local.adminToken);
    expect((listed.body.links as { token: string; status: string }[]).find((l) => l.token === held.body.token)?.status).toBe('approved');
  });
});
