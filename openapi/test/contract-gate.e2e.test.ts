import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintText, ROOT } from '../../scripts/redocly.js';
import { copy, latest, operation, RELEASED, resolve, TODAY } from './released-copy.js';

/**
 * The contract gate as processes: `npm run check:breaking` on a copy of the record, the
 * deprecation lint rule through redocly, and the rendered docs' link to the changelog in Chromium.
 * The gate's rules are in contract-gate.test.ts.
 */

describe('npm run check:breaking, on a copy of the record', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vault-gate-'));
    cpSync(RELEASED, join(dir, 'released'), { recursive: true });
    cpSync(join(ROOT, 'CHANGELOG.md'), join(dir, 'CHANGELOG.md'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const files = () => ({ current: join(dir, 'current.json'), releasedDir: join(dir, 'released'), changelog: join(dir, 'CHANGELOG.md'), out: join(dir, 'diff.json') });
  const writeCurrent = (doc: Record<string, any>) => writeFileSync(join(dir, 'current.json'), JSON.stringify(doc));

  it('when the command runs on a document with a breaking change, then it exits 1 naming it and writes diff.json', () => {
    const doc = copy();
    delete resolve(doc, operation(doc, 'getTokenCatalog').responses['429']).headers['Retry-After'];
    writeCurrent(doc);
    const f = files();
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts', 'check-breaking.ts'), '--current', f.current, '--released', f.releasedDir, '--changelog', f.changelog, '--out', f.out, '--today', TODAY],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toContain('[header-removed] GET /v1/tokens (getTokenCatalog): response 429 header `Retry-After` removed');
    const diff = JSON.parse(readFileSync(f.out, 'utf8'));
    expect(diff).toEqual({
      from: latest,
      to: latest,
      changes: [
        {
          operationId: 'getTokenCatalog',
          method: 'GET',
          path: '/v1/tokens',
          kind: 'header-removed',
          breaking: true,
          audience: 'client',
          message: 'GET /v1/tokens (getTokenCatalog): response 429 header `Retry-After` removed',
          pointer: expect.stringMatching(/^\/components\/headers\/|^\/paths\/~1v1~1tokens\/get\/responses\/429\/headers\/Retry-After$/),
        },
      ],
    });
  });
});

describe('the deprecation lint rule (vault/deprecation-policy)', () => {
  const document = (operation: string) => `openapi: 3.1.0
info: {title: Deprecation fixture, version: 1.0.0, license: {name: Apache 2.0, url: https://www.apache.org/licenses/LICENSE-2.0.html}}
servers: [{url: https://vault.test}]
security: []
tags: [{name: Things, description: Things.}]
paths:
  /v1/things:
    get:
      operationId: getThings
      summary: Read the things
      tags: [Things]
      x-spec-sections: ['4.1']
${operation}
      responses:
        '200':
          description: The things.
          content:
            application/json:
              schema: {type: object}
              examples:
                things: {value: {}}
`;
  const cases: Array<[string, string, string[]]> = [
    ['deprecated with a sunset and a note naming it', "      deprecated: true\n      x-sunset: '2027-06-01'\n      description: 'Deprecated, sunset 2027-06-01: use the other things.'", []],
    ['deprecated without a sunset', "      deprecated: true\n      description: 'Deprecated.'", ['/deprecated']],
    ['deprecated with a sunset that is not a date', "      deprecated: true\n      x-sunset: '2027-02-30'\n      description: 'Deprecated, sunset 2027-02-30.'", ['/x-sunset']],
    ['deprecated without a note naming the sunset', "      deprecated: true\n      x-sunset: '2027-06-01'\n      description: 'Reads the things.'", ['/description']],
    ['a sunset without deprecated', "      x-sunset: '2027-06-01'\n      description: 'Reads the things.'", ['/x-sunset']],
  ];
  it.each(cases)('when an operation is %s, then the rule reports exactly there', (_name, operationText, pointers) => {
    const lint = lintText(document(operationText));
    const found = lint.problems.filter((p) => p.ruleId === 'vault/deprecation-policy').map((p) => p.location[0]!.pointer.replace('#/paths/~1v1~1things/get', ''));
    expect(found).toEqual(pointers);
  });
});

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DOCS = join(ROOT, 'dist', 'docs', 'index.html');
const haveChromium = existsSync(CHROMIUM);
const required = process.env.CI === 'true';
if (!haveChromium && !required) console.warn(`\n!! SKIPPING the changelog link check: no Chromium at ${CHROMIUM} (in CI, CI=true, this fails).\n`);

describe.skipIf(!haveChromium && !required)('the rendered docs (dist/docs/index.html)', () => {
  it('when the docs are opened offline, then they link to CHANGELOG.md and the link opens it', async () => {
    if (!haveChromium) throw new Error(`Chromium is required when CI=true and is missing at ${CHROMIUM}`);
    if (!existsSync(DOCS)) throw new Error(`${DOCS} is missing; run "npm run docs" first`);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      await page.route((url) => !['file:', 'data:', 'blob:'].includes(url.protocol), (route) => route.fulfill({ status: 404, body: '' }));
      await page.goto(pathToFileURL(DOCS).href, { waitUntil: 'load' });
      const link = page.locator('a[href$="CHANGELOG.md"]').first();
      await link.waitFor({ state: 'visible', timeout: 15_000 });
      const href = await link.evaluate((a) => (a as HTMLAnchorElement).href);
      // The copy published beside the page, so the link works wherever the folder is published.
      expect(fileURLToPath(href)).toBe(join(ROOT, 'dist', 'docs', 'CHANGELOG.md'));
      await link.click();
      await page.waitForURL(href);
      expect(await page.locator('body').innerText()).toMatch(/^# Changelog/);
      expect(readFileSync(fileURLToPath(href), 'utf8')).toBe(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
    } finally {
      await browser.close();
    }
  }, 60_000);
});
