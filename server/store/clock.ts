import { stmt, transaction, type Db } from './db.js';

/**
 * A manual clock's time, kept in the database so that replicas sharing it share one time: the
 * back office moves it on one replica, and every replica reads it as each request begins.
 */

const KEY = 'manual_clock';

/** The stored time, or `start` stored as it when none is yet (the first replica to start sets it). */
export async function startStoredClock(db: Db, start: number): Promise<number> {
  await stmt(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING').run(KEY, Buffer.from(String(start)));
  return readStoredClock(db);
}

export async function readStoredClock(db: Db): Promise<number> {
  const value = (await stmt(db, 'SELECT value FROM meta WHERE key = ?', 'bookkeeping').pluck().get(KEY)) as Buffer | undefined;
  if (!value) throw new Error('the manual clock was never stored');
  return Number(value.toString());
}

/** Moves the stored time on by `ms` and returns it; two moves at once both count. */
export function advanceStoredClock(db: Db, ms: number): Promise<number> {
  return transaction(db, async (tx) => {
    const now = (await readStoredClock(tx)) + ms;
    await stmt(tx, 'UPDATE meta SET value = ? WHERE key = ?', 'bookkeeping').run(Buffer.from(String(now)), KEY);
    return now;
  });
}
