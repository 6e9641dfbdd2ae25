import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';
import { createTestDatabase } from '../../server/test/postgres.js';

/**
 * The catalogue's proof against the reference server: every case passes, three times over, and
 * every documented (operation, status, code) is exercised or listed as not testable with a reason.
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

describe('the catalogue against the reference server on PostgreSQL, with a manual clock', () => {
  let server: ReferenceServer;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startReference({ VAULT_CLOCK: 'manual', VAULT_DATABASE_URL: database.url });
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('when the whole catalogue runs, then every case passes and the contract is covered', async () => {
    const run = await conform(['--jobs', '4', '--seed', '1'], { VAULT_DATA_DIR: server.dataDir });
    console.log(`reference on PostgreSQL, manual clock: ${run.results.length} cases in ${(run.durationMs / 1000).toFixed(1)} s`);
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.notRun, run.output).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.coverage.filter((row) => !row.exercised && !row.ineligible)).toEqual([]);
  }, 600_000);
});

describe('the catalogue against the reference server with a real clock', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReference();
  });
  afterAll(() => server?.stop());

  it('when run as `npm run conformance` runs it, then the manual-clock cases are not run, the rest pass, and the run is incomplete', async () => {
    const run = await conform(['--seed', '2'], { VAULT_DATA_DIR: server.dataDir });
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    const clockCases = run.results.filter((r) => r.state === 'not-run');
    expect(clockCases.length).toBeGreaterThan(0);
    expect(new Set(clockCases.map((r) => `${r.notRun?.kind}: ${r.reason}`))).toEqual(new Set(['capability: needs a manual clock']));
    expect(run.output).toContain(`not run: ${clockCases.length} for a missing capability [needs a manual clock (${clockCases.length})]`);
    // Cases that could not run make the run incomplete: exit 4, never a silent 0.
    expect(run.exitCode).toBe(4);
  }, 300_000);
});
