import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { startCluster } from '../../scripts/postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL of the PostgreSQL cluster the tests make their databases on. */
    postgresUrl: string;
  }
}

type Cluster = Awaited<ReturnType<typeof startCluster>>;

/**
 * The run's one throwaway cluster, kept on the process rather than in this module: each project
 * that names this setup (the e2e and proof tiers, vitest.config.ts) loads the module anew, and
 * they share the cluster, stopped once the last of them is done.
 */
const SHARED = Symbol.for('credential-vault.test-postgres');
interface Shared {
  cluster: Promise<Cluster>;
  users: number;
}

/**
 * The tests' PostgreSQL cluster: the one .ci/run started (VAULT_TEST_DATABASE_URL), or else a
 * throwaway one on 127.0.0.1 for this run, stopped and removed at its end.
 */
export default async function setup(project: TestProject) {
  const given = process.env.VAULT_TEST_DATABASE_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return;
  }
  const holder = globalThis as { [SHARED]?: Shared };
  const shared = (holder[SHARED] ??= { cluster: startCluster(join(tmpdir(), `vault-pg-${randomBytes(6).toString('hex')}`)), users: 0 });
  shared.users += 1;
  const cluster = await shared.cluster;
  project.provide('postgresUrl', cluster.url);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await cluster.stop();
  };
}
