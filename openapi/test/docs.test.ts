import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, operations, ROOT } from './bundle.js';

/**
 * The rendered reference docs (`npm run docs`, dist/docs/index.html) open offline in a real
 * browser, show every operation of the bundle and log no error.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DOCS = join(ROOT, 'dist', 'docs', 'index.html');
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

// Redoc's "API docs by Redocly" footer loads its logo from Redocly's CDN on every page and hides
// it when the load fails; that is the one request the docs make beyond the file. It is answered
// here with an empty image so that the console check below catches any other network use.
const REDOC_LOGO = /^https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg$/;
const EMPTY_SVG = '<svg xmlns="http://www.w3.org/2000/svg"/>';

const haveChromium = existsSync(CHROMIUM);
const required = process.env.CI === 'true';
if (!haveChromium && !required) {
  console.warn(
    `\n${'!'.repeat(78)}\n!! SKIPPING the docs test: no Chromium at ${CHROMIUM}.\n` +
      `!! Install it (apt-get install chromium) or set CHROMIUM_PATH; in CI (CI=true) this fails.\n${'!'.repeat(78)}\n`,
  );
}

describe.skipIf(!haveChromium && !required)('the rendered docs (dist/docs/index.html)', () => {
  const doc = loadBundle();
  const problems: string[] = [];
  const offline: string[] = [];
  let browser: Browser | undefined;
  let page: Page;

  beforeAll(async () => {
    if (!haveChromium) throw new Error(`Chromium is required when CI=true and is missing at ${CHROMIUM}`);
    if (!existsSync(DOCS)) throw new Error(`${DOCS} is missing; run "npm run docs" first`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    page = await browser.newPage();
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.route(
      (url) => !['file:', 'data:', 'blob:'].includes(url.protocol),
      (route) => {
        const url = route.request().url();
        if (REDOC_LOGO.test(url)) return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: EMPTY_SVG });
        offline.push(url);
        return route.fulfill({ status: 404, body: '' });
      },
    );
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows every operation of the bundle, on the page of its tag', async () => {
    const url = pathToFileURL(DOCS).href;
    await page.goto(url, { waitUntil: 'load' });
    // Redoc routes by hash when opened from a file: `#/<tag>` and `#/<tag>/<operationid>`.
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
        .then(() => true, () => false);
      const linked = (await page.locator(`a[href="#${route}"]`).count()) > 0;
      if (!shown || !linked) missing.push(`${op.operationId} (${op.method.toUpperCase()} ${op.path}, "${op.operation.summary}")`);
    }
    expect(missing).toEqual([]);
  }, 180_000);

  it('logs no console error or page error, and needs no network', async () => {
    // Some requests start seconds after load (Redoc's telemetry did, until redocly.yaml turned it off).
    await page.waitForTimeout(6_000);
    expect(problems).toEqual([]);
    expect(offline).toEqual([]);
  });
});
