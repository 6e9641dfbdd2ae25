import { dataGeneration, type Db } from './db.js';

/**
 * Reads kept while the data they came from is unchanged (see dataGeneration). Never used inside a
 * transaction, where a read may see writes that are later rolled back. Holds no secrets: callers
 * cache tokens and metadata only.
 */
const caches = new WeakMap<Db, Map<string, { generation: string; value: unknown }>>();
const MAX_ENTRIES = 1000;

export function cachedRead<T>(db: Db, key: string, read: () => T): T {
  if (db.inTransaction) return read();
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const generation = dataGeneration(db);
  const hit = cache.get(key);
  if (hit && hit.generation === generation) return hit.value as T;
  const value = read();
  cache.delete(key);
  // Oldest first: a Map iterates in insertion order, and a refreshed entry is inserted again.
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { generation, value });
  return value;
}
