import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseArgs } from '../runner/options.js';

/**
 * The CI recipe (docs/ci.md) as a QA team copies it: each YAML block parses, each job installs the
 * tarball, waits for readiness, runs with its secrets from the environment, publishes JUnit and the
 * HTML report, and keeps a known-deviations file; and every command line it gives the runner uses
 * only options the runner has, as the runner's own parser reads them.
 */

const DOC = readFileSync(join(import.meta.dirname, '..', 'docs', 'ci.md'), 'utf8');

function yamlBlocks(): { title: string; value: any }[] {
  return [...DOC.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => ({ title: m[1]!.split('\n')[0]!, value: parse(m[1]!) }));
}

/** Splits a shell command into words: quotes removed, `\`-newline joined, `$VAR` left as written. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  const text = command.replace(/\\\n/g, ' ');
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else word = (word ?? '') + ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + ch;
  }
  if (quote) throw new Error(`unclosed quote in: ${command}`);
  if (word !== undefined) words.push(word);
  return words;
}

/** The runner's command in a command line: its own bin, never npx, so that a signal reaches it. */
const isRunner = (word: string) => word === './node_modules/.bin/vault-conformance';

/** The runner's arguments in each command of a job that runs it. */
function runnerArgs(commands: string[]): string[][] {
  return commands.map(shellWords).filter((words) => words.some(isRunner)).map((words) => words.slice(words.findIndex(isRunner) + 1));
}

function expectAJobOfCi(commands: string[]): string[] {
  const install = commands.find((c) => /npm install .*credential-vault-conformance-[\d.]+\.tgz/.test(c));
  expect(install, 'installs the tarball').toBeDefined();
  const runs = runnerArgs(commands);
  expect(runs).toHaveLength(2);
  const [args, workflows] = [runs.find((r) => r[0] !== 'workflows')!, runs.find((r) => r[0] === 'workflows')!];
  // Under coreutils' timeout, which passes its signal to the runner and waits for the reports.
  for (const words of commands.map(shellWords).filter((w) => w.some(isRunner))) expect(words.slice(0, 3).join(' ')).toMatch(/^(exec )?timeout --signal=TERM/);
  expect(workflows).toContain('--junit');
  for (const option of ['--key', '--signup-key', '--admin-token', '--api-key']) expect(workflows, option).not.toContain(option);
  const parsed = parseArgs(args);
  expect(parsed.generate, '--generate').toBeGreaterThan(0);
  expect(parsed.waitForReady, '--wait-for-ready').toBeGreaterThan(0);
  expect(parsed.expectFail).toBe('qa/known-deviations.yaml');
  expect(parsed.junit).toMatch(/junit\.xml$/);
  expect(parsed.html).toMatch(/report\.html$/);
  // No secret on the command line: whatever is secret comes from the environment.
  for (const option of ['key', 'signupKey', 'otherAccountKey', 'scopedKey', 'adminToken']) expect(parsed[option], `--${option}`).toBeUndefined();
  return args;
}

describe('the CI recipe', () => {
  const blocks = yamlBlocks();

  it('when its YAML blocks are parsed, then each is valid YAML, and there is a GitLab and a GitHub job', () => {
    expect(blocks.map((b) => b.title)).toEqual(expect.arrayContaining(['# .gitlab-ci.yml', '# .github/workflows/conformance.yml']));
  });

  it('when the known-deviations file is read, then it maps case ids to reasons as --expect-fail takes them', () => {
    const known = blocks.find((b) => !b.title.startsWith('#'))!.value as Record<string, unknown>;
    expect(Object.keys(known).length).toBeGreaterThan(0);
    for (const reason of Object.values(known)) expect(typeof reason).toBe('string');
  });

  it('when the GitLab job is read, then it runs the runner with options it has, and publishes JUnit and the HTML report', () => {
    const job = blocks.find((b) => b.title === '# .gitlab-ci.yml')!.value.conformance;
    const args = expectAJobOfCi(job.script as string[]);
    expect(args).toContain('--ca-cert');
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.reports.junit).toBe('out/*/*.xml');
    expect(args).toContain('--webhook-url');
    expect(job.artifacts.paths).toContain('out/');
  });

  it('when the GitHub workflow is read, then it runs the runner with options it has, with secrets from the environment, and keeps the reports', () => {
    const job = blocks.find((b) => b.title === '# .github/workflows/conformance.yml')!.value.jobs.conformance;
    const steps = job.steps as { run?: string; uses?: string; env?: Record<string, string>; with?: Record<string, string>; if?: string }[];
    expectAJobOfCi(steps.filter((s) => s.run).map((s) => s.run!));
    const run = steps.find((s) => s.run?.includes('./node_modules/.bin/vault-conformance \\'))!;
    expect(run.env?.BACK_OFFICE_TOKEN).toBe('${{ secrets.BACK_OFFICE_TOKEN }}');
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe('always()');
    expect(upload.with?.path).toBe('out/');
    expect(steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report@'))?.with?.report_paths).toBe('out/*.xml');
  });
});
