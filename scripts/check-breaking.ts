// `npm run check:breaking`: compares the bundle (dist/openapi.json) with the last released copy
// (openapi/released/) and fails on a change the versioning and deprecation policy of
// openapi/README.md does not allow. Writes every change to dist/contract/diff.json.
// Options, for trying the gate on other files: --current, --released, --changelog, --out, --today.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runGate, today } from './contract/run.js';
import { ROOT } from './redocly.js';

const { values } = parseArgs({
  options: {
    current: { type: 'string', default: join(ROOT, 'dist', 'openapi.json') },
    released: { type: 'string', default: join(ROOT, 'openapi', 'released') },
    changelog: { type: 'string', default: join(ROOT, 'CHANGELOG.md') },
    out: { type: 'string', default: join(ROOT, 'dist', 'contract', 'diff.json') },
    today: { type: 'string', default: today() },
  },
});

if (!/^\d{4}-\d{2}-\d{2}$/.test(values.today)) {
  console.error(`--today ${values.today} is not a date YYYY-MM-DD`);
  process.exit(2);
}
const run = runGate({
  current: resolve(values.current),
  releasedDir: resolve(values.released),
  changelog: resolve(values.changelog),
  out: resolve(values.out),
  today: values.today,
  root: ROOT,
});
(run.ok ? console.log : console.error)(run.report);
process.exit(run.ok ? 0 : 1);
