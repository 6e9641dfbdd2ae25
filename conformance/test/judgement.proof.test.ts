import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';

/**
 * The specification's judgement, proved on the whole catalogue: the reference server takes every
 * choice the specification leaves open its own way, and judged by the specification alone nothing
 * of that is a departure. How each judgement reads an answer is in judgement.test.ts.
 */

describe('the reference server judged by the specification', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReference({ VAULT_CLOCK: 'manual' });
  });
  afterAll(() => server?.stop());

  it('when the whole catalogue runs, then every case passes and nothing departs from its own choices', async () => {
    const run = await conform(['--base-url', server.base, '--admin-token', server.adminToken, '--spend', '--jobs', '4', '--seed', '4', '--judge', 'spec']);
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.judgement).toBe('spec');
    expect(run.results.flatMap((r) => r.deviations.map((d) => `${r.id}: ${d.expected} / ${d.received}`))).toEqual([]);
    expect(run.output).toContain('judged by the specification');
  }, 300_000);
});
