// Renders the reference docs of each bundle (npm run bundle first): the API's to
// dist/docs/index.html, with the code samples the bundle carries, and the fixture surface's to
// dist/docs/fixtures.html. Each is one self-contained file that opens offline and makes no request
// to any other origin.
//
// Redoc's sidebar footer ("API docs by" and Redocly's logo) loads the logo from Redocly's CDN on
// every page, and neither Redocly CLI 2.77 nor Redoc 3 has an option to turn it off (their docs:
// "Only the Redocly logo in the sidebar loads from the CDN"). So the two logo addresses in the
// inlined bundle are replaced with an empty inline image, and the footer link is hidden by a style
// rule; the build fails if the addresses are still there, and the docs test fails on any request
// that leaves the page.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REDOCLY, REDOCLY_ENV, ROOT } from './redocly.js';

const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'docs');
const PAGES = [
  { bundle: 'openapi.yaml', page: 'index.html' },
  { bundle: 'fixtures.yaml', page: 'fixtures.html' },
];

const LOGOS = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
const ATTRIBUTION = 'a[href="https://redocly.com/redoc/"]';
const HIDE_ATTRIBUTION = `<style>${ATTRIBUTION},:has(> ${ATTRIBUTION}){display:none!important}</style>`;

mkdirSync(OUT, { recursive: true });
for (const { bundle, page } of PAGES) {
  const output = join(OUT, page);
  const run = spawnSync(REDOCLY, ['build-docs', join(DIST, bundle), '--inlineBundle', '--lint-config=error', '--output', output], {
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
  const html = readFileSync(output, 'utf8').replace(LOGOS, EMPTY_IMAGE).replace('</head>', `${HIDE_ATTRIBUTION}</head>`);
  if (html.includes('cdn.redoc.ly/redoc/logo') || !html.includes(HIDE_ATTRIBUTION)) {
    console.error(`docs: dist/docs/${page} still loads Redocly's logo from its CDN`);
    process.exit(1);
  }
  writeFileSync(output, html);
  console.log(`docs: dist/${bundle} -> dist/docs/${page}`);
}
