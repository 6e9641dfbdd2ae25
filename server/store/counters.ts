import { stmt, type Db } from './db.js';

/** Storage of limit counters. Callers run these inside one immediate transaction per request. */

export async function windowCount(db: Db, limitId: string, subject: string, windowStart: number): Promise<number> {
  const row = await stmt(db, 'SELECT count FROM counters WHERE limit_id = ? AND subject = ? AND window_start = ?')
    .get(limitId, subject, windowStart) as { count: number } | undefined;
  return row?.count ?? 0;
}

export async function addToWindow(db: Db, limitId: string, subject: string, windowStart: number, by = 1): Promise<void> {
  await stmt(db, 
    `INSERT INTO counters (limit_id, subject, window_start, count) VALUES (?, ?, ?, ?)
     ON CONFLICT (limit_id, subject, window_start) DO UPDATE SET count = counters.count + excluded.count`,
    'bookkeeping',
  ).run(limitId, subject, windowStart, by);
}

/** Takes back what addToWindow counted; a window is never counted below zero. */
export async function subtractFromWindow(db: Db, limitId: string, subject: string, windowStart: number, by = 1): Promise<void> {
  await stmt(db, 'UPDATE counters SET count = CASE WHEN count > ? THEN count - ? ELSE 0 END WHERE limit_id = ? AND subject = ? AND window_start = ?', 'bookkeeping').run(
    by,
    by,
    limitId,
    subject,
    windowStart,
  );
}

/** The start of the newest anchored window of a subject, if any. */
export async function latestWindowStart(db: Db, limitId: string, subject: string): Promise<number | undefined> {
  const row = await stmt(db, 'SELECT MAX(window_start) AS start FROM counters WHERE limit_id = ? AND subject = ?')
    .get(limitId, subject) as { start: number | null };
  return row.start ?? undefined;
}

export async function eventsSince(db: Db, limitId: string, subject: string, since: number): Promise<number> {
  const row = await stmt(db, 'SELECT COUNT(*) AS n FROM counter_events WHERE limit_id = ? AND subject = ? AND at > ?')
    .get(limitId, subject, since) as { n: number };
  return row.n;
}

export async function oldestEventSince(db: Db, limitId: string, subject: string, since: number): Promise<number | undefined> {
  const row = await stmt(db, 'SELECT MIN(at) AS at FROM counter_events WHERE limit_id = ? AND subject = ? AND at > ?')
    .get(limitId, subject, since) as { at: number | null };
  return row.at ?? undefined;
}

export async function addEvent(db: Db, limitId: string, subject: string, at: number): Promise<void> {
  await stmt(db, 'INSERT INTO counter_events (limit_id, subject, at) VALUES (?, ?, ?)', 'bookkeeping').run(limitId, subject, at);
}

/** Takes back one event addEvent recorded at `at`. */
export async function removeEvent(db: Db, limitId: string, subject: string, at: number): Promise<void> {
  await stmt(db, 'DELETE FROM counter_events WHERE rowid = (SELECT rowid FROM counter_events WHERE limit_id = ? AND subject = ? AND at = ? LIMIT 1)', 'bookkeeping').run(
    limitId,
    subject,
    at,
  );
}

/** Drops windows and events that can no longer matter, so the tables stay small. */
export async function pruneCounters(db: Db, before: number): Promise<void> {
  await stmt(db, 'DELETE FROM counters WHERE window_start < ?', 'bookkeeping').run(before);
  await stmt(db, 'DELETE FROM counter_events WHERE at < ?', 'bookkeeping').run(before);
}
