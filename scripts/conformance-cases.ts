// Writes conformance/CASES.md and conformance/REQUIREMENTS.md from the catalogues, or with --check
// fails when a committed file is stale; either way it refuses a requirements catalogue that breaks
// its rules or a document mark that names no requirement.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalogue } from '../conformance/runner/conformance.js';
import { CATALOGUE } from '../conformance/cases/index.js';
import { READINGS } from '../conformance/cases/readings.js';
import { casesMarkdown } from '../conformance/runner/report/cases-md.js';
import { requirementsMarkdown, testedBy, testsOf } from '../conformance/runner/report/requirements-md.js';
import { documentMarks, lintRequirements, unknownRequirements } from '../conformance/requirements/lint.js';
import { ROOT } from './redocly.js';

const { doc, cases } = loadCatalogue(join(ROOT, 'dist', 'openapi.json'), CATALOGUE);
const tests = testsOf(cases, doc.doc);
const problems = [...unknownRequirements(documentMarks(doc.doc)), ...lintRequirements((id) => testedBy(tests(id)))];
if (problems.length > 0) {
  console.error(`the requirements catalogue breaks its rules:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
const files = [
  { target: join(ROOT, 'conformance', 'CASES.md'), fresh: casesMarkdown(cases, doc.version, READINGS) },
  { target: join(ROOT, 'conformance', 'REQUIREMENTS.md'), fresh: requirementsMarkdown(cases, doc.doc) },
];
if (!process.argv.includes('--check')) {
  for (const f of files) writeFileSync(f.target, f.fresh);
  console.log(`conformance:cases: ${cases.length} cases -> conformance/CASES.md; the requirements -> conformance/REQUIREMENTS.md`);
  process.exit(0);
}
const stale = files.filter((f) => !existsSync(f.target) || readFileSync(f.target, 'utf8') !== f.fresh);
if (stale.length === 0) {
  console.log('check:cases: conformance/CASES.md and REQUIREMENTS.md are up to date');
  process.exit(0);
}
console.error(`check:cases: ${stale.map((f) => f.target.replace(`${ROOT}/`, '')).join(' and ')} differ from the catalogues; run "npm run conformance:cases" and commit them`);
process.exit(1);
