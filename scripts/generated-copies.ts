// Writes one generated text to each package that needs its own copy, or with --check counts the
// committed copies that differ from it; exits with the outcome.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { ROOT } from './redocly.js';

export function writeOrCheck(source: string, targets: string[], fresh: string): never {
  const from = relative(ROOT, source);
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const target of targets) {
    const name = relative(ROOT, target);
    if (!check) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, fresh);
      console.log(`generate: ${from} -> ${name}`);
    } else if ((existsSync(target) ? readFileSync(target, 'utf8') : '') !== fresh) {
      console.error(`check:generated: ${name} differs from a fresh generation of ${from}; run "npm run generate" and commit it`);
      stale++;
    } else {
      console.log(`check:generated: ${name} is up to date`);
    }
  }
  process.exit(stale ? 1 : 0);
}
