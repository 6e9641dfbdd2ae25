import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startReference, type ReferenceServer } from './support/processes.js';
import { editJson, startTamperingProxy } from './support/tamper.js';
import { conform } from './support/run.js';

/** The command line as QA meet it: exit codes, one-line usage errors, help, listing, reports, known deviations. */

function cli(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'conformance', 'bin.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, VAULT_DATA_DIR: join(tmpdir(), 'no-such-vault-data'), ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('usage and configuration errors exit 2 with one line', () => {
  it('when an option is unknown', () => {
    const r = cli(['--bogus']);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe('vault-conformance: unknown option --bogus (see --help)');
  });

  it('when there is no target', () => {
    const r = cli([]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no --base-url and no data/local.json');
  });

  it('when the base URL is unreachable', () => {
    const r = cli(['--base-url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^vault-conformance: cannot reach http:\/\/127\.0\.0\.1:9: .*ECONNREFUSED/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('when a limit is not a deployment setting', () => {
    const r = cli(['--base-url', 'http://127.0.0.1:9', '--limit', 'catalog-per-key=5']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--limit catalog-per-key: not a deployment setting');
  });

  it('when a report path is a directory, then exit 2 names it before any request is sent', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-out-'));
    // The base URL answers nothing: the report path is refused before the runner tries it.
    const r = cli(['--base-url', 'http://127.0.0.1:9', '--json', dir]);
    rmSync(dir, { recursive: true });
    expect(r.code).toBe(2);
    expect(r.err).toBe(`vault-conformance: --json ${dir}: is a directory; give a file path that can be written\n`);
  });

  it('when a report path lies under a regular file, then exit 2 with one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-out-'));
    writeFileSync(join(dir, 'out'), '');
    const r = cli(['--base-url', 'http://127.0.0.1:9', '--junit', join(dir, 'out', 'junit.xml')]);
    rmSync(dir, { recursive: true });
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toEqual([`vault-conformance: --junit ${join(dir, 'out', 'junit.xml')}: a part of the path is a file, not a folder; give a file path that can be written`]);
  });

  it('when the config file names an unknown option', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-config-'));
    writeFileSync(join(dir, 'qa.yaml'), 'baseUrl: http://127.0.0.1:9\nbogus: 1\n');
    const r = cli(['--config', join(dir, 'qa.yaml')]);
    rmSync(dir, { recursive: true });
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown option "bogus"');
  });
});

describe('help and listing', () => {
  it('when asked for help, then every option is explained, with examples', () => {
    const r = cli(['--help']);
    expect(r.code).toBe(0);
    for (const option of ['--base-url', '--key', '--signup-key', '--other-account-key', '--scoped-key', '--driver', '--clock', '--only', '--section', '--level', '--jobs', '--seed', '--list', '--spend', '--repeat', '--expect-fail', '--junit', '--json', '--coverage', '--html', '--max-failures', '--accept-incomplete', '--config']) {
      expect(r.out).toContain(option);
    }
    expect(r.out).toContain('Examples:');
    expect(r.out).toMatch(/Exit status:\n  0 .*\n  1 .*\n  2 .*\n  3 .*\n  4  incomplete: /);
  });

  it('when listing a section, then each case shows what it needs and costs, and nothing is sent', () => {
    const r = cli(['--list', '--section', '8.1', '--base-url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('getTokenCatalog/per-key-limit-free');
    expect(r.out).toContain('    tags: must, spec, needs-driver, spends\n');
    expect(r.out).toMatch(/costs: spends .*\(runs only with --spend\)/);
    expect(r.out).not.toContain('getRecipes/index-without-bodies');
  });
});

describe('a run against the reference server', () => {
  let server: ReferenceServer;
  let dir: string;
  beforeAll(async () => {
    server = await startReference();
    dir = mkdtempSync(join(tmpdir(), 'conformance-reports-'));
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a key is refused, then exit 2 names the option', () => {
    const r = cli(['--base-url', server.base, '--key', 'vk_not_a_key']);
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe('vault-conformance: the key given with --key is refused (401 invalid_api_key); check it');
  });

  it('when the keys are swapped, then exit 2 names the option, before any case runs or any report is written', () => {
    const json = join(dir, 'swapped.json');
    const only = ['--base-url', server.base, '--only', 'fileSignupRequest/*', '--json', json];
    const signupAsKey = cli([...only, '--key', server.keys.signup]);
    expect(signupAsKey.code, signupAsKey.out + signupAsKey.err).toBe(2);
    expect(signupAsKey.err.trim().split('\n')).toEqual(['vault-conformance: the key given with --key has the signup permission; give a key without it (the cases need its refusals), and this one as --signup-key']);
    const keyAsSignup = cli([...only, '--signup-key', server.keys.agent]);
    expect(keyAsSignup.code, keyAsSignup.out + keyAsSignup.err).toBe(2);
    expect(keyAsSignup.err.trim()).toBe('vault-conformance: the key given with --signup-key lacks the signup permission (403 signup_not_enabled); give a key the account holder granted it');
    // The two keys of the demo account: their catalogs share its tokens.
    const sameAccount = cli([...only, '--key', server.keys.agent, '--other-account-key', server.keys.signup]);
    expect(sameAccount.code, sameAccount.out + sameAccount.err).toBe(2);
    expect(sameAccount.err.trim()).toBe('vault-conformance: the key given with --other-account-key belongs to the account of --key (their catalogs share tokens); give a key of another account');
    for (const r of [signupAsKey, keyAsSignup, sameAccount]) expect(r.out).not.toMatch(/^(PASS|FAIL|ERROR)/m);
    expect(existsSync(json)).toBe(false);
  }, 180_000);

  it('when run with keys only and no driver, then driver cases are not run, never passed, and the run is incomplete', () => {
    const args = ['--base-url', server.base, '--key', server.keys.agent, '--signup-key', server.keys.signup, '--only', 'getTokenCatalog/*', '--skip', '*/slow-request-head-408', '--verbose'];
    const r = cli(args);
    expect(r.code, r.out + r.err).toBe(4);
    expect(r.out).toMatch(/NOT RUN +getTokenCatalog\/url-narrows-to-the-page: needs the account-holder driver/);
    expect(r.out).toMatch(/PASS +getTokenCatalog\/auth-header-missing/);
    expect(r.out).toMatch(/NOT RUN +getTokenCatalog\/per-key-limit-free: spends .*; run with --spend/);
    expect(r.out).toMatch(/^catalogue: \d+ of \d+ cases ran; not run: \d+ for a missing capability \[needs the account-holder driver \(\d+\)\]; \d+ by choice \[left out by --only, --skip \(\d+\), no --spend \(\d+\)\]$/m);
    expect(r.out).toMatch(/^incomplete: \d+ cases could not run for a missing capability; .* --accept-incomplete \(exit 4\)$/m);
    expect(r.out.trim().split('\n').at(-1)).toBe('exit 4: incomplete: cases could not run for a missing capability (accept with --accept-incomplete)');
    const accepted = cli([...args, '--accept-incomplete']);
    expect(accepted.code, accepted.out + accepted.err).toBe(0);
    expect(accepted.out).toMatch(/^incomplete, accepted \(--accept-incomplete\): \d+ cases could not run/m);
    expect(accepted.out.trim().split('\n').at(-1)).toBe('exit 0: every case that ran passed; 12 cases could not run for a missing capability, accepted with --accept-incomplete');
  });

  it('when cases are left out only by the user\'s own choices, then the run exits 0 and says so', () => {
    const r = cli(['--base-url', server.base, '--key', server.keys.agent, '--only', 'getTokenCatalog/auth-header-*', '--only', 'getTokenCatalog/slow-request-head-408', '--level', 'must', '--verbose']);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/NOT RUN +getTokenCatalog\/slow-request-head-408: waits .*; run with --spend/);
    expect(r.out).toMatch(/^catalogue: \d+ of \d+ cases ran; not run: \d+ by choice \[left out by --only, --level must \(\d+\), no --spend \(1\)\]$/m);
    expect(r.out).not.toContain('incomplete');
  });

  it('when reports are asked for, then JUnit, JSON, coverage and HTML are written with secrets masked', () => {
    const junit = join(dir, 'junit.xml');
    const json = join(dir, 'results.json');
    const coverage = join(dir, 'coverage.md');
    // A folder that does not exist yet is made.
    const html = join(dir, 'html', 'deeper', 'report.html');
    const r = cli(['--only', 'getTokenCatalog/auth-*', '--only', 'getRecipes/index-*', '--junit', junit, '--json', json, '--coverage', coverage, '--html', html], { VAULT_DATA_DIR: server.dataDir });
    expect(r.code, r.out + r.err).toBe(0);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="vault-conformance" tests="\d+" failures="0" errors="0" time="[\d.]+">/);
    expect(xml).toMatch(/<testcase classname="vault\.s5\.getTokenCatalog" name="getTokenCatalog\/auth-header-missing"/);
    const results = JSON.parse(readFileSync(json, 'utf8')) as { judgement: string; exitCode: number; totals: Record<string, number>; cases: { id: string; state: string }[]; coverage: { totals: { documented: number } } };
    expect(results.cases.every((c) => c.state === 'passed')).toBe(true);
    expect(results.judgement).toBe('reference');
    expect(results.exitCode).toBe(0);
    const { requirements: _, ...totals } = results.totals;
    expect(totals).toEqual({ passed: results.cases.length, failed: 0, known: 0, 'unexpected-pass': 0, error: 0, 'not-run': 0, 'matched-reference': 0, 'departed-reference': 0, deviations: 0, failureCauses: 0, generated: 0 });
    expect(results.coverage.totals.documented).toBeGreaterThan(50);
    expect(readFileSync(coverage, 'utf8')).toContain('| getTokenCatalog | 401 | invalid_api_key | yes |');
    expect(readFileSync(html, 'utf8')).toContain(`<div class="count passed" data-count="passed"><dt>passed</dt><dd>${results.cases.length}</dd></div>`);
    for (const file of [json, junit, coverage, html]) {
      for (const secret of [server.adminToken, server.keys.agent, server.keys.signup]) expect(readFileSync(file, 'utf8'), file).not.toContain(secret);
    }
  });

  it('when --max-failures is reached, then the cases not started are reported as not run and every report is still written', async () => {
    const proxy = await startTamperingProxy(server.base);
    // The deployment answers every refused key with the wrong code: each authentication case fails.
    proxy.fault = { response: (p) => (p.status === 401 ? editJson(p, (b) => b.code === 'invalid_api_key' && (b.code = 'unauthorized')) : p) };
    const json = join(dir, 'stopped.json');
    const html = join(dir, 'stopped.html');
    try {
      const run = await conform(['--base-url', proxy.base, '--admin-token', server.adminToken, '--only', '*/auth-key-*', '--jobs', '1', '--max-failures', '2', '--json', json, '--html', html]);
      expect(run.exitCode, run.output).toBe(1);
      expect(run.failed).toHaveLength(2);
      const stopped = run.results.filter((r) => r.notRun?.kind === 'stopped');
      expect(stopped.length).toBeGreaterThan(0);
      expect(stopped[0]!.reason).toBe('stopped after 2 failed or errored cases (--max-failures 2)');
      expect(run.output).toMatch(/; \d+ stopped early \[--max-failures 2 \(\d+\)\]$/m);
      const report = JSON.parse(readFileSync(json, 'utf8')) as { catalogue: { notRun: { stopped: number } }; totals: { failed: number } };
      expect(report.catalogue.notRun.stopped).toBe(stopped.length);
      expect(report.totals.failed).toBe(2);
      expect(readFileSync(html, 'utf8')).toContain(`Stopped early (${stopped.length})`);
    } finally {
      await proxy.stop();
    }
  });

  it('when a listed deviation passes, then the run fails and says so; a stale entry is a usage error', () => {
    const known = join(dir, 'known.yaml');
    writeFileSync(known, "'getRecipes/index-without-bodies': the index is served with bodies on this deployment\n");
    const withFault = cli(['--only', 'getRecipes/index-without-bodies', '--expect-fail', known], { VAULT_DATA_DIR: server.dataDir });
    expect(withFault.code, withFault.out).toBe(1);
    expect(withFault.out).toMatch(/UNEXPECTED PASS getRecipes\/index-without-bodies \(listed as known: .*; remove it from the file\)/);
    writeFileSync(known, "'no-such-case/*': stale\n");
    const stale = cli(['--only', 'getRecipes/index-without-bodies', '--expect-fail', known], { VAULT_DATA_DIR: server.dataDir });
    expect(stale.code).toBe(2);
    expect(stale.err).toContain('match no case of the catalogue');
  });
});
