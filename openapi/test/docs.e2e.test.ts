import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, operations, ROOT, type Node } from './bundle.js';
import { NARROW_COLUMN } from '../../scripts/docs/error-codes.js';
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
const BACK_OFFICE_BUNDLE = join(ROOT, 'dist', 'back-office.json');
/** The base URL the built pages name; a server serving them names its own origin instead. */
const DEFAULT_BASE: string = loadBundle().servers[0].variables.base_url.default;
const DOCUMENT_VERSION: string = loadBundle().info.version;

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

  it('when an operation is opened, then its TypeScript sample is the one shown first, as the bundle carries it', async () => {
    const op = operations(doc).find((o) => o.operationId === 'getTokenCatalog')!;
    const sample = (op.operation['x-codeSamples'] as { label: string; source: string }[]).find((s) => s.label === 'TypeScript')!;
    await w.page.goto(`${pathToFileURL(join(DOCS, 'index.html')).href}#/tokens/gettokencatalog`, { waitUntil: 'load' });
    const chooser = w.page.locator('.panel-request-samples').first().getByRole('button', { name: /^(curl|TypeScript|Payload)$/ });
    expect((await chooser.innerText()).trim()).toBe('TypeScript');
    // In the operation's samples panel: the guides in the introduction call getTokenCatalog too.
    const shown = w.page.locator('.panel-request-samples').first().getByText('await vault.getTokenCatalog', { exact: false }).first();
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
    const doc = JSON.parse(readFileSync(BACK_OFFICE_BUNDLE, 'utf8')) as Node;
    expect(await missingOperations(w.page, pathToFileURL(join(DOCS, 'fixtures.html')).href, doc)).toEqual([]);
    await w.page.waitForTimeout(2_000);
    expect(w.problems).toEqual([]);
    expect(w.elsewhere).toEqual([]);
    await w.page.close();
  }, 180_000);

  it('when the API reference is opened from the checkout, then its sandbox section links to it', async () => {
    const w = await watchedPage(null);
    await w.page.goto(`${pathToFileURL(join(DOCS, 'index.html')).href}`, { waitUntil: 'load' });
    await w.page.getByRole('link', { name: 'the back office', exact: true }).first().click();
    await w.page.waitForURL(pathToFileURL(join(DOCS, 'fixtures.html')).href);
    await w.page.getByText('Credential-vault reference server, back office').first().waitFor();
    expect(w.elsewhere).toEqual([]);
    await w.page.close();
  });
});

describe('the docs served by the reference server', () => {
  it('when /docs is opened, then its links reach the fixture surface reference and the changelog on the same server', async () => {
    const w = await watchedPage(new URL(server.base).origin);
    for (const start of ['/docs', '/docs/']) {
      await w.page.goto(`${server.base}${start}`, { waitUntil: 'load' });
      await w.page.getByRole('link', { name: 'the back office', exact: true }).first().click();
      await w.page.waitForURL(`${server.base}/docs/fixtures.html`);
      await w.page.getByText('Credential-vault reference server, back office').first().waitFor();

      await w.page.goto(`${server.base}${start}`, { waitUntil: 'load' });
      const changelog = w.page.locator('a[href$="CHANGELOG.md"]').first();
      await changelog.waitFor({ state: 'visible', timeout: 15_000 });
      await changelog.click();
      await w.page.waitForURL(`${server.base}/docs/CHANGELOG.md`);
      const notes = await w.page.locator('body').innerText();
      expect(notes).toMatch(/^# Changelog/);
      // Every release, the document's own version among them, with its date.
      const { releases } = JSON.parse(readFileSync(join(ROOT, 'openapi', 'released', 'releases.json'), 'utf8')) as { releases: Array<{ version: string; date: string }> };
      expect(releases.map((r) => r.version)).toContain(DOCUMENT_VERSION);
      for (const { version, date } of releases) expect(notes).toContain(`## ${version} (${date})`);

      await w.page.goto(`${server.base}${start}`, { waitUntil: 'load' });
      await w.page.getByRole('link', { name: 'reference.md', exact: true }).first().click();
      await w.page.waitForURL(`${server.base}/docs/reference.md`);
      const markdown = await w.page.locator('body').innerText();
      expect(markdown).toMatch(/^# Credential-vault HTTP API/);
      expect(markdown).toContain(`export VAULT_API_URL=${server.base}`);
    }
    expect(w.problems).toEqual([]);
    expect(w.elsewhere).toEqual([]);
    await w.page.close();
  }, 60_000);

  it('when /docs/fixtures is opened, then it is the fixture surface reference, naming this server', async () => {
    const res = await fetch(`${server.base}/docs/fixtures`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(readFileSync(join(DOCS, 'fixtures.html'), 'utf8').replaceAll(DEFAULT_BASE, server.base));
  });

  it('when /docs/fixtures.md is read, then it is the back office reference as Markdown, naming this server', async () => {
    const res = await fetch(`${server.base}/docs/fixtures.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text).toMatch(/^# Credential-vault reference server, back office/);
    expect(text).toBe(readFileSync(join(DOCS, 'fixtures.md'), 'utf8').replaceAll(DEFAULT_BASE, server.base));
  });

  it('when /docs is opened, then the servers panel, an operation and its samples name this server, never {base_url}', async () => {
    expect(server.base).not.toBe(DEFAULT_BASE);
    const w = await watchedPage(new URL(server.base).origin);
    await w.page.goto(`${server.base}/docs`, { waitUntil: 'load' });
    await w.page.getByText('Servers', { exact: true }).first().waitFor();
    const top = await w.page.locator('body').innerText();
    expect(top).toContain(server.base);
    expect(top).not.toContain(DEFAULT_BASE);
    expect(top).not.toContain('{base_url}');
    // After navigating to a section, where Redoc used to resolve {base_url} against the page.
    await w.page.goto(`${server.base}/docs#/tokens/gettokencatalog`, { waitUntil: 'load' });
    await w.page.getByText(`// Reads VAULT_API_URL (here ${server.base})`).first().waitFor();
    // The operation's server URL, in the panel's server menu.
    await w.page.getByText(`${server.base}/v1/tokens`).first().waitFor({ state: 'attached' });
    const section = await w.page.content();
    expect(section).not.toContain('{base_url}');
    expect(section).not.toContain(DEFAULT_BASE);
    await w.page.getByRole('button', { name: 'TypeScript' }).first().click();
    await w.page.getByRole('menuitem', { name: 'curl' }).or(w.page.getByText('curl', { exact: true })).first().click();
    await w.page.getByText(`export VAULT_API_URL=${server.base}`).first().waitFor();
    expect(w.problems).toEqual([]);
    expect(w.elsewhere).toEqual([]);
    await w.page.close();
  }, 60_000);

  it('when the Host is not a plain host and port, then the page is served as built, naming nothing from the request', async () => {
    const { port } = new URL(server.base);
    for (const host of ['evil.test"><script>alert(1)</script>', 'a b', 'x.test/path']) {
      const html = await new Promise<string>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/docs/', headers: { host } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve(body));
        });
        req.on('error', reject);
        req.end();
      });
      expect(html).toBe(readFileSync(join(DOCS, 'index.html'), 'utf8'));
    }
  });

  it('when a page of the server is opened, then /favicon.ico is the docs icon and the page asks for no missing file', async () => {
    const res = await fetch(`${server.base}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toBe(readFileSync(join(DOCS, 'favicon.svg'), 'utf8'));
    const w = await watchedPage(new URL(server.base).origin);
    const failed: string[] = [];
    w.page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
    await w.page.goto(`${server.base}/docs`, { waitUntil: 'load' });
    expect(await w.page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    await w.page.goto(`${server.base}/CHANGELOG.md`, { waitUntil: 'load' });
    await w.page.waitForTimeout(1_000);
    expect(failed).toEqual([]);
    expect(w.problems).toEqual([]);
    await w.page.close();
  });
});

/** The text of each page of a rendered reference: its introduction, then the page of each tag. */
async function pageTexts(page: Page, url: string, doc: Node): Promise<Map<string, string>> {
  await page.goto(url, { waitUntil: 'load' });
  await page.getByText(doc.info.title, { exact: false }).first().waitFor();
  const texts = new Map<string, string>([['introduction', await page.locator('body').innerText()]]);
  for (const tag of doc.tags ?? []) {
    const href = await page.getByRole('link', { name: tag.name, exact: true }).first().getAttribute('href');
    await page.goto(`${url}#${href!.replace(/^#/, '')}`, { waitUntil: 'load' });
    const first = operations(doc).find((o) => o.operation.tags?.[0] === tag.name);
    if (first) await page.getByText(first.operation.summary, { exact: true }).first().waitFor();
    texts.set(tag.name, await page.locator('body').innerText());
  }
  return texts;
}

describe('the rendered pages, read as a reader reads them', () => {
  const api = loadBundle();
  const fixtures = () => JSON.parse(readFileSync(BACK_OFFICE_BUNDLE, 'utf8')) as Node;

  it.each([
    ['index.html', () => api],
    ['fixtures.html', fixtures],
  ] as const)('when %s is read, then no table is left as raw Markdown and no field is of type any', async (file, doc) => {
    const w = await watchedPage(null);
    const texts = await pageTexts(w.page, pathToFileURL(join(DOCS, file)).href, doc());
    const problems: string[] = [];
    for (const [where, text] of texts) {
      for (const line of text.split('\n')) {
        // A Markdown table that did not render: its rows stay as text, pipes and all.
        if (/^\s*\|.*\|\s*$/.test(line)) problems.push(`${where}: raw table row "${line.slice(0, 80)}"`);
        // Redoc prints a member's type on a line of its own; `any` is a member without one.
        if (/^\s*any(?: \(.*\))?\s*$/.test(line)) problems.push(`${where}: a field of type any`);
      }
    }
    expect(problems).toEqual([]);
    // The introductions' tables are tables: the fixture surface's errors, the API's error codes.
    await w.page.goto(pathToFileURL(join(DOCS, file)).href, { waitUntil: 'load' });
    expect(await w.page.locator('table').count()).toBeGreaterThan(0);
    await w.page.close();
  }, 120_000);

  it('when the password rule fields are shown, then each shows the JSON type it is read as', async () => {
    const w = await watchedPage(null);
    await w.page.goto(`${pathToFileURL(join(DOCS, 'index.html')).href}#/signup/filesignuprequest`, { waitUntil: 'load' });
    await w.page.getByText('minLength', { exact: true }).first().waitFor();
    const text = await w.page.locator('body').innerText();
    const body = text.slice(text.lastIndexOf('\nFile a signup request for the account holder\n'));
    for (const [field, type] of [['minLength', 'number'], ['maxLength', 'number'], ['noSymbols', 'boolean'], ['symbols', 'string'], ['noRepeats', 'boolean']]) {
      expect(body, field).toMatch(new RegExp(`\\n${field}\\n${type}\\n`));
    }
    await w.page.close();
  });

  it('when the introduction is read, then the quickstart comes first and the error-code index lists every code', async () => {
    const w = await watchedPage(null);
    await w.page.goto(pathToFileURL(join(DOCS, 'index.html')).href, { waitUntil: 'load' });
    // The navigation's links: Redoc routes a section of the introduction as `/section/<heading>`.
    const sections = await w.page.locator('a[href^="/section/"]').evaluateAll((links) => links.map((a) => a.textContent?.trim()));
    expect(sections[0]).toBe('Quickstart');
    expect(sections).toEqual(expect.arrayContaining(['Error codes', 'Client and proxy error codes']));
    // Each section's table, known by a column of its own.
    const rows = async (column: string) => {
      const table = w.page.locator(`table:has(th:text-is("${column}"))`).first();
      await table.waitFor({ state: 'attached' });
      return table.locator('tbody tr td:first-child').allInnerTexts();
    };
    expect(await rows(NARROW_COLUMN)).toEqual(api.components.schemas.ApiErrorCode.enum);
    expect(await rows('Meaning and what to do')).toEqual(api.components.schemas.ClientErrorCode.enum);
    await w.page.close();
  }, 60_000);

  it('when the code tables are read in a 1,400 px wide window, then no code breaks across lines and no table scrolls sideways', async () => {
    const w = await watchedPage(null);
    await w.page.setViewportSize({ width: 1400, height: 900 });
    await w.page.goto(`${pathToFileURL(join(DOCS, 'index.html')).href}#/section/error-codes`, { waitUntil: 'load' });
    for (const column of [NARROW_COLUMN, 'Meaning and what to do']) {
      const table = w.page.locator(`table:has(th:text-is("${column}"))`).first();
      await table.waitFor({ state: 'attached' });
      const measured = await table.evaluate((t) => {
        const lines = (node: Element) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        };
        const cells = [...t.querySelectorAll('tbody tr td:first-child')];
        return {
          codes: cells.length,
          broken: cells.filter((td) => lines(td.querySelector('code') ?? td) > 1).map((td) => td.textContent),
          overflow: t.parentElement!.scrollWidth - t.parentElement!.clientWidth,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
      expect(measured.codes, column).toBeGreaterThan(10);
      expect(measured, column).toMatchObject({ broken: [], overflow: 0, page: 0 });
    }
    expect(w.problems).toEqual([]);
    expect(w.elsewhere).toEqual([]);
    await w.page.close();
  }, 60_000);

  it('when an error response is opened, then it shows only its own codes and links to the error-code index', async () => {
    const w = await watchedPage(null);
    const url = pathToFileURL(join(DOCS, 'index.html')).href;
    await w.page.goto(`${url}#/signup/setloginusername`, { waitUntil: 'load' });
    await w.page.getByRole('button', { name: /^409/ }).first().click();
    const said = w.page.getByText('Codes: username_already_set, idempotency_key_in_use (see Error codes).').first();
    await said.waitFor();
    const text = await w.page.locator('body').innerText();
    const response = text.slice(text.indexOf('The login already has a different username'));
    const body = response.slice(0, response.indexOf('Response\n'));
    expect(body).toContain('"username_already_set"');
    expect(body).toContain('"idempotency_key_in_use"');
    for (const other of ['not_found', 'rate_limited', 'token_not_found']) expect(body).not.toContain(`"${other}"`);
    await said.getByRole('link', { name: 'Error codes' }).click();
    await w.page.waitForURL(/#\/section\/error-codes$/);
    expect(w.elsewhere).toEqual([]);
    await w.page.close();
  }, 60_000);
});

describe('the code samples panel', () => {
  it('when every operation is shown in curl and in TypeScript, then no copy button covers a line of its sample', async () => {
    const doc = loadBundle();
    const w = await watchedPage(null);
    const url = pathToFileURL(join(DOCS, 'index.html')).href;
    await w.page.goto(url, { waitUntil: 'load' });
    const tagRoutes = new Map<string, string>();
    for (const tag of doc.tags ?? []) {
      const href = await w.page.getByRole('link', { name: tag.name, exact: true }).first().getAttribute('href');
      tagRoutes.set(tag.name, href!.replace(/^#/, ''));
    }
    const overlaps: string[] = [];
    // Each sample measured, by language and the panel's method and path.
    const measured = new Set<string>();
    for (const op of operations(doc)) {
      await w.page.goto(`${url}#${tagRoutes.get(op.operation.tags?.[0])}/${op.operationId.toLowerCase()}`, { waitUntil: 'load' });
      await w.page.getByText(op.operation.summary, { exact: true }).first().waitFor();
      for (const language of ['curl', 'TypeScript']) {
        const chooser = w.page.locator('.panel-request-samples').first().getByRole('button', { name: /^(curl|TypeScript|Payload)$/ });
        if ((await chooser.innerText()).trim() !== language) {
          await chooser.click();
          await w.page.getByRole('menuitem', { name: language }).or(w.page.getByText(language, { exact: true })).first().click();
        }
        for (const panel of await w.page.locator('.panel-request-samples').all()) {
          await panel.scrollIntoViewIfNeeded();
          const boxes = await panel.evaluate((el) => {
            const rect = (e: Element) => {
              const r = e.getBoundingClientRect();
              return { x: r.x, y: r.y, w: r.width, h: r.height };
            };
            const button = el.querySelector('.code-block-header [data-testid="copy-button"]');
            const lines = [...el.querySelectorAll('pre .th-line')].filter((l) => (l.textContent ?? '').trim() !== '');
            return {
              request: el.querySelector('[aria-haspopup="menu"]')?.textContent ?? '',
              button: button ? rect(button) : undefined,
              lines: lines.map((l) => ({ text: l.textContent ?? '', ...rect(l) })),
            };
          });
          if (!boxes.button || boxes.lines.length === 0) continue;
          measured.add(`${language} ${boxes.request}`);
          const b = boxes.button;
          expect(b.w * b.h, `${language} ${boxes.request}: the copy button is shown`).toBeGreaterThan(0);
          for (const l of boxes.lines) {
            const apart = l.x + l.w <= b.x || b.x + b.w <= l.x || l.y + l.h <= b.y || b.y + b.h <= l.y;
            if (!apart) overlaps.push(`${language} ${boxes.request}: the copy button covers "${l.text.slice(0, 60)}"`);
          }
        }
      }
    }
    expect(measured.size).toBe(2 * operations(doc).length);
    expect(overlaps).toEqual([]);
    expect(w.problems).toEqual([]);
    await w.page.close();
  }, 240_000);
});
