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
  const cluster = await startCluster(join(tmpdir(), `vault-pg-${randomBytes(6).toString('hex')}`));
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
