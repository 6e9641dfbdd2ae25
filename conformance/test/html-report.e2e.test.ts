import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlReport } from '../runner/report/html.js';
import { BASE, SECRET_KEY, sampleRun } from './support/sample-run.js';

/**
 * The HTML report (`--html`) as a person opens it: from a file, offline, in Chromium. It loads with
 * no request leaving the page, and shows the counts, a failure with its request and response, a
 * deviation, why cases did not run, and the coverage of operation × status × code.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

let browser: Browser;
let page: Page;
let dir: string;
let html: string;
const requests: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is required at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  dir = mkdtempSync(join(tmpdir(), 'conformance-html-'));
  html = htmlReport(sampleRun());
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  page = await browser.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // Every request is recorded; only the page's own file is let through.
  await page.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    return url === pathToFileURL(file).href ? route.continue() : route.abort();
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the HTML report in a browser', () => {
  it('when opened from a file, then it loads with no request but its own and no error', () => {
    expect(requests).toHaveLength(1);
    expect(problems).toEqual([]);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
  });

  it('when read, then the summary shows every count, the exit status, the judgement and how much of the catalogue ran', async () => {
    const count = (name: string) => page.locator(`[data-count="${name}"] dd`).innerText();
    expect(await count('passed')).toBe('2');
    expect(await count('failed')).toBe('1');
    expect(await count('error')).toBe('1');
    expect(await count('known')).toBe('1');
    expect(await count('not-run')).toBe('7');
    expect(await count('deviation')).toBe('1');
    const summary = await page.locator('#summary').innerText();
    expect(summary).toContain('Exit status 1');
    expect(summary).toContain('by the specification');
    expect(summary).toContain('catalogue: 5 of 12 cases ran');
  });

  it('when a case failed, then its expectation, request, response and replay are shown, with the key masked', async () => {
    const failure = page.locator('article.failure', { hasText: 'getTokenCatalog/auth-key-revoked' });
    await expect.poll(() => failure.count()).toBe(1);
    const text = await failure.innerText();
    expect(text).toContain('401 with code invalid_api_key');
    expect(await failure.locator('pre.request').innerText()).toContain(`GET ${BASE}/v1/tokens\naccept: application/json\nauthorization: Bearer <API key given as key>`);
    expect(await failure.locator('pre.response').innerText()).toContain('"code":"unauthorized"');
    expect(await failure.locator('pre.replay').innerText()).toMatch(/^curl /);
    expect(await page.locator('article.failure', { hasText: 'getSignupRequest/unknown-id-not-found' }).innerText()).toContain('not a verdict on the deployment');
    expect(await page.content()).not.toContain(SECRET_KEY);
  });

  it('when a case deviated, then the deviation is listed apart, with what was expected, received, and its basis', async () => {
    const row = page.locator('#deviations tbody tr');
    expect(await row.count()).toBe(1);
    const text = await row.innerText();
    expect(text).toContain('1 answer in 1 case');
    expect(await row.locator('details .ids').textContent()).toContain('getRecipes/index-without-bodies');
    expect(text).toContain('Cache-Control: max-age=300, public');
    expect(text).toContain("the reference server's choice");
    expect(await page.locator('article.failure', { hasText: 'getRecipes/index-without-bodies' }).count()).toBe(0);
  });

  it('when cases did not run, then they are grouped by kind and cause', async () => {
    const text = await page.locator('#not-run').innerText();
    expect(text).toContain('For a missing capability (1)');
    expect(text).toMatch(/needs the account-holder driver\s+1/);
    expect(text).toContain('By choice (5)');
    expect(text).toMatch(/left out by --only\s+4/);
    expect(text).toContain('Stopped early (1)');
  });

  it('when the coverage is read, then each operation is a row, each status a column, each code a cell marked by its state', async () => {
    const table = page.locator('table.coverage');
    await expect.poll(() => table.isVisible()).toBe(true);
    const headers = await table.locator('thead th').allInnerTexts();
    expect(headers.slice(0, 3)).toEqual(['operation', 'exercised', '200']);
    const tokens = table.locator('tbody tr', { has: page.locator('th code', { hasText: /^getTokenCatalog$/ }) });
    expect(await tokens.locator('.chip.exercised').allInnerTexts()).toEqual(['unauthorized']);
    expect(await tokens.locator('.chip.missed').allInnerTexts()).toContain('invalid_api_key');
    const recipes = table.locator('tbody tr', { has: page.locator('th code', { hasText: /^getRecipes$/ }) });
    expect(await recipes.locator('.chip.exercised').allInnerTexts()).toEqual(['200']);
    expect(await recipes.locator('td.ratio').innerText()).toMatch(/^1\/\d+$/);
    expect(await tokens.locator('.chip.exercised').getAttribute('title')).toBe('exercised by getTokenCatalog/auth-header-missing, getTokenCatalog/auth-key-revoked');
  });
});
