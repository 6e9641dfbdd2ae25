import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrism } from './support/processes.js';
import { conform } from './support/run.js';

/**
 * The runner against the Prism mock of the same document: the stateless subset (no driver, no
 * --spend, made-up keys) passes, but for what Prism cannot do, each listed with its reason in
 * prism.known.yaml. The run fails if a listed case passes, so the list stays exact.
 */

describe('the stateless subset against the Prism mock', () => {
  let prism: Awaited<ReturnType<typeof startPrism>>;
  beforeAll(async () => {
    prism = await startPrism();
  }, 70_000);
  afterAll(() => prism?.stop());

  it('when run with any keys and no driver, then every case passes but the listed exclusions', async () => {
    const run = await conform([
      '--base-url', prism.base,
      '--key', 'mock-key', '--signup-key', 'mock-signup-key', '--other-account-key', 'mock-other-key', '--scoped-key', 'mock-scoped-key',
      '--expect-fail', join(import.meta.dirname, 'prism.known.yaml'),
      '--seed', '3',
      // The mock answers from the whole document, the reference's choices included: judged by them.
      '--judge', 'reference',
      // A mock has no account holder: the cases that need one cannot run, and that is the point.
      '--accept-incomplete',
    ]);
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.exitCode, run.output).toBe(0);
    const ran = run.results.filter((r) => r.state !== 'not-run');
    const passing = ran.filter((r) => !r.known).length;
    console.log(`Prism mock: ${passing} cases pass, ${ran.length - passing} known exclusions, ${run.notRun.length} not run (driver or --spend)`);
    expect(passing, 'cases that pass against the mock').toBeGreaterThanOrEqual(20);
    const why = run.notRun.map((id) => run.results.find((r) => r.id === id)!.notRun);
    // The mock's full bundle is an example with no page in it, so the lookup of a page the registry
    // serves has nothing to look up: not run, never passed.
    expect(new Set(why.map((w) => `${w?.kind}: ${w?.label}`))).toEqual(
      new Set(['capability: needs the account-holder driver', 'choice: no --spend', 'capability: the deployment refused a precondition']),
    );
    const refused = run.results.filter((r) => r.notRun?.label === 'the deployment refused a precondition').map((r) => r.id);
    expect(refused).toEqual(['getRecipes/lookup-finds-the-registry']);
    expect(run.output).toMatch(/^incomplete, accepted \(--accept-incomplete\): \d+ cases could not run/m);
  }, 120_000);
});
