import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** A dialect's migrations in order: `migrations/` for SQLite, `migrations/postgres/` for PostgreSQL, with the same numbers. */
export function migrationFiles(dialect: 'sqlite' | 'postgres'): Migration[] {
  const dir = dialect === 'sqlite' ? ROOT : join(ROOT, 'postgres');
  return readdirSync(dir)
    .filter((f) => /^\d{4}-[a-z0-9-]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ version: Number(name.slice(0, 4)), name, sql: readFileSync(join(dir, name), 'utf8') }));
}
