import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, operations, ROOT, type Node } from './bundle.js';
import { startServer, type TestServer } from '../../server/test/support.js';

/**
 * The rendered reference docs (`npm run docs`): the API's (dist/docs/index.html) and the fixture
 * surface's (dist/docs/fixtures.html), opened from the checkout and from the reference server's
 * /docs, in a real browser. They show every operation, log no error, and make no request that leaves
 * the page's origin: any such request fails the test (it is aborted, never answered in its place).
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DOCS = join(ROOT, 'dist', 'docs');
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const FIXTURES_BUNDLE = join(ROOT, 'dist', 'fixtures.json');

let browser: Browser;
let server: TestServer;

interface Watched {
  page: Page;
  /** Console and page errors. */
  problems: string[];
  /** Requests that left the page's origin. */
  elsewhere: string[];
}

/** A page whose requests may go to `origin` only (`null`: a file opened from the checkout). */
async function watchedPage(origin: string | null): Promise<Watched> {
  const page = await browser.newPage();
  const problems: string[] = [];
  const elsewhere: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    const local = origin === null ? ['file:', 'data:', 'blob:'].includes(url.protocol) : url.origin === origin || ['data:', 'blob:'].includes(url.protocol);
    if (local) return route.continue();
    elsewhere.push(url.href);
    return route.abort();
  });
  return { page, problems, elsewhere };
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is required at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  for (const file of ['index.html', 'fixtures.html']) {
    if (!existsSync(join(DOCS, file))) throw new Error(`dist/docs/${file} is missing; run "npm run docs" first`);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  server = await startServer();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens every operation of `doc` on the rendered page at `url`; returns those not shown. */
async function missingOperations(page: Page, url: string, doc: Node): Promise<string[]> {
  await page.goto(url, { waitUntil: 'load' });
  // Redoc routes by hash: `#/<tag>` and `#/<tag>/<operationid>`.
  const tagRoutes = new Map<string, string>();
  for (const tag of doc.tags ?? []) {
    const href = await page.getByRole('link', { name: tag.name, exact: true }).first().getAttribute('href');
    expect(href, `sidebar link of tag ${tag.name}`).toBeTruthy();
    tagRoutes.set(tag.name, href!.replace(/^#/, ''));
  }
  const missing: string[] = [];
  for (const op of operations(doc)) {
    const route = `${tagRoutes.get(op.operation.tags?.[0]) ?? ''}/${op.operationId.toLowerCase()}`;
    await page.goto(`${url}#${route}`, { waitUntil: 'load' });
    const shown = await page
      .getByText(op.operation.summary, { exact: true })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 })
      .then(
        () => true,
        () => false,
      );
    const linked = (await page.locator(`a[href="#${route}"]`).count()) > 0;
    if (!shown || !linked) missing.push(`${op.operationId} (${op.method.toUpperCase()} ${op.path}, "${op.operation.summary}")`);
  }
  return missing;
}

describe('the API reference (dist/docs/index.html)', () => {
  const doc = loadBundle();
  let w: Watched;
  beforeAll(async () => {
    w = await watchedPage(null);
  });
  afterAll(() => w.page.close());

  it('when opened from the checkout, then it shows every operation of the bundle on the page of its tag', async () => {
    expect(await missingOperations(w.page, pathToFileURL(join(DOCS, 'index.html')).href, doc)).toEqual([]);
  }, 180_000);

  it('when opened, then Authentication and Sandbox are sections of the navigation', async () => {
    await w.page.goto(pathToFileURL(join(DOCS, 'index.html')).href, { waitUntil: 'load' });
    for (const name of ['Authentication', 'Sandbox']) await w.page.getByRole('link', { name, exact: true }).first().waitFor();
    await w.page.getByRole('link', { name: 'Authentication', exact: true }).first().click();
    await w.page.getByText('Authorization: Bearer <API_KEY>').first().waitFor();
  });

  it('when an operation is opened, then its TypeScript sample is the one the bundle carries', async () => {
    const op = operations(doc).find((o) => o.operationId === 'getTokenCatalog')!;
    const sample = (op.operation['x-codeSamples'] as { label: string; source: string }[]).find((s) => s.label === 'TypeScript')!;
    await w.page.goto(`${pathToFileURL(join(DOCS, 'index.html')).href}#/tokens/gettokencatalog`, { waitUntil: 'load' });
    await w.page.getByRole('button', { name: 'curl' }).first().click();
    await w.page.getByRole('menuitem', { name: 'TypeScript' }).or(w.page.getByText('TypeScript', { exact: true })).first().click();
    const shown = w.page.getByText('await vault.getTokenCatalog', { exact: false }).first();
    await shown.waitFor();
    const block = await shown.evaluate((el) => (el.closest('pre') ?? el.parentElement!).textContent ?? '');
    expect(block.replace(/\s+/g, ' ').trim()).toContain(sample.source.split('\n').find((l) => l.includes('getTokenCatalog'))!.trim());
  });

  it('when a request body mixes required members and shared optional rules, then the required ones are listed first', async () => {
    for (const [operationId, required, optional] of [
      ['fileSignupRequest', 'email', 'minLength'],
      ['rotateLoginPassword', 'label', 'minLength'],
    ] as const) {
      const { summary } = operations(doc).find((o) => o.operationId === operationId)!.operation;
      const route = `signup/${operationId.toLowerCase()}`;
      await w.page.goto(`${pathToFileURL(join(DOCS, 'index.html')).href}#/${route}`, { waitUntil: 'load' });
      await w.page.getByText(optional, { exact: true }).first().waitFor();
      // The page shows the tag's operations one after another: read this one's body.
      const text = await w.page.locator('body').innerText();
      const section = text.slice(text.lastIndexOf(`\n${summary}\n`));
      expect(section.indexOf('\nBody'), route).toBeGreaterThan(0);
      const body = section.slice(section.indexOf('\nBody'));
      expect(body.indexOf(`\n${optional}`), route).toBeGreaterThan(0);
      expect(body.indexOf(`\n${required}`), route).toBeGreaterThan(0);
      expect(body.indexOf(`\n${required}`), route).toBeLessThan(body.indexOf(`\n${optional}`));
    }
  });

  it('when it has been open a while, then it logged no error and made no request that left the page', async () => {
    // Some requests start seconds after load (Redoc's telemetry did, until redocly.yaml turned it off).
    await w.page.waitForTimeout(6_000);
    expect(w.problems).toEqual([]);
    expect(w.elsewhere).toEqual([]);
  });
});

describe('the fixture surface reference (dist/docs/fixtures.html)', () => {
  it('when opened from the checkout, then it shows every fixture operation, with no error and no request that leaves the page', async () => {
    const w = await watchedPage(null);
    const doc = JSON.parse(readFileSync(FIXTURES_BUNDLE, 'utf8')) as Node;
    expect(await missingOperations(w.page, pathToFileURL(join(DOCS, 'fixtures.html')).href, doc)).toEqual([]);
    await w.page.waitForTimeout(2_000);
    expect(w.problems).toEqual([]);
    expect(w.elsewhere).toEqual([]);
    await w.page.close();
  }, 180_000);

  it('when the API reference is opened from the checkout, then its sandbox section links to it', async () => {
    const w = await watchedPage(null);
    await w.page.goto(`${pathToFileURL(join(DOCS, 'index.html')).href}`, { waitUntil: 'load' });
    await w.page.getByRole('link', { name: 'the fixture surface', exact: true }).first().click();
    await w.page.waitForURL(pathToFileURL(join(DOCS, 'fixtures.html')).href);
    await w.page.getByText('Credential-vault reference server, fixture surface').first().waitFor();
    expect(w.elsewhere).toEqual([]);
    await w.page.close();
  });
});

describe('the docs served by the reference server', () => {
  it('when /docs is opened, then its links reach the fixture surface reference and the changelog on the same server', async () => {
    const w = await watchedPage(new URL(server.base).origin);
    for (const start of ['/docs', '/docs/']) {
      await w.page.goto(`${server.base}${start}`, { waitUntil: 'load' });
      await w.page.getByRole('link', { name: 'the fixture surface', exact: true }).first().click();
      await w.page.waitForURL(`${server.base}/docs/fixtures.html`);
      await w.page.getByText('Credential-vault reference server, fixture surface').first().waitFor();

      await w.page.goto(`${server.base}${start}`, { waitUntil: 'load' });
      const changelog = w.page.locator('a[href$="CHANGELOG.md"]').first();
      await changelog.waitFor({ state: 'visible', timeout: 15_000 });
      await changelog.click();
      await w.page.waitForURL(`${server.base}/CHANGELOG.md`);
      expect(await w.page.locator('body').innerText()).toMatch(/^# Changelog/);
    }
    expect(w.problems).toEqual([]);
    expect(w.elsewhere).toEqual([]);
    await w.page.close();
  }, 60_000);

  it('when /docs/fixtures is opened, then it is the fixture surface reference', async () => {
    const res = await fetch(`${server.base}/docs/fixtures`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(readFileSync(join(DOCS, 'fixtures.html'), 'utf8'));
  });
});
