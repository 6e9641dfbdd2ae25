import { afterEach, beforeEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '../store/db.js';

/**
 * Two connections on one database file, as two server processes share one: opened before each
 * test of the file that calls this, closed and removed after it. Read `a` and `b` inside tests.
 */
export function twoConnectionsEachTest(): { readonly a: Db; readonly b: Db } {
  let dir = '';
  const dbs = {} as { a: Db; b: Db };
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
