import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';
import { createTestDatabase } from '../../server/test/postgres.js';

/** The catalogue's proof against the reference server on PostgreSQL (the tests' cluster), with a manual clock. */

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
