// Renders the reference docs of each bundle (bundling first when the bundle is missing or older than
// the document): the API's to dist/docs/index.html, with the code samples the bundle carries, and
// the back office's to dist/docs/fixtures.html. Each is one self-contained file that opens
// offline and makes no request to any other origin; its icon is inline too, and dist/docs/favicon.svg
// is the same icon for the server's /favicon.ico. Beside them: each reference as one Markdown file
// (dist/docs/reference.md, dist/docs/fixtures.md, readable without a browser) and a copy of
// CHANGELOG.md, so that the folder's links to each other work wherever it is published.
//
// The API's page is rendered from a view of its bundle (scripts/docs/view.ts): server URLs filled
// with their defaults (the reference server puts its own origin in place of the default base URL
// when it serves the page, server/http/docs.ts), each error response with its own codes, and the
// error-code reference written into the introduction.
//
// Redoc's copy button sits over the top right corner of a code sample, on its first line, which in
// the TypeScript samples is a long import; a style rule gives the button a row of its own.
//
// Redoc's sidebar footer ("API docs by" and Redocly's logo) loads the logo from Redocly's CDN on
// every page, and neither Redocly CLI 2.77 nor Redoc 3 has an option to turn it off (their docs:
// "Only the Redocly logo in the sidebar loads from the CDN"). So the two logo addresses in the
// inlined bundle are replaced with an empty inline image, and the footer link is hidden by a style
// rule; the build fails if the addresses are still there, and the docs test fails on any request
// that leaves the page.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE_STEP, DOCS_STEP, inputsDigest, isFresh, recordBuilt } from './build-state.js';
import { fixturesMarkdown, referenceMarkdown } from './docs/markdown.js';
import { redocLinks, referenceView, withServersFilled } from './docs/view.js';
import { REDOCLY, REDOCLY_ENV, ROOT } from './redocly.js';

const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'docs');
const FAVICON = join(ROOT, 'scripts', 'docs', 'favicon.svg');

const LOGOS = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
const ATTRIBUTION = 'a[href="https://redocly.com/redoc/"]';
const HIDE_ATTRIBUTION = `<style>${ATTRIBUTION},:has(> ${ATTRIBUTION}){display:none!important}</style>`;
// The copy button's box is a row above the code, at the right, instead of lying over its first line.
const COPY_BUTTON_ROW = '<style>.panel-request-samples .code-block-header{position:static;display:flex;justify-content:flex-end}</style>';
// A code in a table's first column (the error-code tables) stays on one line: Redoc lets code break
// anywhere, which split `bad_request` into three lines in the introduction's narrow column; the
// column is as wide as its longest code, and the text beside it takes the rest.
const WHOLE_CODES = '<style>table.md td:first-child{width:1%}table.md td:first-child>code{white-space:nowrap;word-break:normal;overflow-wrap:normal}</style>';
const ICON = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(readFileSync(FAVICON, 'utf8').trim())}">`;

type Node = Record<string, any>;

// A fresh clone has no bundle: make it, as `npm run bundle` would, rather than fail.
if (!isFresh(ROOT, BUNDLE_STEP)) {
  const bundled = spawnSync(process.execPath, [...process.execArgv, join(ROOT, 'scripts', 'bundle.ts')], { cwd: ROOT, stdio: 'inherit' });
  if (bundled.status !== 0) process.exit(bundled.status ?? 1);
}

const digest = inputsDigest(ROOT, DOCS_STEP);
const api = JSON.parse(readFileSync(join(DIST, 'openapi.json'), 'utf8')) as Node;
const backOffice = JSON.parse(readFileSync(join(DIST, 'back-office.json'), 'utf8')) as Node;
const PAGES: Array<{ page: string; view: Node }> = [
  { page: 'index.html', view: referenceView(api, redocLinks(api)) },
  { page: 'fixtures.html', view: withServersFilled(backOffice) },
];

mkdirSync(OUT, { recursive: true });
copyFileSync(FAVICON, join(OUT, 'favicon.svg'));
copyFileSync(join(ROOT, 'CHANGELOG.md'), join(OUT, 'CHANGELOG.md'));
const sources = mkdtempSync(join(tmpdir(), 'vault-docs-'));
process.on('exit', () => rmSync(sources, { recursive: true, force: true }));
for (const { page, view } of PAGES) {
  const output = join(OUT, page);
  const source = join(sources, page.replace(/\.html$/, '.json'));
  writeFileSync(source, JSON.stringify(view));
  const run = spawnSync(REDOCLY, ['build-docs', source, '--inlineBundle', '--lint-config=error', '--output', output], {
    cwd: ROOT,
    env: REDOCLY_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    process.stderr.write(`${run.stdout}${run.stderr}`);
    console.error(`docs: dist/docs/${page} failed`);
    process.exit(1);
  }
  const html = readFileSync(output, 'utf8').replace(LOGOS, EMPTY_IMAGE).replace('</head>', `${ICON}${HIDE_ATTRIBUTION}${COPY_BUTTON_ROW}${WHOLE_CODES}</head>`);
  if (html.includes('cdn.redoc.ly/redoc/logo') || !html.includes(HIDE_ATTRIBUTION)) {
    console.error(`docs: dist/docs/${page} still loads Redocly's logo from its CDN`);
    process.exit(1);
  }
  if (/\{base_url\}/.test(html)) {
    console.error(`docs: dist/docs/${page} still shows a server URL as {base_url}`);
    process.exit(1);
  }
  writeFileSync(output, html);
  console.log(`docs: ${page.replace(/\.html$/, '')} -> dist/docs/${page}`);
}
writeFileSync(join(OUT, 'reference.md'), referenceMarkdown(api));
console.log('docs: openapi -> dist/docs/reference.md');
writeFileSync(join(OUT, 'fixtures.md'), fixturesMarkdown(backOffice));
console.log('docs: back office -> dist/docs/fixtures.md');
recordBuilt(ROOT, DOCS_STEP, digest);
