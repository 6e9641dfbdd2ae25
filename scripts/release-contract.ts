// `npm run release:contract`: records the bundled document (dist/openapi.json) as released in
// openapi/released/, once the version is bumped as openapi/README.md says, and regenerates
// CHANGELOG.md. `-- --replace` re-records the newest version, only for one never published.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recordRelease } from './contract/record.js';
import { today } from './contract/run.js';
import { ROOT } from './redocly.js';

const { values } = parseArgs({
  options: {
    replace: { type: 'boolean', default: false },
    current: { type: 'string', default: join(ROOT, 'dist', 'openapi.json') },
    released: { type: 'string', default: join(ROOT, 'openapi', 'released') },
    changelog: { type: 'string', default: join(ROOT, 'CHANGELOG.md') },
    today: { type: 'string', default: today() },
  },
});

if (!/^\d{4}-\d{2}-\d{2}$/.test(values.today)) {
  console.error(`--today ${values.today} is not a date YYYY-MM-DD`);
  process.exit(2);
}
const run = recordRelease({
  current: resolve(values.current),
  releasedDir: resolve(values.released),
  changelog: resolve(values.changelog),
  today: values.today,
  root: ROOT,
  replace: values.replace,
});
(run.ok ? console.log : console.error)(run.report);
process.exit(run.ok ? 0 : 1);
