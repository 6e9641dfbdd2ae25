import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startReference, type ReferenceServer } from './support/processes.js';
import { startTamperingProxy, type TamperingProxy } from './support/tamper.js';
import { conform } from './support/run.js';

/**
 * Generated inputs are results like the catalogue's: each property a case in the console, JUnit,
 * HTML and JSON, counted in the totals, its failure with the shrunk request and its replay; their
 * progress is printed without a terminal; and a signal stops them within the catalogue's grace.
 */

let server: ReferenceServer;
let proxy: TamperingProxy;
let dir: string;
beforeAll(async () => {
  server = await startReference({ VAULT_CLOCK: 'manual' });
  proxy = await startTamperingProxy(server.base);
  dir = mkdtempSync(join(tmpdir(), 'conformance-generated-'));
});
afterAll(async () => {
  await proxy?.stop();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a generation-only run that finds a fault', () => {
  it('when a filing with a broken email is accepted, then the property fails in every report, counted in the totals, with its replay', async () => {
    // The deployment accepts a filing whose email breaks its rule.
    proxy.fault = {
      response: (p) =>
        p.path === '/v1/logins/requests' && p.status === 400 && p.body.includes('"invalid_email"')
          ? { ...p, status: 202, body: Buffer.from(JSON.stringify({ requestId: 'sreq_planted', status: 'pending', expiresAt: 1767700800000 })) }
          : p,
    };
    const out = { junit: join(dir, 'junit.xml'), json: join(dir, 'results.json'), html: join(dir, 'report.html') };
    const only = ['fileSignupRequest/generated-one-rule-broken', 'getRecipes/generated-*'];
    const run = await conform([
      // By the reference: judging by the specification, what only the document expects of a generated request is a deviation.
      '--base-url', proxy.base, '--admin-token', server.adminToken, '--judge', 'reference', '--generate', '150', '--generate-only', '--seed', '42',
      ...only.flatMap((o) => ['--only', o]), '--junit', out.junit, '--json', out.json, '--html', out.html,
    ]).finally(() => (proxy.fault = {}));
    expect(run.exitCode, run.output).toBe(1);
    expect(run.failed).toEqual(['fileSignupRequest/generated-one-rule-broken']);

    // The console prints the failure once, as a block, with its replay and how to generate it again.
    expect(run.output.match(/fileSignupRequest\/generated-one-rule-broken/g)?.length, run.output).toBeLessThanOrEqual(2);
    expect(run.output).not.toMatch(/^FAIL +fileSignupRequest/m);
    expect(run.output).toMatch(/^FAILED fileSignupRequest\/generated-one-rule-broken: /m);
    expect(run.output).toMatch(/Replay +curl .*\/v1\/logins\/requests/);
    expect(run.output).toContain('the same inputs again: --generate 150 --seed 42');
    expect(run.output).toMatch(/^generated inputs: \d+ of \d+ properties ran/m);
    expect(run.output.trim().split('\n').at(-1)).toBe('exit 1: a case failed (or a case listed as a known deviation passed)');
    expect(run.output).toMatch(/^reports: json .*results\.json, junit .*junit\.xml, html .*report\.html$/m);

    const json = JSON.parse(readFileSync(out.json, 'utf8')) as { totals: { failed: number; passed: number }; cases: { id: string; state: string; generated?: boolean; replay?: string; steps?: string[] }[] };
    const generated = json.cases.filter((c) => c.generated);
    expect(generated.length).toBe(run.results.length);
    expect(json.totals.failed).toBe(1);
    expect(json.totals.passed).toBe(generated.filter((c) => c.state === 'passed').length);
    const failed = json.cases.find((c) => c.state === 'failed')!;
    expect(failed.replay).toMatch(/^curl .*\/v1\/logins\/requests/);
    expect(failed.steps?.join('\n')).toContain('--generate 150 --seed 42');

    const junit = readFileSync(out.junit, 'utf8');
    expect(junit).toMatch(new RegExp(`<testsuites name="vault-conformance" tests="${generated.length}" failures="1" errors="0"`));
    expect(junit).toContain('<testsuite name="vault.generated"');
    expect(junit).toMatch(/<testcase classname="vault\.generated\.fileSignupRequest" name="fileSignupRequest\/generated-one-rule-broken" time="[\d.]+"><failure /);
    expect(junit).toContain('<property name="failure-causes" value="1"/>');

    const html = readFileSync(out.html, 'utf8');
    expect(html).toMatch(/data-count="failed"><dt>failed<\/dt><dd>1<\/dd>/);
    expect(html).toContain('Exit status 1');
    expect(html).toContain('fileSignupRequest/generated-one-rule-broken');
  }, 240_000);
});

describe('a generation stopped by a signal, without a terminal', () => {
  it('when sent SIGTERM while generating, then it stops within the grace, the properties not started are not run, and the reports say interrupted', async () => {
    const json = join(dir, 'stopped.json');
    const startedAt = Date.now();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'conformance', 'bin.ts'), '--base-url', server.base, '--admin-token', server.adminToken, '--generate', '5000', '--generate-only', '--seed', '7', '--json', json],
      { cwd: ROOT, env: { ...process.env, VAULT_DATA_DIR: join(dir, 'no-data') }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Progress comes without a terminal: the opening line, then the counts at a steady rate.
    await new Promise<void>((resolve, reject) => {
      const check = () => (/^generating: \d+ of 5000 requests in \d+ s/m.test(out) ? resolve() : child.exitCode !== null ? reject(new Error(out)) : setTimeout(check, 100));
      check();
    });
    expect(out).toMatch(/^generating 5000 requests for \d+ properties \(at most 600 s\); a line every 15 s$/m);
    const signalled = Date.now();
    child.kill('SIGTERM');
    const code = await exited;
    const took = Date.now() - signalled;
    expect(code, out).toBe(143);
    // The catalogue's grace (5 s), and the time to write the reports.
    expect(took, out).toBeLessThan(9_000);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { interrupted: string; cases: { id: string; state: string; notRunKind?: string }[] };
    expect(report.interrupted).toBe('SIGTERM');
    expect(report.cases.length).toBeGreaterThan(0);
    // Each property either ran part of its share or never started; none went on through its requests.
    for (const c of report.cases) expect(['passed', 'not-run', 'error'], c.id).toContain(c.state);
    const progress = out.split('\n').filter((l) => /^generating: \d+ of/.test(l));
    expect(progress.length, out).toBeLessThanOrEqual(Math.ceil((Date.now() - startedAt) / 15_000) + 1);
  }, 120_000);
});
