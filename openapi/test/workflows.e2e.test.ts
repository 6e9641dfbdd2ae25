import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { spawnServer, type ServerProcess } from '../../server/test/process.js';
import { ROOT } from './bundle.js';
import { REDOCLY, REDOCLY_ENV, workflowFiles } from '../../scripts/redocly.js';

/**
 * The Arazzo workflows of openapi/workflows/, run with the reference tool for Arazzo (Redocly's
 * respect) against a fresh sandbox with a manual clock and a demo account, read through its
 * data/local.json: the files are valid workflows for any Arazzo runner, not only for the
 * conformance runner's `workflows` command (conformance/test/workflows-command.e2e.test.ts).
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
    // The sandbox's keys are its own and die with it: on this command line they show nobody anything.
    const adminToken = extra[0] === '--admin-token' ? extra[1]! : local.adminToken;
    const base = (JSON.parse(readFileSync(join(dir, 'data', 'local.json'), 'utf8')) as { baseUrl: string }).baseUrl;
    const args = [
      'respect', ...workflowFiles(),
      '--server', `vault=${base}`, '--server', `backOffice=${base}`,
      '--input', `apiKey=${local.keys.agent}`, '--input', 'pageUrl=https://shop.globex.com/cart', '--input', `adminToken=${adminToken}`,
      '--skip', SET_UP, '--json-output', json,
    ];
    const result = await promisify(execFile)(REDOCLY, args, {
      cwd: ROOT,
      env: REDOCLY_ENV,
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

  it('when every workflow runs against a fresh sandbox with a manual clock, then each one passes', async () => {
    expect(declared).toEqual(expect.arrayContaining(['signupApproved', 'signupDenied', 'signupExpires', 'signupFivePending', 'recipeContribution', 'checkoutLookup']));
    const { code, output, log } = await runWorkflows([]);
    const expected = Object.fromEntries(declared.filter((id) => id !== SET_UP).map((id) => [id, 'success']));
    expect(outcomes(log)).toEqual(expected);
    expect(code, output).toBe(0);
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
