import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE_STEP, DOCS_STEP, isFresh } from '../../scripts/build-state.js';
import { ROOT } from './bundle.js';

/** `npm start` (scripts/start.ts) run as a process on this checkout; what it decides to build is in start-build-state.test.ts. */

describe('npm start on a checkout whose bundle and docs are built (as npm test leaves it)', () => {
  it('when started, then it says both are up to date and starts the server without building', async () => {
    if (!isFresh(ROOT, BUNDLE_STEP) || !isFresh(ROOT, DOCS_STEP)) throw new Error('the bundle or the docs are stale; run "npm run docs" first');
    const data = mkdtempSync(join(tmpdir(), 'vault-start-data-'));
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'start.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', VAULT_DATA_DIR: data },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const on = (chunk: Buffer) => {
          out += chunk.toString();
          if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(out)) resolve();
        };
        child.stdout!.on('data', on);
        child.stderr!.on('data', on);
        child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${out}`)));
      });
      expect(out).toContain('start: bundle is up to date; not built again');
      expect(out).toContain('start: docs is up to date; not built again');
      expect(out).not.toMatch(/^(bundle|docs): /m);
      expect(out).toContain('demo account: acct_');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});
