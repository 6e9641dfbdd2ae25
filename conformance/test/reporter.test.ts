import { describe, expect, it } from 'vitest';
import { ConsoleReporter } from '../runner/report/console.js';
import { defineCase } from '../runner/case.js';
import { Secrets } from '../runner/secrets.js';
import { CaseFailure, type CaseResult } from '../runner/outcome.js';

/** The console report: a live progress line on a terminal, plain lines without one, a summary by section. */

const cases = [
  defineCase({ id: 'getTokenCatalog/a', title: 'A', sections: ['4.1'], needs: {}, costs: {}, run: async () => undefined }),
  defineCase({ id: 'getRecipes/b', title: 'B', sections: ['4.2'], needs: {}, costs: {}, run: async () => undefined }),
  defineCase({ id: 'getRecipes/c', title: 'C', sections: ['8.3'], needs: {}, costs: {}, run: async () => undefined }),
];
const base = { attempts: { passed: 1, total: 1 }, durationMs: 3, requests: 1, observed: [], deviations: [] };
const results: CaseResult[] = [
  { id: 'getTokenCatalog/a', state: 'passed', ...base },
  { id: 'getRecipes/b', state: 'failed', failure: new CaseFailure('status 200', '500 internal_error', { sections: ['4.2'] }), ...base },
  { id: 'getRecipes/c', state: 'not-run', reason: 'needs a manual clock', ...base },
];

function report(isTTY: boolean): string {
  let text = '';
  const reporter = new ConsoleReporter({ write: (t) => void (text += t), isTTY }, results.length, new Map(cases.map((c) => [c.id, c])), new Secrets());
  for (const r of results) reporter.result(r, { steps: [] });
  return text + reporter.summary(results);
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
    expect(text).toMatch(/^FAIL +getRecipes\/b$/m);
    expect(text).toMatch(/^NOT RUN +getRecipes\/c: needs a manual clock$/m);
  });

  it('when summarising, then counts go under each case\'s first section', () => {
    const text = report(false);
    expect(text).toMatch(/4\. Endpoints +1 +1 +0 +0 +0/);
    expect(text).toMatch(/8\. Limits +0 +0 +0 +1 +0/);
    expect(text).toContain('  not run: needs a manual clock (1)');
  });
});
