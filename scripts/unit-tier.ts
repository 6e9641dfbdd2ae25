import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

/**
 * The unit tier's setup file (vitest.config.ts): a test there runs in the test worker alone, so
 * anything that would start a process (a server, a CLI, Chromium, openssl, npm pack) throws,
 * naming the convention that moves the test to the tier that starts processes. Without it, a
 * misplaced test would only show as a slower inner loop.
 */

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

for (const name of STARTERS) {
  (childProcess as unknown as Record<string, unknown>)[name] = () => {
    throw new Error(
      `child_process.${name}: the unit tier runs in process only. A test that starts a process or a browser belongs in a file named *.e2e.test.ts (see CONTRIBUTING.md, "Test tiers").`,
    );
  };
}
// Named imports of node:child_process (`import { spawn } from ...`) see the change too.
syncBuiltinESMExports();
