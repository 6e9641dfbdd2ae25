// Lints every document of redocly.yaml and the Arazzo workflows of openapi/workflows/, and fails on
// any problem, warnings included: `redocly lint` exits 0 on warnings, and a warning left standing
// today is noise nobody reads tomorrow.
import { spawnSync } from 'node:child_process';
import { apis, parseLintReports, REDOCLY, REDOCLY_ENV, ROOT, workflowFiles, type LintReport } from './redocly.js';

function redocly(args: string[], stdio: 'pipe' | 'inherit') {
  return spawnSync(REDOCLY, ['lint', '--lint-config=error', '--max-problems=1000', ...args], {
    cwd: ROOT,
    env: REDOCLY_ENV,
    stdio: stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
  });
}

const names = [...apis().map((api) => api.name), ...workflowFiles()];
const run = redocly(['--format=json', ...names], 'pipe');
let reports: LintReport[] = [];
try {
  reports = parseLintReports(run.stdout ?? '');
} catch {
  reports = [];
}
const problems = reports.reduce((n, r) => n + r.totals.errors + r.totals.warnings, 0);
if (run.status === 0 && reports.length === names.length && problems === 0) {
  const ignored = reports.reduce((n, r) => n + r.totals.ignored, 0);
  console.log(`lint: ${names.join(', ')}: no problems (${ignored} listed in .redocly.lint-ignore.yaml)`);
  process.exit(0);
}
// Failing: run again in the readable format, with code frames, for the person fixing it.
if (reports.length !== names.length) process.stderr.write(run.stderr ?? '');
redocly(['--format=codeframe', ...names], 'inherit');
console.error(`lint: ${problems} problem(s); warnings fail too.`);
process.exit(1);
