// Renders the reference docs of each bundle (npm run bundle first): the API's to
// dist/docs/index.html, with the code samples the bundle carries, and the fixture surface's to
// dist/docs/fixtures.html. Each is one self-contained file that opens offline and makes no request
// to any other origin; its icon is inline too, and dist/docs/favicon.svg is the same icon for the
// server's /favicon.ico.
//
// Redoc shows a server URL made of variables (`{base_url}`) as written, and resolves it against the
// page after navigation (`.../docs/{base_url}`). So each page is rendered from a copy of its bundle
// whose server URLs have their variables filled with the defaults: the reference server then puts
// its own origin in place of the default base URL when it serves the page (server/http/docs.ts).
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
import { expandServerUrl } from './code-samples.js';
import { REDOCLY, REDOCLY_ENV, ROOT } from './redocly.js';

const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'docs');
const PAGES = [
  { bundle: 'openapi.json', page: 'index.html' },
  { bundle: 'fixtures.json', page: 'fixtures.html' },
];
const FAVICON = join(ROOT, 'scripts', 'docs', 'favicon.svg');

const LOGOS = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
const ATTRIBUTION = 'a[href="https://redocly.com/redoc/"]';
const HIDE_ATTRIBUTION = `<style>${ATTRIBUTION},:has(> ${ATTRIBUTION}){display:none!important}</style>`;
// The copy button's box is a row above the code, at the right, instead of lying over its first line.
const COPY_BUTTON_ROW = '<style>.panel-request-samples .code-block-header{position:static;display:flex;justify-content:flex-end}</style>';
const ICON = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(readFileSync(FAVICON, 'utf8').trim())}">`;

type Node = Record<string, any>;

/** Every server URL of the document (root, path and operation) with its variables filled with their defaults. */
function withServersFilled(doc: Node): Node {
  const fill = (servers: Node[] | undefined) => servers?.map((server) => ({ url: expandServerUrl(server), ...(server.description ? { description: server.description } : {}) }));
  const copy = structuredClone(doc);
  copy.servers = fill(copy.servers);
  for (const item of Object.values<Node>(copy.paths ?? {})) {
    if (item.servers) item.servers = fill(item.servers);
    for (const op of Object.values<Node>(item)) if (op && typeof op === 'object' && !Array.isArray(op) && op.servers) op.servers = fill(op.servers);
  }
  return copy;
}

mkdirSync(OUT, { recursive: true });
copyFileSync(FAVICON, join(OUT, 'favicon.svg'));
const sources = mkdtempSync(join(tmpdir(), 'vault-docs-'));
process.on('exit', () => rmSync(sources, { recursive: true, force: true }));
for (const { bundle, page } of PAGES) {
  const output = join(OUT, page);
  const source = join(sources, bundle);
  writeFileSync(source, JSON.stringify(withServersFilled(JSON.parse(readFileSync(join(DIST, bundle), 'utf8')))));
  const run = spawnSync(REDOCLY, ['build-docs', source, '--inlineBundle', '--lint-config=error', '--output', output], {
    cwd: ROOT,
    env: REDOCLY_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    process.stderr.write(`${run.stdout}${run.stderr}`);
    console.error(`docs: dist/${bundle} failed (run "npm run bundle" first)`);
    process.exit(1);
  }
  const html = readFileSync(output, 'utf8').replace(LOGOS, EMPTY_IMAGE).replace('</head>', `${ICON}${HIDE_ATTRIBUTION}${COPY_BUTTON_ROW}</head>`);
  if (html.includes('cdn.redoc.ly/redoc/logo') || !html.includes(HIDE_ATTRIBUTION)) {
    console.error(`docs: dist/docs/${page} still loads Redocly's logo from its CDN`);
    process.exit(1);
  }
  if (/\{base_url\}/.test(html)) {
    console.error(`docs: dist/docs/${page} still shows a server URL as {base_url}`);
    process.exit(1);
  }
  writeFileSync(output, html);
  console.log(`docs: dist/${bundle} -> dist/docs/${page}`);
}
