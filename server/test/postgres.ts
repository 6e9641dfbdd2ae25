import { inject, onTestFinished } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres, type PostgresDb, type PostgresOptions } from '../store/postgres.js';

/** A database of its own on the tests' cluster, with C collation, dropped (connections and all) by `drop`. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const admin = inject('postgresUrl');
  const name = `vault_test_${randomBytes(8).toString('hex')}`;
  await adminQuery(admin, `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A migrated store on a database of its own, closed and dropped when the test ends. */
export async function postgresStore(options: Partial<PostgresOptions> = {}): Promise<PostgresDb & { url: string }> {
  const database = await createTestDatabase();
  const db = await openPostgres({ url: database.url, ...options });
  onTestFinished(async () => {
    await db.close().catch(() => undefined);
    await database.drop();
  });
  return Object.assign(db, { url: database.url });
}
