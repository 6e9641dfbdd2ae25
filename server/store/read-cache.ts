import { dataGeneration, stmt, type Db } from './db.js';

/**
 * Reads kept while the data they came from is unchanged (see dataGeneration). Never used inside a
 * transaction, where a read may see writes that are later rolled back. Holds no secrets: callers
 * cache tokens and metadata only.
 *
 * A read may name the scope of the data it depends on (migration 0006-data-scopes: `account:<id>`,
 * `keys`, `registry`). Once the data generation moved, such a read is still good when its scope's
 * version has not: a write to one account leaves every other account's reads, and the registry's,
 * standing. A read without a scope ends with any change.
 */
interface Entry {
  generation: string;
  scope?: string;
  version?: number;
  value: unknown;
}

const caches = new WeakMap<Db, Map<string, Entry>>();
const MAX_ENTRIES = 1000;
/**
 * The reads of each key under way: a kept part is updated in place, so two updates of one part
 * never run at once; the second waits for the first, then finds its result or updates it again.
 */
const underWay = new WeakMap<Db, Map<string, Promise<unknown>>>();

/** A kept part's change in place: the part as it now is, given the rows recorded as changed since it was read. */
export type PartUpdate<T> = (kept: T, changed: string[]) => Promise<T>;

/** The most changed rows a part takes in place; past them, reading it whole costs less. */
const MAX_CHANGED_ROWS = 64;

export function cachedRead<T>(db: Db, key: string, read: () => Promise<T>, scope?: string, update?: PartUpdate<T>): Promise<T> {
  if (db.inTransaction) return read();
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && hit.generation === dataGeneration(db)) return Promise.resolve(hit.value as T);
  let reads = underWay.get(db);
  if (!reads) underWay.set(db, (reads = new Map()));
  const before = reads.get(key);
  if (before) return before.then(noop, noop).then(() => cachedRead(db, key, read, scope, update));
  const reading = readAndKeep(db, cache, key, read, scope, update).finally(() => reads.delete(key));
  reads.set(key, reading);
  return reading;
}

const noop = () => undefined;

async function readAndKeep<T>(db: Db, cache: Map<string, Entry>, key: string, read: () => Promise<T>, scope?: string, update?: PartUpdate<T>): Promise<T> {
  const generation = dataGeneration(db);
  const hit = cache.get(key);
  // The scope's version is read before the data, never after: data newer than its version is read
  // again next time, while the reverse would keep stale data.
  const version = scope === undefined ? undefined : await scopeVersion(db, scope, generation);
  if (hit && scope !== undefined && hit.scope === scope && hit.version === version) {
    hit.generation = generation;
    return hit.value as T;
  }
  const changed = update && hit && scope !== undefined && hit.scope === scope ? await changedRows(db, scope, hit.version!) : undefined;
  const value = changed ? await update!(hit!.value as T, changed) : await read();
  cache.delete(key);
  // Oldest first: a Map iterates in insertion order, and a refreshed entry is inserted again.
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { generation, ...(scope !== undefined ? { scope, version } : {}), value });
  return value;
}

/**
 * The rows of a part recorded as changed since `version` (migration 0009-row-versions), or
 * undefined when there are too many, or none although the version moved (rows gone with their
 * account): the part is then read whole. Read after the scope's version, as the data is.
 */
async function changedRows(db: Db, scope: string, version: number): Promise<string[] | undefined> {
  // The limit is written into the statement: bound as a parameter, it made the query several times slower.
  const rows = (await stmt(db, `SELECT row_id FROM row_versions WHERE scope = ? AND version > ? LIMIT ${MAX_CHANGED_ROWS + 1}`)
    .pluck()
    .all(scope, version)) as string[];
  return rows.length > 0 && rows.length <= MAX_CHANGED_ROWS ? rows : undefined;
}

/** The versions of scopes read under one data generation: each is read once per generation. */
const versions = new WeakMap<Db, { generation: string; byScope: Map<string, number> }>();

async function scopeVersion(db: Db, scope: string, generation: string): Promise<number> {
  let known = versions.get(db);
  if (!known || known.generation !== generation) versions.set(db, (known = { generation, byScope: new Map() }));
  let version = known.byScope.get(scope);
  if (version === undefined) {
    const account = PART_SCOPE.exec(scope)?.[1];
    if (account === undefined) {
      version = ((await stmt(db, 'SELECT version FROM data_scopes WHERE scope = ?').pluck().get(scope)) as number | undefined) ?? 0;
      known.byScope.set(scope, version);
    } else {
      // A catalog built again looks at each part of its account: they are read at once. The
      // account's own scope is read alone, as a kept answer still good needs nothing more.
      const all = PARTS.map((part) => scopes.part(part, account));
      const found = new Map((await stmt(db, `SELECT scope, version FROM data_scopes WHERE scope IN (${all.map(() => '?').join(', ')})`).raw().all(...all)) as [string, number][]);
      for (const s of all) known.byScope.set(s, found.get(s) ?? 0);
      version = known.byScope.get(scope)!;
    }
  }
  return version;
}

const PARTS = ['logins', 'cards', 'profile', 'tokens'] as const;
const PART_SCOPE = new RegExp(`^(?:${PARTS.join('|')}):(.+)$`, 's');

/** The scopes the triggers of migration 0006-data-scopes raise; spelled here once for the readers. */
export const scopes = {
  account: (accountId: string) => `account:${accountId}`,
  /** One part of an account's data, of which the catalog is built. */
  part: (part: (typeof PARTS)[number], accountId: string) => `${part}:${accountId}`,
  keys: 'keys',
  registry: 'registry',
} as const;
