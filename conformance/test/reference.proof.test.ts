import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';

/**
 * The catalogue's proof against the reference server: every case passes, three times over, and
 * every documented (operation, status, code) is exercised or listed as not testable with a reason.
 * The same catalogue on PostgreSQL and with a real clock, each against a server of its own, run
 * beside it: reference-postgres.proof.test.ts, reference-real-clock.proof.test.ts.
 */

describe('the catalogue against the reference server with a manual clock', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReference({ VAULT_CLOCK: 'manual' });
  });
  afterAll(() => server?.stop());

  it('when the whole catalogue runs three times, then every case passes each time and the contract is covered', async () => {
    const run = await conform(['--repeat', '3', '--jobs', '4', '--seed', '1'], { VAULT_DATA_DIR: server.dataDir });
    console.log(`reference, manual clock, --repeat 3: ${run.results.length} cases in ${(run.durationMs / 1000).toFixed(1)} s`);
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.notRun, run.output).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.results.every((r) => r.attempts.passed === 3)).toBe(true);
    const uncovered = run.coverage.filter((row) => !row.exercised && !row.ineligible).map((row) => `${row.operationId} ${row.status} ${row.code ?? ''}`);
    expect(uncovered, 'documented triples no case exercised (exercise them, or list them in cases/ineligible.ts with the reason)').toEqual([]);
    const stale = run.coverage.filter((row) => row.exercised && row.ineligible).map((row) => `${row.operationId} ${row.status} ${row.code ?? ''}`);
    expect(stale, 'triples listed as not testable that a case exercised').toEqual([]);
  }, 600_000);
});
