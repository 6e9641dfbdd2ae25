import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { spawnServer, type ServerProcess } from '../../server/test/process.js';
import { ROOT } from './bundle.js';
import { workflowFiles } from '../../scripts/redocly.js';

/**
 * The Arazzo workflows of openapi/workflows/, run as `npm run workflows` runs them (redocly respect)
 * against a fresh sandbox with a manual clock and a demo account, read through its data/local.json.
 */

interface RespectLog {
  files: Record<string, { executedWorkflows: Array<{ workflowId: string; status: string }> }>;
}

const SET_UP = 'openSignupAccount';
const declared = workflowFiles().flatMap((file) =>
  (parse(readFileSync(join(ROOT, file), 'utf8')) as { workflows: Array<{ workflowId: string }> }).workflows.map((w) => w.workflowId),
);

describe('the Arazzo workflows', () => {
  let dir = '';
  let server: ServerProcess | undefined;
  let local: { adminToken: string; keys: { agent: string } };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vault-workflows-'));
    server = await spawnServer({ VAULT_DATA_DIR: join(dir, 'data'), VAULT_CLOCK: 'manual' }, ['--demo']);
    const file = join(dir, 'data', 'local.json');
    const deadline = Date.now() + 10_000;
    while (!existsSync(file)) {
      if (Date.now() > deadline) throw new Error(`no local.json: ${server.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    local = JSON.parse(readFileSync(file, 'utf8'));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function runWorkflows(extra: string[]): Promise<{ code: number; output: string; log: RespectLog }> {
    const json = join(dir, `respect-${Date.now()}.json`);
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'workflows.ts'), '--json', json, ...extra], {
      cwd: ROOT,
      env: { ...process.env, VAULT_DATA_DIR: join(dir, 'data'), VAULT_API_KEY: '', VAULT_ADMIN_TOKEN: '' },
      encoding: 'utf8',
      timeout: 120_000,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr }),
    );
    if (!existsSync(json)) throw new Error(`no respect log; the run printed:\n${result.output}`);
    const log = JSON.parse(readFileSync(json, 'utf8')) as RespectLog;
    rmSync(json);
    return { ...result, log };
  }

  const outcomes = (log: RespectLog) =>
    Object.fromEntries(Object.values(log.files).flatMap((f) => f.executedWorkflows.map((w) => [w.workflowId, w.status])));

  it('when every workflow runs against a fresh sandbox with a manual clock, then each one passes and no key is printed', async () => {
    expect(declared).toEqual(expect.arrayContaining(['signupApproved', 'signupDenied', 'signupExpires', 'signupFivePending', 'recipeContribution', 'checkoutLookup']));
    const { code, output, log } = await runWorkflows([]);
    const expected = Object.fromEntries(declared.filter((id) => id !== SET_UP).map((id) => [id, 'success']));
    expect(outcomes(log)).toEqual(expected);
    expect(code, output).toBe(0);
    expect(output).not.toContain(local.adminToken);
    expect(output).not.toContain(local.keys.agent);
  }, 180_000);

  it('when the admin token is wrong, then the signup workflows fail and the agent workflows still pass', async () => {
    const { code, log } = await runWorkflows(['--admin-token', 'adm_not_the_token']);
    const seen = outcomes(log);
    expect(code).not.toBe(0);
    for (const id of ['signupApproved', 'signupDenied', 'signupExpires', 'signupFivePending']) expect(seen[id], id).toBe('error');
    expect(seen.checkoutLookup).toBe('success');
    expect(seen.recipeContribution).toBe('success');
  }, 180_000);
});
