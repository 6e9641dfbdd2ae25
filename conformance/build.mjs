// Builds the package: compiles the runner with tsc into dist/, and copies the bundled document it
// checks against (the repository's dist/openapi.json, from `npm run bundle`) beside it, so the
// package needs neither the repository nor a compiler where it is installed.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, '..', 'dist', 'openapi.json');
if (!existsSync(bundle)) {
  console.error('conformance build: ../dist/openapi.json is missing; run "npm run bundle" at the repository root first');
  process.exit(1);
}
rmSync(join(here, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
mkdirSync(join(here, 'dist'), { recursive: true });
copyFileSync(bundle, join(here, 'dist', 'openapi.json'));
chmodSync(join(here, 'dist', 'bin.js'), 0o755);
console.log('conformance build: dist/ (runner, cases, drivers) and dist/openapi.json');
