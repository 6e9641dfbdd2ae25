import pg from 'pg';
import { knownVersion, SchemaTooNewError, StoreUnavailableError, type Db, type RunResult, type Statement } from './db.js';
import { migrationFiles } from './migration-files.js';

/**
 * The PostgreSQL driver of the store (docs/postgres.md): a pool of connections, statements in the
 * store's SQL (`?` and `@name` parameters numbered once per text), transactions at SERIALIZABLE run
 * again on a serialization failure or a deadlock, and a database that cannot be reached reported as
 * StoreUnavailableError, which the HTTP layer answers with 503 and Retry-After.
 */


/** Any constant: the key of the advisory lock that lets one replica migrate at a time. */
const MIGRATION_LOCK = 7_361_442_019;

/**
 * How often a transaction is run again after a serialization failure before the request gives up
 * with 503. Each round of conflicting writes commits at least one of them, so a burst of writes to
 * one account (a fixture filling it to its ceiling) needs about as many rounds as it has writes.
 */
const MAX_ATTEMPTS = 200;
/** The longest wait between two attempts; the wait is random up to a bound that doubles from 1 ms. */
const MAX_BACKOFF_MS = 100;

export interface PostgresOptions {
  /** `postgres://user@host:port/database` */
  url: string;
  /** Connections of this process; replicas × this must stay under the server's max_connections. */
  poolSize?: number;
  /** How long a request waits for a connection before it is answered 503. */
  connectTimeoutMs?: number;
  /** How long one statement may run before it is abandoned (and the request answered 503). */
  statementTimeoutMs?: number;
  /** Runs on a database that already has a schema, before any migration (the master-key check). */
  beforeMigrate?: (db: Db) => Promise<void>;
}

// 64-bit integers (times, counts) and sums come back as numbers, as SQLite gives them.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** The store's SQL as PostgreSQL takes it: each `?` and each `@name` becomes `$n`, outside quoted text. */
interface Compiled {
  text: string;
  /** For `@name` parameters: the name of each `$n`, in order. */
  names?: string[];
  name: string;
  countsAsWrite: boolean;
}

const WRITE = /^\s*(INSERT|UPDATE|DELETE)\b/i;
let statementSerial = 0;

export function compile(sql: string, kind: 'data' | 'bookkeeping'): Compiled {
  let text = '';
  let n = 0;
  const names: string[] = [];
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      text += sql.slice(i, end + 1);
      i = end;
    } else if (c === '?') {
      text += `$${++n}`;
    } else if (c === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))![0];
      let at = names.indexOf(name);
      if (at < 0) at = names.push(name) - 1;
      text += `$${at + 1}`;
      i += name.length;
    } else {
      text += c;
    }
  }
  return { text, ...(names.length > 0 ? { names } : {}), name: `vault_${++statementSerial}`, countsAsWrite: kind === 'data' && WRITE.test(sql) };
}

function valuesOf(compiled: Compiled, params: unknown[]): unknown[] {
  if (!compiled.names) return params;
  const named = params[0] as Record<string, unknown>;
  return compiled.names.map((n) => named[n]);
}

type Mode = 'rows' | 'pluck' | 'raw';

/** Something that runs a query: the pool (outside transactions) or a transaction's connection. */
interface Runner {
  run(compiled: Compiled, values: unknown[], array: boolean): Promise<pg.QueryResult>;
  wrote(): void;
}

class PgStatement implements Statement {
  constructor(
    private readonly runner: Runner,
    private readonly compiled: Compiled,
    private readonly mode: Mode,
  ) {}

  private async rows(params: unknown[]): Promise<unknown[]> {
    const result = await this.runner.run(this.compiled, valuesOf(this.compiled, params), this.mode !== 'rows');
    if (this.compiled.countsAsWrite) this.runner.wrote();
    return this.mode === 'pluck' ? (result.rows as unknown[][]).map((r) => r[0]) : result.rows;
  }

  async get(...params: unknown[]): Promise<unknown> {
    return (await this.rows(params))[0];
  }

  all(...params: unknown[]): Promise<unknown[]> {
    return this.rows(params);
  }

  async run(...params: unknown[]): Promise<RunResult> {
    const result = await this.runner.run(this.compiled, valuesOf(this.compiled, params), false);
    if (this.compiled.countsAsWrite) this.runner.wrote();
    return { changes: result.rowCount ?? 0 };
  }

  pluck(): Statement {
    return new PgStatement(this.runner, this.compiled, 'pluck');
  }

  raw(): Statement {
    return new PgStatement(this.runner, this.compiled, 'raw');
  }
}

/** SQLSTATEs after which the whole transaction runs again. */
const RETRY = new Set(['40001', '40P01']);

/**
 * Whether an error says the database cannot be reached or will not serve now: a refused or broken
 * connection, a server shutting down or starting, too many connections, a statement abandoned.
 */
export function isUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | undefined;
  const code = e?.code ?? '';
  if (code.startsWith('08') || code.startsWith('57P') || code === '53300' || code === '57014') return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout|connection timeout/i.test(e?.message ?? '');
}

/** The error a request is answered with: 503 for a database out of reach, or busy past every retry. */
function unavailableOr(err: unknown): unknown {
  if (isUnavailable(err)) return new StoreUnavailableError('the database cannot be reached', { cause: err });
  if (RETRY.has((err as { code?: string }).code ?? '')) return new StoreUnavailableError('the database is too busy to serialise this write', { cause: err });
  return err;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pool's own handle: each statement on any free connection, outside any transaction. */
export class PostgresDb implements Db, Runner {
  readonly dialect = 'postgres';
  readonly inTransaction = false;
  private readonly statements = new Map<string, Compiled>();
  private writes = 0;
  private requests = 0;
  /** Transactions run again after a conflict, since start: the bench and the tests read it. */
  retries = 0;
  /** The end of the last transaction asked for: this process runs its transactions one at a time. */
  private last: Promise<unknown> = Promise.resolve();

  constructor(readonly pool: pg.Pool) {}

  compiled(sql: string, kind: 'data' | 'bookkeeping'): Compiled {
    let c = this.statements.get(sql);
    if (!c) this.statements.set(sql, (c = compile(sql, kind)));
    return c;
  }

  statement(sql: string, kind: 'data' | 'bookkeeping'): Statement {
    return new PgStatement(this, this.compiled(sql, kind), 'rows');
  }

  async run(compiled: Compiled, values: unknown[], array: boolean): Promise<pg.QueryResult> {
    try {
      return await this.pool.query({ name: compiled.name, text: compiled.text, values, ...(array ? { rowMode: 'array' as const } : {}) });
    } catch (err) {
      throw unavailableOr(err);
    }
  }

  wrote(): void {
    this.writes++;
  }

  transactionOpen(): boolean {
    return false;
  }

  /**
   * Runs `fn` in a SERIALIZABLE transaction on a connection of its own. A serialization failure or
   * a deadlock, in any statement or in the commit, rolls it back and runs `fn` again after a short
   * random wait; nothing of a failed attempt is kept. This process's transactions run one after
   * another, as on SQLite's one connection (the writes of a turn share one, store/group-commit.ts):
   * the writes of one replica never conflict with each other, and only another replica's can make
   * one run again. Reads outside transactions run at once, on any free connection.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    const run = this.last.then(() => this.attempts(fn));
    this.last = run.catch(() => undefined);
    return run;
  }

  private async attempts<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (err) {
        throw unavailableOr(err);
      }
      try {
        await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
        const result = await fn(new PostgresTransaction(this, client));
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (err) {
        // A connection that cannot even roll back is broken: the pool drops it.
        const broken = await client.query('ROLLBACK').then(
          () => undefined,
          (e: Error) => e,
        );
        client.release(broken);
        if (!RETRY.has((err as { code?: string }).code ?? '') || attempt >= MAX_ATTEMPTS) throw unavailableOr(err);
        this.retries++;
        await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt));
      }
    }
  }

  generation(): string {
    return `${this.writes}:${this.requests}:${Math.floor(performance.now() / VERSION_REUSE_MS)}`;
  }

  beginRequestReads(): void {
    this.requests++;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * How long versions read for one request are reused by work outside requests; a request always
 * reads them again (beginRequestReads), so it sees every write acknowledged before it began.
 */
const VERSION_REUSE_MS = 10;

/** An open transaction's handle: its statements run on its own connection, in order. */
class PostgresTransaction implements Db, Runner {
  readonly dialect = 'postgres';
  readonly inTransaction = true;
  /** An error after which the transaction can only roll back (a serialization failure, a lost connection). */
  private doomed: unknown;
  private savepoints = 0;

  constructor(
    private readonly root: PostgresDb,
    private readonly client: pg.PoolClient,
  ) {}

  statement(sql: string, kind: 'data' | 'bookkeeping'): Statement {
    return new PgStatement(this, this.root.compiled(sql, kind), 'rows');
  }

  async run(compiled: Compiled, values: unknown[], array: boolean): Promise<pg.QueryResult> {
    try {
      return await this.client.query({ name: compiled.name, text: compiled.text, values, ...(array ? { rowMode: 'array' as const } : {}) });
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (RETRY.has(code) || isUnavailable(err)) this.doomed = err;
      throw err;
    }
  }

  wrote(): void {
    this.root.wrote();
  }

  transactionOpen(): boolean {
    return this.doomed === undefined;
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    const name = `s${++this.savepoints}`;
    await this.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await fn(this);
      await this.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      if (this.doomed === undefined) {
        await this.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
        await this.client.query(`RELEASE SAVEPOINT ${name}`);
      }
      throw err;
    } finally {
      this.savepoints--;
    }
  }

  generation(): string {
    return this.root.generation();
  }

  beginRequestReads(): void {}

  close(): Promise<void> {
    throw new Error('a transaction cannot close its connection');
  }
}

const migrations = () => migrationFiles('postgres');

/** The newest migration of this dialect: the same number as SQLite's, or the two have drifted. */
export function knownPostgresVersion(): number {
  const all = migrations();
  return all.length === 0 ? 0 : all[all.length - 1]!.version;
}

async function schemaVersion(client: pg.PoolClient | pg.Pool): Promise<number> {
  const exists = await client.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
  if (!exists.rows[0].present) return 0;
  const row = await client.query('SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations');
  return Number(row.rows[0].version);
}

/**
 * Applies the migrations not yet applied, each in a transaction with its version row. Replicas
 * that start at once queue on an advisory lock held by the migrating transaction: the first applies
 * each step, the others then find it applied.
 */
async function migrate(pool: pg.Pool): Promise<void> {
  for (const m of migrations()) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
      const current = await schemaVersion(client);
      if (current > knownPostgresVersion()) throw new SchemaTooNewError(current, knownPostgresVersion());
      if (m.version > current) {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}

/** Whether the database already holds this server's schema (and so data written under a master key). */
export async function postgresHasSchema(url: string): Promise<boolean> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return (await schemaVersion(pool)) > 0;
  } finally {
    await pool.end();
  }
}

/**
 * Connects, checks (`beforeMigrate`) and migrates. Throws SchemaTooNewError, before changing
 * anything, when the database was written by a newer server.
 */
export async function openPostgres(options: PostgresOptions): Promise<PostgresDb> {
  if (knownPostgresVersion() !== knownVersion()) throw new Error(`the PostgreSQL migrations end at ${knownPostgresVersion()} and SQLite's at ${knownVersion()}`);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
    statement_timeout: options.statementTimeoutMs ?? 5000,
    query_timeout: (options.statementTimeoutMs ?? 5000) + 1000,
    types,
  });
  // A connection the server ends (a restart) is an error on the idle client: the pool drops it and
  // makes another when one is needed, so the process keeps running.
  pool.on('error', () => undefined);
  const db = new PostgresDb(pool);
  try {
    const current = await schemaVersion(pool);
    if (current > knownPostgresVersion()) throw new SchemaTooNewError(current, knownPostgresVersion());
    if (current > 0) await options.beforeMigrate?.(db);
    await migrate(pool);
    return db;
  } catch (err) {
    await pool.end();
    throw err;
  }
}
