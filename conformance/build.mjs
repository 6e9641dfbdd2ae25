// Builds the package: bundles the OpenAPI document (the repository's `npm run bundle`), compiles the
// runner with tsc into dist/, and copies the bundled document it checks against beside it (with the
// back office's and the Arazzo workflows, for `vault-conformance workflows`), so the
// package needs neither the repository nor a compiler where it is installed. `npm pack` runs this
// (prepack), so a fresh clone packs with no step before it; the document is bundled every time, so
// the package never ships a stale copy.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

function run(what, args, cwd) {
  const done = spawnSync(process.execPath, args, { cwd, stdio: 'inherit' });
  if (done.status !== 0) {
    console.error(`conformance build: ${what} failed`);
    process.exit(done.status ?? 1);
  }
}

run('bundling the document', ['--import', 'tsx', join(root, 'scripts', 'bundle.ts')], root);
rmSync(join(here, 'dist'), { recursive: true, force: true });
run('compiling the runner', [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.build.json')], here);
mkdirSync(join(here, 'dist'), { recursive: true });
copyFileSync(join(root, 'dist', 'openapi.json'), join(here, 'dist', 'openapi.json'));
// The workflows (`vault-conformance workflows`) and the back office's document their account holder's steps use.
copyFileSync(join(root, 'dist', 'back-office.json'), join(here, 'dist', 'back-office.json'));
mkdirSync(join(here, 'dist', 'workflows'), { recursive: true });
for (const file of readdirSync(join(root, 'openapi', 'workflows')).filter((f) => f.endsWith('.arazzo.yaml'))) {
  copyFileSync(join(root, 'openapi', 'workflows', file), join(here, 'dist', 'workflows', file));
}
chmodSync(join(here, 'dist', 'bin.js'), 0o755);
console.log('conformance build: dist/ (runner, cases, drivers), dist/openapi.json, dist/back-office.json and dist/workflows/');
