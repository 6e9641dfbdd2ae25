import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';

/** The catalogue as `npm run conformance` runs it, against the reference server on its real clock. */

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
