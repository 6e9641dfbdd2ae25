// `npm run check:tiers`: every test file of the repository is in exactly one tier, the projects of
// vitest.config.ts (CONTRIBUTING.md, "Test tiers"). A file in none would never run in `npm test`;
// a file in two would run twice. Vitest itself says which files each project takes.
import { execFileSync } from 'node:child_process';
import { relative } from 'node:path';
import { createVitest } from 'vitest/node';
import { ROOT } from './redocly.js';

/** The names vitest gives a test file when nothing says otherwise. */
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => TEST_FILE.test(file));

const vitest = await createVitest('test', { watch: false, config: 'vitest.config.ts', root: ROOT });
const tiers = new Map<string, string[]>(files.map((file) => [file, []]));
try {
  for (const spec of await vitest.globTestSpecifications()) {
    const file = relative(ROOT, spec.moduleId);
    tiers.set(file, [...(tiers.get(file) ?? []), spec.project.name]);
  }
} finally {
  await vitest.close();
}

const wrong = [...tiers].filter(([, names]) => names.length !== 1);
for (const [file, names] of wrong) {
  console.error(names.length === 0 ? `${file}: in no tier: a test file is named *.test.ts, *.e2e.test.ts or *.proof.test.ts, in the test folder of server, client, openapi or conformance (vitest.config.ts)` : `${file}: in ${names.length} tiers (${names.join(', ')})`);
}
if (wrong.length > 0) process.exit(1);
const count = (name: string) => [...tiers.values()].filter(([tier]) => tier === name).length;
console.log(`check:tiers: ${tiers.size} test files, each in one tier (unit ${count('unit')}, e2e ${count('e2e')}, proofs ${count('proofs')})`);
