import { afterEach, beforeEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type SqliteStore } from '../store/db.js';

/**
 * Two connections on one database file, as two server processes share one: opened before each
 * test of the file that calls this, closed and removed after it. Read `a` and `b` inside tests.
 */
export function twoConnectionsEachTest(): { readonly a: SqliteStore; readonly b: SqliteStore } {
  let dir = '';
  const dbs = {} as { a: SqliteStore; b: SqliteStore };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vault-shared-file-'));
    dbs.a = openDb(join(dir, 'v.db'));
    dbs.b = openDb(join(dir, 'v.db'));
  });
  afterEach(async () => {
    await dbs.a.close();
    await dbs.b.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return dbs;
}
