import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../server/test/process.js';
import { loadBundle } from './bundle.js';

/**
 * The reference's quickstart (the "Quickstart" section of the document's introduction, the first
 * section of the rendered docs and of reference.md), run as written: its `npm start` block starts
 * server/main.ts the way `npm start` does after building, with a data directory of its own; the
 * other ```sh blocks run in order in one shell, from a folder whose data/ is the server's.
 */

const description = String(loadBundle().info.description);

function quickstart(): string {
  const at = description.search(/^## Quickstart$/m);
  if (at < 0) throw new Error('the introduction has no "## Quickstart"');
  const rest = description.slice(at + 1);
  const next = rest.search(/^## /m);
  return next < 0 ? rest : rest.slice(0, next);
}

const blocks = (text: string) => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd());

describe('the reference quickstart', () => {
  let dir = '';
  let server: ServerProcess | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vault-quickstart-'));
    mkdirSync(join(dir, 'data'), { mode: 0o700 });
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('when it is the first section of the introduction, then it comes before every other', () => {
    expect(description.match(/^## (.+)$/m)?.[1]).toBe('Quickstart');
  });

  it('when run as written, then the signup is filed, approved and polled, and the username is recorded', async () => {
    const [start, ...steps] = blocks(quickstart());
    expect(start).toBe('npm start');
    expect(steps.length).toBeGreaterThanOrEqual(5);
    server = await spawnServer({ VAULT_DATA_DIR: join(dir, 'data') }, ['--demo']);
    const deadline = Date.now() + 10_000;
    while (!server.output().includes('account-holder links are printed below')) {
      if (Date.now() > deadline) throw new Error(`no banner: ${server.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const script = steps.map((step) => `${step}\necho '::step::'\n`).join('');
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    const [settings, filed, approved, label, username] = stdout.split('::step::\n');
    expect(settings).toBe('');
    expect(filed!.trim()).toMatch(/^sreq_/);
    expect(JSON.parse(approved!)).toMatchObject({ status: 'approved', website: 'example.com', email: 'jane@example.com' });
    expect(label!.trim()).toMatch(/^example\d*$/);
    expect(JSON.parse(username!)).toMatchObject({ login: { label: label!.trim(), website: 'example.com', hasUsername: true } });
  }, 60_000);
});
