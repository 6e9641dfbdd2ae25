import Database from 'better-sqlite3';
import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { migrationFiles } from './migration-files.js';


/**
 * The store cannot be reached or will not serve now (a database restarting, refusing connections,
 * or too busy): the request is answered 503 with Retry-After, and the server recovers by itself.
 */
export class StoreUnavailableError extends Error {}

export class SchemaTooNewError extends Error {
  constructor(readonly found: number, readonly known: number) {
    super(`database schema version ${found} is newer than this server knows (${known}); upgrade the server`);
  }
}

const migrations = () => migrationFiles('sqlite');

/**
 * Opens (and migrates) the database. `path` is a file or `:memory:`.
 * Throws SchemaTooNewError, before changing anything, when the file was written by a newer server.
 * `beforeMigrate` runs on a database that already has a schema, before any migration or mode change
 * (the master-key check, so a wrong key changes nothing).
 */
export function openDb(path: string, options: { beforeMigrate?: (db: Database.Database) => void } = {}): SqliteStore {
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
    return new SqliteDb(new SqliteConnection(db));
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
export function assertWritable(handle: SqliteStore, path: string): void {
  const db = handle.sqlite;
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

/** The newest schema version this server knows. */
export function knownVersion(): number {
  const all = migrations();
  return all.length === 0 ? 0 : all[all.length - 1]!.version;
}

/** Applies the migrations after the database's version, up to `through` (tests replay one migration). */
export function migrate(db: Database.Database, through = knownVersion()): void {
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

/** What a write changed. */
export interface RunResult {
  changes: number;
}

/**
 * A statement prepared once per connection. Its calls return promises on every driver: on SQLite
 * the statement has already run when the promise is returned, which is then settled.
 */
export interface Statement {
  get(...params: unknown[]): Promise<unknown>;
  all(...params: unknown[]): Promise<unknown[]>;
  run(...params: unknown[]): Promise<RunResult>;
  /** The same statement returning the first column's value only. */
  pluck(): Statement;
  /** The same statement returning rows as arrays of column values. */
  raw(): Statement;
}

/**
 * A connection to the store, as the store's modules and the domain see it: the connection itself,
 * or a transaction on it (`transaction` below), which is passed down to everything that runs in it.
 */
export interface Db {
  readonly dialect: 'sqlite' | 'postgres';
  /** Whether this handle is a transaction's: its reads see its own uncommitted writes, and are never kept. */
  readonly inTransaction: boolean;
  /** The statement for `sql` on this handle; see `stmt`. */
  statement(sql: string, kind: 'data' | 'bookkeeping'): Statement;
  /**
   * Whether the transaction of this handle is still open: SQLite ends one itself on some errors (a
   * full disk), after which no savepoint of it can go on. False on the connection's own handle.
   */
  transactionOpen(): boolean;
  /** Runs `fn` in a transaction of its own, or in a savepoint when this handle is a transaction's. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Closes the connection; on SQLite, checkpointing its WAL. */
  close(): Promise<void>;
  /**
   * Changes whenever data may have changed, as far as this process can tell without asking the
   * database: reads kept under one generation are good while it lasts (store/read-cache.ts), and
   * are checked against their scope's version once it moves.
   */
  generation(): string;
  /** Called as each request begins: the request sees every write committed before it began. */
  beginRequestReads(): void;
}

/** The SQLite store, with its better-sqlite3 connection for what only SQLite has (pragmas, functions, the tests' raw reads). */
export interface SqliteStore extends Db {
  readonly sqlite: Database.Database;
}

/**
 * A statement prepared once per connection and reused: preparing on every call costs more than the query.
 * Every write ends the reads cached under the current dataGeneration, except a `bookkeeping` one:
 * a write that changes no account data (the limiter's counters, a key's last-used time), which runs
 * on most requests and would otherwise make every cached read stale at once. The caller says so.
 */
export function stmt(db: Db, sql: string, kind: 'data' | 'bookkeeping' = 'data'): Statement {
  return db.statement(sql, kind);
}

/**
 * Runs `fn` in one transaction, with a handle of its own that it passes to everything it calls, or
 * in a savepoint when `db` is already a transaction's, as `db.transaction(fn).immediate()` nests.
 * It commits when `fn` settles, and rolls back when it throws.
 */
export function transaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}

const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

/** A better-sqlite3 statement as a Statement: each call runs it at once and returns a settled promise. */
class SqliteStatement implements Statement {
  private plucked?: SqliteStatement;
  private rawRows?: SqliteStatement;

  constructor(
    private readonly s: Database.Statement,
    private readonly conn: SqliteConnection,
    private readonly countsAsWrite: boolean,
  ) {}

  get(...params: unknown[]): Promise<unknown> {
    return Promise.resolve(this.s.get(...params));
  }

  all(...params: unknown[]): Promise<unknown[]> {
    return Promise.resolve(this.s.all(...params));
  }

  run(...params: unknown[]): Promise<RunResult> {
    if (this.countsAsWrite) this.conn.generation++;
    return Promise.resolve(this.s.run(...params));
  }

  pluck(): Statement {
    return (this.plucked ??= new SqliteStatement(this.conn.sqlite.prepare(this.s.source).pluck(), this.conn, this.countsAsWrite));
  }

  raw(): Statement {
    return (this.rawRows ??= new SqliteStatement(this.conn.sqlite.prepare(this.s.source).raw(), this.conn, this.countsAsWrite));
  }
}

/**
 * A statement of the connection's own handle while a transaction of another request is open on
 * the connection: it runs once that transaction has ended, so that no request reads another's
 * uncommitted writes (before this store was asynchronous, none could run in between).
 */
class WaitingStatement implements Statement {
  constructor(
    private readonly s: Statement,
    private readonly conn: SqliteConnection,
  ) {}

  get(...params: unknown[]): Promise<unknown> {
    return this.conn.whenIdle(() => this.s.get(...params));
  }

  all(...params: unknown[]): Promise<unknown[]> {
    return this.conn.whenIdle(() => this.s.all(...params));
  }

  run(...params: unknown[]): Promise<RunResult> {
    return this.conn.whenIdle(() => this.s.run(...params));
  }

  pluck(): Statement {
    return new WaitingStatement(this.s.pluck(), this.conn);
  }

  raw(): Statement {
    return new WaitingStatement(this.s.raw(), this.conn);
  }
}

/**
 * One better-sqlite3 connection: its statements, its data generation, and its one open transaction.
 * Transactions on it run one at a time, in the order they were asked for.
 */
class SqliteConnection {
  readonly statements = new Map<string, SqliteStatement>();
  private readonly controls = new Map<string, Database.Statement>();
  /** Raised by every data write of this connection (see dataGeneration). */
  generation = 0;
  /** The open transaction's end, while one is open. */
  private open: Promise<void> | undefined;
  private savepoints = 0;
  version: { version: number; readAt: number } | undefined;

  constructor(readonly sqlite: Database.Database) {}

  prepared(sql: string, kind: 'data' | 'bookkeeping'): SqliteStatement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = new SqliteStatement(this.sqlite.prepare(sql), this, kind === 'data' && WRITE.test(sql))));
    return s;
  }

  get busy(): boolean {
    return this.open !== undefined;
  }

  /** Settles once no transaction is open. */
  async idle(): Promise<void> {
    while (this.open) await this.open;
  }

  /** Runs `run` once no transaction is open, in the same step as it finds none open. */
  async whenIdle<T>(run: () => Promise<T>): Promise<T> {
    while (this.open) await this.open;
    return run();
  }

  private control(sql: string): void {
    let s = this.controls.get(sql);
    if (!s) this.controls.set(sql, (s = this.sqlite.prepare(sql)));
    s.run();
  }

  async begin<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    while (this.open) await this.open;
    let end!: () => void;
    this.open = new Promise<void>((resolve) => (end = resolve));
    try {
      this.control('BEGIN IMMEDIATE');
      let result: T;
      try {
        const tx = new SqliteTransaction(this);
        result = await (insideTransaction ? insideTransaction.run(this, () => fn(tx)) : fn(tx));
      } catch (err) {
        if (this.sqlite.inTransaction) this.control('ROLLBACK');
        throw err;
      }
      this.control('COMMIT');
      return result;
    } finally {
      this.open = undefined;
      end();
    }
  }

  async savepoint<T>(fn: (tx: Db) => Promise<T>, tx: Db): Promise<T> {
    const name = `s${++this.savepoints}`;
    this.control(`SAVEPOINT ${name}`);
    try {
      const result = await fn(tx);
      this.control(`RELEASE ${name}`);
      return result;
    } catch (err) {
      // A transaction SQLite has ended itself (a full disk) has no savepoint left to roll back.
      if (this.sqlite.inTransaction) {
        this.control(`ROLLBACK TO ${name}`);
        this.control(`RELEASE ${name}`);
      }
      throw err;
    } finally {
      this.savepoints--;
    }
  }
}

/**
 * Under the tests, which transaction the running code is part of: a statement through the
 * connection's own handle inside a transaction of that connection would wait for the transaction
 * to end, which waits for the statement. The tests fail such a call at once instead of hanging.
 * Not kept in production, where following every promise costs.
 */
const insideTransaction = process.env.VITEST ? new AsyncLocalStorage<SqliteConnection>() : undefined;

/** The connection's own handle: outside any transaction. */
class SqliteDb implements Db {
  readonly dialect = 'sqlite';
  readonly inTransaction = false;

  constructor(readonly conn: SqliteConnection) {}

  get sqlite(): Database.Database {
    return this.conn.sqlite;
  }

  statement(sql: string, kind: 'data' | 'bookkeeping'): Statement {
    const s = this.conn.prepared(sql, kind);
    if (!this.conn.busy) return s;
    if (insideTransaction?.getStore() === this.conn) throw new Error(`the connection's own handle was used inside its transaction: ${sql}`);
    return new WaitingStatement(s, this.conn);
  }

  transactionOpen(): boolean {
    return false;
  }

  /** Closes at once when no transaction is open, as better-sqlite3 does; otherwise once it has ended. */
  close(): Promise<void> {
    if (!this.conn.busy) {
      this.conn.sqlite.close();
      return Promise.resolve();
    }
    return this.conn.idle().then(() => this.close());
  }

  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    if (this.conn.busy && insideTransaction?.getStore() === this.conn) throw new Error("the connection's own handle began a transaction inside its transaction");
    return this.conn.begin(fn);
  }

  generation(): string {
    return sqliteGeneration(this.conn);
  }

  beginRequestReads(): void {
    this.conn.version = undefined;
  }
}

/** An open transaction's handle. */
class SqliteTransaction implements Db {
  readonly dialect = 'sqlite';
  readonly inTransaction = true;

  constructor(private readonly conn: SqliteConnection) {}

  get sqlite(): Database.Database {
    return this.conn.sqlite;
  }

  statement(sql: string, kind: 'data' | 'bookkeeping'): Statement {
    return this.conn.prepared(sql, kind);
  }

  transactionOpen(): boolean {
    return this.conn.sqlite.inTransaction;
  }

  close(): Promise<void> {
    throw new Error('a transaction cannot close its connection');
  }

  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.conn.savepoint(fn, this);
  }

  generation(): string {
    return sqliteGeneration(this.conn);
  }

  beginRequestReads(): void {
    this.conn.version = undefined;
  }
}

/**
 * Changes whenever account data may have changed: a write of this connection through stmt() (except
 * bookkeeping), or a commit of any other connection (`PRAGMA data_version`), such as a second server
 * process on the same file. Reads cached under one generation are valid while it lasts.
 */
function sqliteGeneration(conn: SqliteConnection): string {
  return `${conn.generation}:${dataVersion(conn)}`;
}

export function dataGeneration(db: Db): string {
  return db.generation();
}

/** How long a `PRAGMA data_version` read is reused while no request begins. */
const VERSION_REUSE_MS = 10;

/**
 * Called as each request begins: the next dataGeneration reads `PRAGMA data_version` again, so the
 * request sees every commit another process made before it began. Until then, a value read after
 * the latest request began is reused (each read is a read transaction: a few system calls), for at
 * most VERSION_REUSE_MS, which also bounds how stale work outside requests may see it.
 */
export function beginRequestReads(db: Db): void {
  db.beginRequestReads();
}

function dataVersion(conn: SqliteConnection): number {
  const now = performance.now();
  const known = conn.version;
  if (known && now - known.readAt < VERSION_REUSE_MS) return known.version;
  const version = conn.sqlite.pragma('data_version', { simple: true }) as number;
  conn.version = { version, readAt: now };
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
