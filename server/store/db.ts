import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export type Db = Database.Database;

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export class SchemaTooNewError extends Error {
  constructor(readonly found: number, readonly known: number) {
    super(`database schema version ${found} is newer than this server knows (${known}); upgrade the server`);
  }
}

interface Migration {
  version: number;
  name: string;
  sql: string;
}

function migrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}-[a-z0-9-]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ version: Number(name.slice(0, 4)), name, sql: readFileSync(join(MIGRATIONS_DIR, name), 'utf8') }));
}

/**
 * Opens (and migrates) the database. `path` is a file or `:memory:`.
 * Throws SchemaTooNewError, before changing anything, when the file was written by a newer server.
 * `beforeMigrate` runs on a database that already has a schema, before any migration or mode change
 * (the master-key check, so a wrong key changes nothing).
 */
export function openDb(path: string, options: { beforeMigrate?: (db: Db) => void } = {}): Db {
  const db = new Database(path);
  try {
    const known = knownVersion();
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > known) throw new SchemaTooNewError(current, known);
    if (current > 0) options.beforeMigrate?.(db);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // Two server processes may share the file: wait for the other's write lock instead of failing at once.
    db.pragma('busy_timeout = 5000');
    // NORMAL is durable against process crashes in WAL mode; only an OS crash may lose the last commits.
    db.pragma('synchronous = NORMAL');
    migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

export class ReadOnlyDatabaseError extends Error {}
export class NotADatabaseError extends Error {}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;
const USER_VERSION_OFFSET = 60;

/**
 * Whether a database already exists at `path`, read from its header without opening it: opening
 * creates the WAL files, and nothing may be created before the server knows it can use the file.
 * Throws SchemaTooNewError or NotADatabaseError for a file this server must not touch. A commit
 * not yet checkpointed lives only in the `-wal` file, which counts as existing data too.
 */
export function databaseExists(path: string): boolean {
  const size = (p: string) => (existsSync(p) ? statSync(p).size : 0);
  const mainSize = size(path);
  if (mainSize === 0) return size(`${path}-wal`) > 0;
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  if (mainSize < HEADER_BYTES || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) throw new NotADatabaseError('file is not a database');
  const version = header.readUInt32BE(USER_VERSION_OFFSET);
  if (version > knownVersion()) throw new SchemaTooNewError(version, knownVersion());
  return true;
}

/**
 * Proves at start-up that the database can be written: a read-only file, or a directory where the
 * WAL files cannot be created, opens and reads fine and would then fail every write. The probe
 * rewrites one row to itself and rolls back, so it changes nothing.
 */
export function assertWritable(db: Db, path: string): void {
  const rollback = new Error('rollback');
  try {
    db.transaction(() => {
      db.prepare("UPDATE meta SET value = value WHERE key = 'key_check'").run();
      throw rollback;
    }).immediate();
  } catch (e) {
    if (e === rollback) return;
    throw new ReadOnlyDatabaseError(`the database ${path} cannot be written (${(e as Error).message}); check the permissions of the file and of its directory`);
  }
}

function knownVersion(): number {
  const all = migrations();
  return all.length === 0 ? 0 : all[all.length - 1]!.version;
}

/** Applies the migrations after the database's version, up to `through` (tests replay one migration). */
export function migrate(db: Db, through = knownVersion()): void {
  const all = migrations();
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > knownVersion()) throw new SchemaTooNewError(current, knownVersion());
  for (const m of all) {
    if (m.version <= current || m.version > through) continue;
    // Each migration and its version bump commit together, so a crash never leaves a half-applied step.
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}

const runners = new WeakMap<Db, Database.Transaction<(fn: () => unknown) => unknown>>();

/**
 * Runs `fn` in an immediate transaction, or in a savepoint of the transaction already open, as
 * `db.transaction(fn).immediate()` does. One wrapper per connection serves every call: better-sqlite3
 * builds four wrapped functions and their properties for each `db.transaction`, which cost a small
 * write more than its statements did.
 */
export function immediate<T>(db: Db, fn: () => T): T {
  let run = runners.get(db);
  if (!run) runners.set(db, (run = db.transaction((f: () => unknown) => f())));
  return run.immediate(fn) as T;
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();
const generations = new WeakMap<Db, number>();

const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

/**
 * A statement prepared once per connection and reused: preparing on every call costs more than the query.
 * Every write ends the reads cached under the current dataGeneration, except a `bookkeeping` one:
 * a write that changes no account data (the limiter's counters, a key's last-used time), which runs
 * on most requests and would otherwise make every cached read stale at once. The caller says so.
 */
export function stmt(db: Db, sql: string, kind: 'data' | 'bookkeeping' = 'data'): Database.Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) {
    s = db.prepare(sql);
    if (kind === 'data' && WRITE.test(sql)) {
      const run = s.run.bind(s);
      s.run = (...params: unknown[]) => {
        generations.set(db, (generations.get(db) ?? 0) + 1);
        return run(...params);
      };
    }
    cache.set(sql, s);
  }
  return s;
}

/**
 * Changes whenever account data may have changed: a write of this connection through stmt() (except
 * bookkeeping), or a commit of any other connection (`PRAGMA data_version`), such as a second server
 * process on the same file. Reads cached under one generation are valid while it lasts.
 */
export function dataGeneration(db: Db): string {
  return `${generations.get(db) ?? 0}:${dataVersion(db)}`;
}

/** How long a `PRAGMA data_version` read is reused while no request begins. */
const VERSION_REUSE_MS = 10;
const versions = new WeakMap<Db, { version: number; readAt: number }>();

/**
 * Called as each request begins: the next dataGeneration reads `PRAGMA data_version` again, so the
 * request sees every commit another process made before it began. Until then, a value read after
 * the latest request began is reused (each read is a read transaction: a few system calls), for at
 * most VERSION_REUSE_MS, which also bounds how stale work outside requests may see it.
 */
export function beginRequestReads(db: Db): void {
  versions.delete(db);
}

function dataVersion(db: Db): number {
  const now = performance.now();
  const known = versions.get(db);
  if (known && now - known.readAt < VERSION_REUSE_MS) return known.version;
  const version = stmt(db, 'PRAGMA data_version').pluck().get() as number;
  versions.set(db, { version, readAt: now });
  return version;
}

/**
 * Whether an error is SQLite's "database or disk is full" (SQLITE_FULL): the disk holding the
 * database or its WAL has no room, or the file reached its `max_page_count`. Nothing of the
 * failed statement or transaction was kept.
 */
export function isStorageFull(err: unknown): boolean {
  return err instanceof Database.SqliteError && err.code === 'SQLITE_FULL';
}
