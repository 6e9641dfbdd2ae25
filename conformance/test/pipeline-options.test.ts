import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../runner/options.js';
import { resolveSettings } from '../runner/settings.js';
import { KnownDeviations } from '../runner/known-deviations.js';
import { matchesTags, tagsOf } from '../runner/tags.js';
import { networkHint } from '../runner/network-hints.js';
import { exitLine } from '../runner/report/exit-line.js';
import { formatFailure } from '../runner/report/failure.js';
import { tally } from '../runner/report/tally.js';
import { defineCase } from '../runner/case.js';
import { RunnerError, type CaseResult } from '../runner/outcome.js';
import { Secrets } from '../runner/secrets.js';
import { ROOT } from './support/processes.js';

/**
 * What a QA pipeline meets around the cases: durations in seconds, the base URL from the
 * environment, errors that say what to check, tags to select by, known deviations by cause, and an
 * exit line that says what was accepted. What a plain-HTTP request to a TLS port means, with a
 * certificate made by openssl, is in pipeline-options.e2e.test.ts.
 */

const settingsOf = (argv: string[], env: Record<string, string> = {}) => resolveSettings(parseArgs(argv), ROOT, { VAULT_DATA_DIR: join(tmpdir(), 'no-such-vault-data'), ...env });

describe('the options of a pipeline', () => {
  it('when --timeout is given, then it is in seconds, as every duration, with ms for milliseconds, and a count of milliseconds meant as seconds is refused', () => {
    const base = ['--base-url', 'https://vault.example.com'];
    expect(settingsOf(base).timeoutMs).toBe(15_000);
    expect(settingsOf([...base, '--timeout', '30']).timeoutMs).toBe(30_000);
    expect(settingsOf([...base, '--timeout', '2.5']).timeoutMs).toBe(2_500);
    expect(settingsOf([...base, '--timeout', '1500ms']).timeoutMs).toBe(1_500);
    expect(() => settingsOf([...base, '--timeout', '15000'])).toThrow('--timeout is in seconds, as every duration of the runner; 15000 s is over 600 s: give 15 if seconds were meant, or 15000ms');
    expect(() => settingsOf([...base, '--timeout', 'soon'])).toThrow(UsageError);
  });

  it('when VAULT_CONFORMANCE_BASE_URL is set, then it is the base URL, and --base-url wins over it', () => {
    expect(settingsOf([], { VAULT_CONFORMANCE_BASE_URL: 'https://vault.staging.example.com/' }).baseUrl).toBe('https://vault.staging.example.com');
    expect(settingsOf(['--base-url', 'https://other.example.com'], { VAULT_CONFORMANCE_BASE_URL: 'https://vault.staging.example.com' }).baseUrl).toBe('https://other.example.com');
  });

  it('when tags select, then each case has the tags its declarations give, all given must hold, and an unknown tag is refused', () => {
    const c = defineCase({ id: 'fileSignupRequest/x', title: 'X', requirements: ['too-many-pending'], needs: { driver: true }, costs: { spends: 'a pending slot' }, run: async () => undefined });
    expect(tagsOf(c)).toEqual(['must', 'spec', 'needs-driver', 'spends']);
    expect(matchesTags(c, ['must', 'needs-driver'])).toBe(true);
    expect(matchesTags(c, ['!spends'])).toBe(false);
    expect(() => settingsOf(['--base-url', 'https://v.example.com', '--tag', 'slow'])).toThrow(/--tag slow: no such tag; the tags are must, should/);
  });

  it('when a known-deviations entry names a cause, then every failure with that cause is known, whatever its case, and it is never stale', () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-known-'));
    try {
      const file = join(dir, 'known.yaml');
      writeFileSync(file, "'cause: expected 401 invalid_api_key; received 401 *': the gateway answers refused keys itself\n'getRecipes/index-*': cached by the edge\n");
      const known = KnownDeviations.load(file);
      expect(known.reasonFor('getTokenCatalog/auth-key-revoked', { message: 'expected 401 invalid_api_key; received 401 unauthorized' })).toBe('the gateway answers refused keys itself');
      expect(known.reasonFor('getTokenCatalog/auth-key-revoked', { message: 'expected 200; received 500' })).toBeUndefined();
      expect(known.reasonFor('getRecipes/index-without-bodies')).toBe('cached by the edge');
      expect(known.unmatched(['getRecipes/index-without-bodies'])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when missing capabilities were accepted, then the exit line says how many cases that was, not that nothing was missing', () => {
    const notRun = (id: string): CaseResult => ({ id, state: 'not-run', reason: 'needs the account-holder driver', notRun: { kind: 'capability', label: 'needs the account-holder driver' }, attempts: { passed: 0, total: 0 }, durationMs: 0, requests: 0, observed: [], deviations: [], requirements: { held: [], broken: [] } });
    const t = tally([notRun('a/b'), notRun('a/c')], { catalogue: 2, selectedBy: [] });
    expect(exitLine(0, t, true)).toBe('exit 0: every case that ran passed; 2 cases could not run for a missing capability, accepted with --accept-incomplete');
    expect(exitLine(0, tally([], { catalogue: 0, selectedBy: [] }), true)).toBe('exit 0: every case that ran passed, and nothing it needed was missing');
  });

  it('when a case errs on the network after an answered exchange, then the exchange shown is labelled as the earlier one, with what the error means', () => {
    const c = defineCase({ id: 'getRecipes/x', title: 'X', requirements: ['recipes-index'], needs: {}, costs: {}, run: async () => undefined });
    const r: CaseResult = { id: c.id, state: 'error', reason: 'x', error: new RunnerError('network', 'GET /v1/recipes failed: ENOTFOUND'), attempts: { passed: 0, total: 1 }, durationMs: 1, requests: 2, observed: [], deviations: [], requirements: { held: [], broken: [] } };
    const ex = { operationId: 'getRecipes', request: { method: 'GET', url: 'https://vault.exmaple.com/v1/recipes', headers: {} }, response: { status: 200, statusText: 'OK', headers: {}, body: Buffer.from('{}'), text: '{}', json: {}, durationMs: 1 } };
    const text = formatFailure(c, r, { steps: [], lastExchange: ex }, new Secrets());
    expect(text).toContain('the host name vault.exmaple.com does not resolve: check --base-url for a typo');
    expect(text.indexOf('Earlier   the last exchange of the case that got an answer, before the problem above')).toBeLessThan(text.indexOf('Response  200 OK'));
  });

  it('when --help is read, then its driver is an .mjs file, which loads in an npm init -y project', async () => {
    const { OPTIONS } = await import('../runner/options.js');
    expect(OPTIONS.find((o) => o.name === 'timeout')!.value).toBe('S');
    const cli = readFileSync(join(ROOT, 'conformance', 'runner', 'cli.ts'), 'utf8');
    expect(cli).not.toMatch(/driver \.\/qa\/driver\.js\b/);
    expect(readFileSync(join(ROOT, 'conformance', 'README.md'), 'utf8')).not.toMatch(/--driver \S+\.js\b/);
  });
});

describe('what a network error means, at the start of a run', () => {
  it('when the host name has a typo, then the hint names the host that does not resolve', () => {
    expect(networkHint('GET /v1/recipes failed: ENOTFOUND', 'https://vault.stagign.example.invalid')).toBe('the host name vault.stagign.example.invalid does not resolve: check --base-url for a typo');
  });
});
