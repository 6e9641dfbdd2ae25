import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Three tiers, chosen by file name so that a new test file lands in one without editing this file
 * (CONTRIBUTING.md, "Test tiers"):
 * - unit: `*.test.ts`, in the test worker alone: no process, no browser, no whole-catalogue run;
 * - e2e: `*.e2e.test.ts`, tests that start processes (the server, CLIs, Prism, curl), Chromium or npm pack;
 * - proofs: `*.proof.test.ts`, the conformance runner's catalogue against the reference server
 *   and its variants and faults.
 * `vitest run` runs the three in one queue; `--project <name>` runs one.
 */

const FOLDERS = ['server', 'client', 'openapi', 'conformance'].map((area) => `${area}/test/**/`);
const files = (suffix: string) => FOLDERS.map((folder) => `${folder}*${suffix}`);
const E2E = files('.e2e.test.ts');
const PROOFS = files('.proof.test.ts');
// The PostgreSQL cluster the store's, the replicas' and the catalogue's tests on PostgreSQL make
// their databases on: the e2e and proof tiers share one; the unit tier needs none.
const POSTGRES = ['server/test/postgres-setup.ts'];

/**
 * One queue for the three tiers, proofs first, then e2e, then unit, each tier's files longest first
 * (by the last run's durations, else by size). Vitest's own order, one project after another by
 * name, started the longest files of all, the proofs, halfway through the queue, and the gate
 * waited on them at its end; the unit tier's short files now fill the workers at the end instead.
 */
const TIER_ORDER = ['proofs', 'e2e', 'unit'];
class LongestTiersFirst extends BaseSequencer {
  override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => TIER_ORDER.indexOf(spec.project.name);
    return (await super.sort(specs)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // Tests wait on processes, sockets and timers as much as they compute: one worker more than
    // the two cores keeps both busy. The tiers share one pool, so the gate runs as one schedule.
    maxWorkers: 3,
    // A worker keeps its modules from one file to the next: the server, the client and the runner
    // are imported once a worker, not once a file. A file leaves nothing behind (CONTRIBUTING.md).
    isolate: false,
    sequence: { sequencer: LongestTiersFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: files('.test.ts'),
          exclude: [...configDefaults.exclude, ...E2E, ...PROOFS],
          setupFiles: ['scripts/unit-tier.ts'],
          pool: 'threads',
          // Bounds for tests that share the machine with the other tiers' processes.
          hookTimeout: 60_000,
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E,
          globalSetup: POSTGRES,
          pool: 'forks',
          // Start-ups of the server, Prism, Chromium and npm pack, on a machine the other tiers keep busy.
          hookTimeout: 120_000,
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'proofs',
          include: PROOFS,
          globalSetup: POSTGRES,
          pool: 'forks',
          hookTimeout: 120_000,
          testTimeout: 120_000,
        },
      },
    ],
  },
});
