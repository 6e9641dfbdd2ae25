// Builds the package into client/dist: ESM and its declarations with tsc (dist/), then the same
// sources as CommonJS with theirs (dist/cjs/, marked "type": "commonjs" so that Node and TypeScript
// read its .js and .d.ts files as CommonJS), then the generated schema types into both, which tsc
// does not copy (a .d.ts is an input, never an output), so that the package carries its own copy and
// an integrator never copies them by hand. package.json's `exports` picks one by `import`/`require`.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIENT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(CLIENT, 'dist');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(DIST, { recursive: true, force: true });
for (const config of ['tsconfig.build.json', 'tsconfig.cjs.json']) {
  const tsc = spawnSync(process.execPath, [TSC, '-p', join(CLIENT, config)], { stdio: 'inherit' });
  if (tsc.status !== 0) {
    console.error(`client build: tsc -p ${config} failed`);
    process.exit(1);
  }
}
writeFileSync(join(DIST, 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
for (const out of [DIST, join(DIST, 'cjs')]) {
  mkdirSync(join(out, 'generated'), { recursive: true });
  copyFileSync(join(CLIENT, 'generated', 'schema.d.ts'), join(out, 'generated', 'schema.d.ts'));
}
// stderr: npm pack --json prints its report on stdout, after this script runs.
console.error('client build: client/dist (ESM) and client/dist/cjs (CommonJS)');
