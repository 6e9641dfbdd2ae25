// Writes conformance/CASES.md from the catalogue, or with --check fails when the committed file is
// stale (a case added, removed or changed without regenerating the listing).
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogue } from '../conformance/runner/conformance.js';
import { CATALOGUE } from '../conformance/cases/index.js';
import { READINGS } from '../conformance/cases/readings.js';
import { casesMarkdown } from '../conformance/runner/report/cases-md.js';
import { ROOT } from './redocly.js';

const target = join(ROOT, 'conformance', 'CASES.md');
const { doc, cases } = loadCatalogue(join(ROOT, 'dist', 'openapi.json'), CATALOGUE);
const fresh = casesMarkdown(cases, doc.version, READINGS);
if (!process.argv.includes('--check')) {
  writeFileSync(target, fresh);
  console.log(`conformance:cases: ${cases.length} cases -> conformance/CASES.md`);
  process.exit(0);
}
if (existsSync(target) && readFileSync(target, 'utf8') === fresh) {
  console.log('check:cases: conformance/CASES.md is up to date');
  process.exit(0);
}
console.error('check:cases: conformance/CASES.md differs from the catalogue; run "npm run conformance:cases" and commit it');
process.exit(1);
