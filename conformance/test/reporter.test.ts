import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkReportPaths } from '../runner/report/paths.js';
import { UsageError } from '../runner/options.js';
import { whyNotRun } from '../runner/run.js';
import type { RunEnvironment } from '../runner/context.js';
import type { Case } from '../runner/case.js';
import { spec } from '../runner/basis.js';

import { validateXML } from 'xmllint-wasm';
import { jsonReport } from '../runner/report/json.js';
import { junitXml } from '../runner/report/junit.js';
import { coverageMarkdown } from '../runner/report/coverage.js';
import { ranLine, tally } from '../runner/report/tally.js';
import { BASE, SECRET_KEY, sampleRun } from './support/sample-run.js';
import { ConsoleReporter, type Verbosity } from '../runner/report/console.js';
import { defineCase } from '../runner/case.js';
import { Secrets } from '../runner/secrets.js';
import { CaseFailure, type CaseResult } from '../runner/outcome.js';

/**
 * The reports of a run: the console's (a live progress line on a terminal, plain lines without
 * one, a summary by section), JSON, JUnit (valid against the schema Jenkins reads) and coverage.
 * Each names the judgement, lists deviations apart from failures and masks the run's keys.
 */

const cases = [
  defineCase({ id: 'getTokenCatalog/a', title: 'A', requirements: ['tokens-answer-200'], needs: {}, costs: {}, run: async () => undefined }),
  defineCase({ id: 'getRecipes/b', title: 'B', requirements: ['recipes-index'], needs: {}, costs: {}, run: async () => undefined }),
  defineCase({ id: 'getRecipes/c', title: 'C', requirements: ['recipe-budget'], needs: {}, costs: {}, run: async () => undefined }),
];
const base = { attempts: { passed: 1, total: 1 }, durationMs: 3, requests: 1, observed: [], deviations: [], requirements: { held: [], broken: [] } };
const results: CaseResult[] = [
  { id: 'getTokenCatalog/a', state: 'passed', ...base },
  { id: 'getRecipes/b', state: 'failed', failure: new CaseFailure('status 200', '500 internal_error', spec('recipes-no-errors-of-their-own')), ...base },
  { id: 'getRecipes/c', state: 'not-run', reason: 'needs a manual clock', notRun: { kind: 'capability', label: 'needs a manual clock' }, ...base },
];

function report(isTTY: boolean, verbosity: Verbosity = 'normal'): string {
  let text = '';
  const reporter = new ConsoleReporter({ write: (t) => void (text += t), isTTY }, results.length, new Map(cases.map((c) => [c.id, c])), new Secrets(), verbosity);
  for (const r of results) reporter.result(r, { steps: [] });
  return text + reporter.summary(results, { tally: tally(results, { catalogue: 5, selectedBy: ['--only'] }), judgement: 'spec', acceptIncomplete: false });
}

describe('the console report', () => {
  it('when on a terminal, then one progress line is rewritten and failures print above it', () => {
    const text = report(true);
    expect(text).toContain('\r\x1b[K[3/3] 1 passed, 1 failed, 0 errors, 1 not run');
    expect(text).toContain('FAILED getRecipes/b: B');
    expect(text).not.toMatch(/^PASS/m);
  });

  it('when not on a terminal, then a plain line per case', () => {
    const text = report(false);
    expect(text).not.toContain('\x1b[');
    expect(text).toMatch(/^PASS +getTokenCatalog\/a$/m);
    // A failure is printed once, as its block, never also as a line.
    expect(text).not.toMatch(/^FAIL +getRecipes\/b$/m);
    expect(text.match(/^FAILED getRecipes\/b: B$/gm)).toHaveLength(1);
    expect(text).not.toMatch(/^NOT RUN/m);
    expect(text).toContain('not run, by reason (--verbose lists each case):\n     2  left out by --only (by choice)\n     1  needs a manual clock (for a missing capability)\n');
  });

  it('when --verbose, then a line for each case not run too', () => {
    expect(report(false, 'verbose')).toMatch(/^NOT RUN +getRecipes\/c: needs a manual clock$/m);
  });

  it('when --quiet, then the failures and the summary only', () => {
    const text = report(false, 'quiet');
    expect(text).not.toMatch(/^(PASS|FAIL |NOT RUN)/m);
    expect(text).toContain('FAILED getRecipes/b: B');
    expect(text).not.toContain('section  ');
    expect(text).toContain('catalogue: 2 of 5 cases ran');
  });

  it('when summarising, then counts go under each case\'s first section', () => {
    const text = report(false);
    expect(text).toMatch(/4\. Endpoints +1 +1 +0 +0 +0/);
    expect(text).toMatch(/8\. Limits +0 +0 +0 +1 +0/);
    expect(text).toContain('catalogue: 2 of 5 cases ran; not run: 1 for a missing capability [needs a manual clock (1)]; 2 by choice [left out by --only (2)]');
    expect(text).toContain('incomplete: 1 case could not run for a missing capability');
    expect(text).toContain('judged by the specification');
  });
});

describe('the console report of a run with every kind of outcome', () => {
  const run = sampleRun();
  let text = '';
  const reporter = new ConsoleReporter({ write: (t) => void (text += t), isTTY: false }, run.results.length, run.byId, run.secrets);
  for (const r of run.results) reporter.result(r, run.details.get(r.id) ?? { steps: [] });
  text += reporter.summary(run.results, { tally: tally(run.results, { catalogue: 12, selectedBy: ['--only'] }), judgement: 'spec', acceptIncomplete: true });

  it('when a case passed with a deviation, then it passes, and the deviation is listed apart with its basis', () => {
    expect(text).toMatch(/^PASS +getRecipes\/index-without-bodies \(1 deviation\)$/m);
    expect(text).toContain("deviations from the reference server's own choices: 1 distinct departure, seen in 1 answer of 1 case; informative, never failures");
    expect(text).toContain(
      "  expected Cache-Control: public, max-age=300 (the reference's order); received Cache-Control: max-age=300, public · 1 answer in 1 case · the reference server's choice (section 4.2 names the directives, not their order)",
    );
    expect(text).toContain('8 cases: 2 passed, 1 failed, 1 errors, 3 not run, 1 known, 1 distinct deviation');
  });

  it('when not-run cases have several causes, then one line counts them by kind and cause', () => {
    expect(text).toContain(
      'catalogue: 5 of 12 cases ran; not run: 1 for a missing capability [needs the account-holder driver (1)]; 5 by choice [left out by --only (4), no --spend (1)]; 1 stopped early [--max-failures 2 (1)]',
    );
    expect(text).toContain('incomplete, accepted (--accept-incomplete): 1 case could not run for a missing capability');
  });

  it('when a failing request carried a key, then the key is masked', () => {
    expect(text).toContain('<API key given as key>');
    expect(text).not.toContain(SECRET_KEY);
  });
});

describe('the counts', () => {
  it('when nothing of a kind happened, then its count is there as zero', () => {
    const t = tally([], { catalogue: 0, selectedBy: [] });
    expect(t.verdicts).toEqual({ passed: 0, failed: 0, known: 0, 'unexpected-pass': 0, error: 0, 'not-run': 0, 'matched-reference': 0, 'departed-reference': 0 });
    expect(t.notRun).toEqual({ choice: 0, capability: 0, stopped: 0 });
    expect(ranLine(t)).toBe('catalogue: 0 of 0 cases ran, all of it');
  });

  it('when a result carries no kind, then it counts as a missing capability, never as green', () => {
    const t = tally([{ id: 'getRecipes/x', state: 'not-run', reason: 'found while running', attempts: { passed: 0, total: 0 }, durationMs: 0, requests: 0, observed: [], deviations: [], requirements: { held: [], broken: [] } }], { catalogue: 1, selectedBy: [] });
    expect(t.notRun.capability).toBe(1);
  });
});

describe('the JSON report', () => {
  it('when written, then every count is there (zeros included), with the judgement, the exit status and the deviations apart', () => {
    const report = JSON.parse(jsonReport(sampleRun())) as Record<string, any>;
    const { requirements, ...totals } = report.totals as Record<string, unknown>;
    expect(totals).toEqual({ passed: 2, failed: 1, known: 1, 'unexpected-pass': 0, error: 1, 'not-run': 3, 'matched-reference': 0, 'departed-reference': 0, deviations: 1, failureCauses: 1, generated: 0 });
    expect(requirements).toMatchObject({ passed: expect.any(Number), failed: expect.any(Number), notRun: expect.any(Number), notTested: expect.any(Number), untestable: expect.any(Number) });
    expect(report.catalogue).toEqual({
      cases: 12,
      selected: 8,
      ran: 5,
      notRun: { choice: 5, capability: 1, stopped: 1 },
      reasons: [
        { kind: 'choice', label: 'left out by --only', cases: 4 },
        { kind: 'capability', label: 'needs the account-holder driver', cases: 1 },
        { kind: 'choice', label: 'no --spend', cases: 1 },
        { kind: 'stopped', label: '--max-failures 2', cases: 1 },
      ],
      incomplete: true,
    });
    expect(report.judgement).toBe('spec');
    expect(report.exitCode).toBe(1);
    expect(report.deviations).toEqual([
      expect.objectContaining({ cases: ['getRecipes/index-without-bodies'], answers: 1, basis: "the reference server's choice (section 4.2 names the directives, not their order)", exchange: `GET ${BASE}/v1/recipes → 200` }),
    ]);
    const deviating = report.cases.find((c: { id: string }) => c.id === 'getRecipes/index-without-bodies');
    expect(deviating).toMatchObject({ state: 'passed', verdict: 'passed', deviations: 1 });
    expect(report.cases.find((c: { id: string }) => c.id === 'submitRecipe/contribution-public')).toMatchObject({ notRunKind: 'choice', notRunLabel: 'no --spend' });
    expect(jsonReport(sampleRun())).not.toContain(SECRET_KEY);
  });
});

describe('the JUnit report', () => {
  const xml = junitXml(sampleRun());

  it('when validated against the JUnit schema Jenkins reads, then it is valid', async () => {
    const result = await validateXML({
      xml: [{ fileName: 'junit.xml', contents: xml }],
      schema: [{ fileName: 'junit-10.xsd', contents: readFileSync(join(import.meta.dirname, 'fixtures', 'junit-10.xsd'), 'utf8') }],
    });
    expect(result.errors.map((e) => e.message)).toEqual([]);
    expect(result.valid).toBe(true);
    // The same check refuses what Jenkins's plugin would: a testcase without its name.
    const broken = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml.replace(/ name="getRecipes\/index-without-bodies"/, '') }], schema: [{ fileName: 'junit-10.xsd', contents: readFileSync(join(import.meta.dirname, 'fixtures', 'junit-10.xsd'), 'utf8') }] });
    expect(broken.valid).toBe(false);
  });

  it('when read by CI, then the totals are on <testsuites> and a classname splits into section and operation', () => {
    expect(xml).toMatch(/<testsuites name="vault-conformance" tests="8" failures="1" errors="1" time="1\.234">/);
    expect(xml).toContain('<testcase classname="vault.s4_2.getRecipes" name="getRecipes/index-without-bodies"');
    expect(xml).toContain('<testcase classname="vault.s8_3.fileSignupRequest" name="fileSignupRequest/too-many-pending"');
    expect(xml).toMatch(/<testsuite name="vault.s5" tests="2" failures="1" errors="0" skipped="0"/);
    expect(xml).toContain('<property name="judgement" value="spec"/>');
  });

  it('when a case passed with a deviation, then the deviation is in its system-out, never a failure', () => {
    const testcase = /<testcase classname="vault.s4_2.getRecipes"[^>]*>(.*?)<\/testcase>/s.exec(xml)![1]!;
    expect(testcase).not.toContain('<failure');
    expect(testcase).toMatch(/^<system-out>DEVIATION getRecipes\/index-without-bodies \(informative, not a failure\)/);
  });

  it('when cases did not run, then each is skipped with the kind of its reason, and the key is masked', () => {
    expect(xml).toContain('<skipped message="not run (missing capability): needs the account-holder driver"/>');
    expect(xml).toContain('<skipped message="not run (left out by choice): creates data the runner cannot remove (a public recipe); run with --spend"/>');
    expect(xml).toContain('<skipped message="not run (not started): stopped after 2 failed or errored cases (--max-failures 2)"/>');
    expect(xml).not.toContain(SECRET_KEY);
  });
});

describe('the coverage report', () => {
  it('when a case received triples, then it is credited with those and no other', () => {
    const run = sampleRun();
    const row = (op: string, status: string, code?: string) => run.coverage.find((r) => r.operationId === op && r.status === status && r.code === code)!;
    expect(row('getTokenCatalog', '401', 'unauthorized').cases).toEqual(['getTokenCatalog/auth-header-missing', 'getTokenCatalog/auth-key-revoked']);
    expect(row('getRecipes', '200').cases).toEqual(['getRecipes/index-without-bodies']);
    // Filed under getTokenCatalog, it received nothing of getRecipes: no credit there.
    expect(run.coverage.filter((r) => r.operationId !== 'getTokenCatalog' && r.cases.some((id) => id.startsWith('getTokenCatalog/')))).toEqual([]);
    expect(row('getTokenCatalog', '401', 'invalid_api_key').exercised).toBe(false);
  });

  it('when written, then it names the judgement and lists the deviations apart from the table', () => {
    const run = sampleRun();
    const md = coverageMarkdown(run.coverage, 'spec', run.results);
    expect(md).toContain('The run was judged by the specification');
    expect(md).toContain('| getRecipes | 200 |  | yes | getRecipes/index-without-bodies |');
    expect(md).toMatch(/## Deviations[\s\S]*\| Cache-Control: public, max-age=300 \(the reference's order\) \| Cache-Control: max-age=300, public \| 1 answer in 1 case \| .* \| getRecipes\/index-without-bodies \|/);
  });
});

describe('report files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-paths-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const check = (option: string, file: string) => () => checkReportPaths([{ option, file }]);

  it('when a report path is a directory, then it is a usage error that says so', () => {
    expect(check('--json', dir)).toThrow(new UsageError(`--json ${dir}: is a directory; give a file path that can be written`));
  });

  it('when a report path lies under a regular file, then it is a usage error that says so', () => {
    writeFileSync(join(dir, 'plain'), 'x');
    expect(check('--junit', join(dir, 'plain', 'junit.xml'))).toThrow(/^--junit .*plain\/junit\.xml: a part of the path is a file, not a folder; give a file path that can be written$/);
    expect(check('--html', join(dir, 'plain', 'deeper', 'r.html'))).toThrow(UsageError);
  });

  it('when two reports name one file, then it is a usage error', () => {
    const file = join(dir, 'same.json');
    expect(() => checkReportPaths([{ option: '--json', file }, { option: '--coverage', file }])).toThrow(/--json and --coverage name the same file/);
  });

  it('when a path can be written, then its folders are made, a new file is not left behind, and an old one is kept whole', () => {
    const fresh = join(dir, 'new', 'deeper', 'report.html');
    checkReportPaths([{ option: '--html', file: fresh }]);
    expect(existsSync(join(dir, 'new', 'deeper'))).toBe(true);
    expect(existsSync(fresh)).toBe(false);
    const old = join(dir, 'old.xml');
    writeFileSync(old, 'the last run');
    checkReportPaths([{ option: '--junit', file: old }]);
    expect(readFileSync(old, 'utf8')).toBe('the last run');
  });
});

describe('why a case does not run', () => {
  const env = { keys: {}, manualClock: false, driver: undefined } as unknown as RunEnvironment;
  const c = (needs: Case['needs'], costs: Case['costs'] = {}) => defineCase({ id: 'getRecipes/x', title: 'X', requirements: ['recipes-index'], needs, costs, run: async () => undefined });

  it('when the run lacks the driver, a manual clock or a key, then the kind is a missing capability', () => {
    expect(whyNotRun(c({ driver: true }), env, true)).toEqual({ kind: 'capability', reason: 'needs the account-holder driver', label: 'needs the account-holder driver' });
    expect(whyNotRun(c({ keys: ['signupKey'] }), env, true)?.kind).toBe('capability');
    expect(whyNotRun(c({ driver: ['clock'] }), { ...env, driver: { clock: undefined } } as unknown as RunEnvironment, true)).toMatchObject({ kind: 'capability', reason: 'the driver cannot clock' });
  });

  it('when the user did not allow spending, then the kind is a choice, even where a capability is missing too', () => {
    expect(whyNotRun(c({ driver: true }, { spends: 'the catalog limit' }), env, false)).toEqual({ kind: 'choice', reason: 'spends the catalog limit; run with --spend', label: 'no --spend' });
    expect(whyNotRun(c({}), env, false)).toBeUndefined();
  });
});
