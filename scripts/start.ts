// `npm start`: the reference server with its demo account (server/main.ts --demo, arguments passed
// on), after making the bundle and the docs it serves, each only when its inputs changed since it
// was last built (scripts/build-state.ts): a restart with nothing changed starts the server at once.
// `--reset` rebuilds both, as a start from nothing would.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_STEP, type BuildStep, DOCS_STEP, isFresh } from './build-state.js';
import { ROOT } from './redocly.js';

/** Whether `npm start` builds the step: always with `--reset`, otherwise when it is not fresh. */
export function needsBuild(root: string, step: BuildStep, args: readonly string[]): boolean {
  return args.includes('--reset') || !isFresh(root, step);
}

function build(script: string): void {
  // The same Node, with tsx's loader, that runs this script.
  const run = spawnSync(process.execPath, [...process.execArgv, join(ROOT, 'scripts', script)], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // The docs are made from the bundle, so they are judged after it is built.
  for (const [step, script] of [
    [BUNDLE_STEP, 'bundle.ts'],
    [DOCS_STEP, 'docs.ts'],
  ] as const) {
    if (needsBuild(ROOT, step, args)) build(script);
    else console.log(`start: ${step.name} is up to date; not built again`);
  }
  // In this process: the server reads its arguments from process.argv when it loads.
  const server = join(ROOT, 'server', 'main.ts');
  process.argv = [process.argv[0]!, server, '--demo', ...args];
  await import(pathToFileURL(server).href);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
