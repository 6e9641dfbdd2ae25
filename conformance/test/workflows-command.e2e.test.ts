import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startReference, type ReferenceServer } from './support/processes.js';
import { startTamperingProxy, editJson, type TamperingProxy } from './support/tamper.js';
import { validateXML } from 'xmllint-wasm';

/**
 * `vault-conformance workflows`: the Arazzo workflows with the runner's connection and care. Keys
 * come from the environment and never reach the output; what spends waits for --spend; the
 * workflow that moves the clock runs only on a manual clock; a workflow that fails deletes the
 * account it opened; and the report is JUnit.
 */

let manual: ReferenceServer;
let real: ReferenceServer;
let dir: string;
beforeAll(async () => {
  [manual, real] = await Promise.all([startReference({ VAULT_CLOCK: 'manual' }), startReference()]);
  dir = mkdtempSync(join(tmpdir(), 'conformance-workflows-'));
});
afterAll(async () => {
  await Promise.all([manual?.stop(), real?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The command as a child process; asynchronously, so that a proxy in this process can answer it. */
function workflows(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'conformance', 'bin.ts'), 'workflows', ...args], {
      cwd: ROOT,
      env: { ...process.env, VAULT_DATA_DIR: join(dir, 'no-data'), VAULT_CONFORMANCE_KEY: '', VAULT_ADMIN_TOKEN: '', ...env },
      encoding: 'utf8',
      timeout: 180_000,
    }, (_e, stdout, stderr) => resolve({ code: child.exitCode, out: stdout + stderr }));
  });
}

const secretsOf = (s: ReferenceServer) => ({ VAULT_CONFORMANCE_KEY: s.keys.agent, VAULT_ADMIN_TOKEN: s.adminToken });

describe('the workflows against a deployment with a manual clock', () => {
  it('when run with --spend and the keys in the environment, then every workflow passes, no key is printed, and JUnit lists each', async () => {
    const junit = join(dir, 'manual.xml');
    const run = await workflows(['--base-url', manual.base, '--spend', '--junit', junit], secretsOf(manual));
    expect(run.code, run.out).toBe(0);
    for (const id of ['checkoutLookup', 'recipeContribution', 'signupApproved', 'signupDenied', 'signupExpires', 'signupFivePending']) expect(run.out).toMatch(new RegExp(`^PASS +${id} `, 'm'));
    expect(run.out).not.toMatch(/openSignupAccount/);
    expect(run.out).not.toContain(manual.adminToken);
    expect(run.out).not.toContain(manual.keys.agent);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="vault-conformance workflows" tests="6" failures="0" errors="0"/);
    expect(xml).toContain('<testcase classname="vault.workflows.signup" name="signupExpires"');
    const schema = readFileSync(join(import.meta.dirname, 'fixtures', 'junit-10.xsd'), 'utf8');
    const result = await validateXML({ xml: [{ fileName: 'workflows.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: schema }] });
    expect(result.errors).toEqual([]);
  }, 180_000);
});

describe('the workflows against a deployment with a real clock, safe by default', () => {
  it('when run without --spend, then the contribution and the clock-moving workflow are not run, each with why, and the run is incomplete', async () => {
    const run = await workflows(['--base-url', real.base], secretsOf(real));
    expect(run.out).toMatch(/^NOT RUN +recipeContribution: spends a recipe contribution, public and permanent.*; run with --spend$/m);
    expect(run.out).toMatch(/^NOT RUN +signupExpires: moves the clock: needs a deployment with a manual clock \(its clock is real\)$/m);
    expect(run.out).toMatch(/^PASS +signupApproved /m);
    expect(run.code, run.out).toBe(4);
    expect((await workflows(['--base-url', real.base, '--accept-incomplete'], secretsOf(real))).code).toBe(0);
  }, 180_000);

  it('when no admin token is given, then the workflows in which the account holder acts are not run, and the agent\'s run', async () => {
    const run = await workflows(['--base-url', real.base, '--accept-incomplete'], { VAULT_CONFORMANCE_KEY: real.keys.agent });
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/^PASS +checkoutLookup /m);
    expect(run.out).toMatch(/^NOT RUN +signupApproved: the account holder acts through the back office: needs its admin token/m);
  }, 120_000);
});

describe('a workflow that fails half-way', () => {
  let proxy: TamperingProxy;
  beforeAll(async () => {
    proxy = await startTamperingProxy(real.base);
    // The poll never turns approved: signupApproved fails after it opened its account.
    proxy.fault = { response: (p) => (p.method === 'GET' && p.path.startsWith('/v1/logins/requests/') && p.status === 200 ? editJson(p, (b) => b.status === 'approved' && ((b.status = 'pending'), (b.expiresAt = 1767700800000), delete b.login, delete b.passwordPolicy, delete b.passwordOwnerManaged)) : p) };
  });
  afterAll(() => proxy?.stop());

  it('when its step fails, then it fails with the step, the criterion and a replay, its account is deleted, and nothing secret is printed', async () => {
    const junit = join(dir, 'failed.xml');
    const run = await workflows(['--base-url', proxy.base, '--workflow', 'signupApproved', '--junit', junit], secretsOf(real));
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(/^FAILED workflow signupApproved \(signup\.arazzo\.yaml\), step pollApproved$/m);
    expect(run.out).toMatch(/^Expected  \$response\.body#\/status == 'approved'$/m);
    expect(run.out).toMatch(/^Replay    curl /m);
    const deleted = /deleted the account (\S+) the workflow had opened/.exec(run.out);
    expect(deleted, run.out).not.toBeNull();
    // Deleting it again finds nothing: it is gone.
    const res = await fetch(`${real.base}/_fixtures/accounts/${deleted![1]}`, { method: 'DELETE', headers: { authorization: `Bearer ${real.adminToken}` } });
    expect(res.status).toBe(404);
    expect(run.out).not.toContain(real.adminToken);
    expect(run.out).not.toContain(real.keys.agent);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testcase classname="vault\.workflows\.signup" name="signupApproved" time="[\d.]+"><failure /);
  }, 180_000);
});
