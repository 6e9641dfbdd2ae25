// Builds the package into client/dist: ESM and declarations with tsc, then the generated schema
// types, which tsc does not copy (a .d.ts is an input, never an output), so that the package carries
// its own copy and an integrator never copies them by hand.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIENT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(CLIENT, 'dist');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(DIST, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [TSC, '-p', join(CLIENT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (tsc.status !== 0) {
  console.error('client build: tsc failed');
  process.exit(1);
}
mkdirSync(join(DIST, 'generated'), { recursive: true });
copyFileSync(join(CLIENT, 'generated', 'schema.d.ts'), join(DIST, 'generated', 'schema.d.ts'));
// stderr: npm pack --json prints its report on stdout, after this script runs.
console.error('client build: client/dist');
