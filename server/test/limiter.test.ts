import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type SqliteStore } from '../store/db.js';
import { loadContract, type LimitDef } from '../contract.js';
import { ManualClock } from '../domain/clock.js';
import { Limiter, type LimitCheck } from '../domain/limiter.js';
import { ApiError } from '../domain/errors.js';

const contract = loadContract();
const perKey = contract.limit('catalog-per-key');
const perAccount = contract.limit('catalog-per-account');
const dirs: string[] = [];
const dbs: SqliteStore[] = [];

afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fileDb(dir = mkdtempSync(join(tmpdir(), 'vault-limiter-'))): { db: SqliteStore; dir: string } {
  if (!dirs.includes(dir)) dirs.push(dir);
  const db = openDb(join(dir, 'v.db'));
  dbs.push(db);
  return { db, dir };
}

function limiter(db: SqliteStore, clock: ManualClock, overrides: Record<string, number> = {}): Limiter {
  return new Limiter(db, clock, contract, { overrides });
}

const checks = (key: string, account = 'acc'): LimitCheck[] => [
  { limit: perKey, subject: key, plan: 'Free' },
  { limit: perAccount, subject: account, plan: 'Free' },
];

function counted(db: SqliteStore, limitId: string, subject: string): number {
  const row = db.sqlite.prepare('SELECT SUM(count) AS n FROM counters WHERE limit_id = ? AND subject = ?').get(limitId, subject) as { n: number | null };
  return row.n ?? 0;
}

/** Settles every charge, in order: 'ok' or the refusal's code. */
const outcomes = (charges: Promise<unknown>[]) =>
  Promise.all(charges.map((c) => c.then(() => 'ok', (err: unknown) => (err instanceof ApiError ? err.code : String(err)))));

describe('limiter', () => {
  it('when more charges than the limit arrive in one turn, then exactly the limit is admitted, in order, and refusals count nothing', async () => {
    const { db } = fileDb();
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 10));
    const l = limiter(db, clock, { 'catalog-per-key': 3 });
    const results = await outcomes(Array.from({ length: 5 }, () => l.consume(checks('k1'))));
    expect(results).toEqual(['ok', 'ok', 'ok', 'rate_limited', 'rate_limited']);
    expect(counted(db, perKey.id, 'k1')).toBe(3);
    expect(counted(db, perAccount.id, 'acc')).toBe(3);
    // Another key of the same account still has its own allowance; the account's is shared.
    expect(await outcomes([l.consume(checks('k2'))])).toEqual(['ok']);
    expect(counted(db, perAccount.id, 'acc')).toBe(4);
  });

  it('when a refusal is given, then Retry-After is the time to the end of the fixed window, at least 1 second', async () => {
    const { db } = fileDb();
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 10, 500));
    const l = limiter(db, clock, { 'catalog-per-key': 1 });
    await l.consume(checks('k1'));
    const refusal = await l.consume(checks('k1')).then(
      () => undefined,
      (err: ApiError) => err,
    );
    expect(refusal?.status).toBe(429);
    expect(refusal?.extra.retryAfter).toBe(50);
    clock.advance(49_500);
    expect(await outcomes([l.consume(checks('k1'))])).toEqual(['ok']);
  });

  it('when one charge of a turn fails for another reason than a limit, then the whole turn is refused and nothing is counted', async () => {
    const { db } = fileDb();
    const clock = new ManualClock();
    const l = limiter(db, clock);
    const broken: LimitDef = { ...perKey, id: 'broken', window: undefined };
    const results = await outcomes([l.consume(checks('k1')), l.consume([{ limit: broken, subject: 'k1', plan: 'Free' }]), l.consume(checks('k2'))]);
    expect(results.every((r) => r.includes('has no window'))).toBe(true);
    expect(counted(db, perKey.id, 'k1')).toBe(0);
    expect(counted(db, perKey.id, 'k2')).toBe(0);
    // The next turn is a new transaction.
    expect(await outcomes([l.consume(checks('k1'))])).toEqual(['ok']);
  });

  it('when two connections share the file and charge in the same turn, then the limit holds across both', async () => {
    const { db: a, dir } = fileDb();
    const { db: b } = fileDb(dir);
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 10));
    const la = limiter(a, clock, { 'catalog-per-key': 7 });
    const lb = limiter(b, clock, { 'catalog-per-key': 7 });
    const results = await outcomes(Array.from({ length: 10 }, (_, i) => (i % 2 ? la : lb).consume(checks('k1'))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(7);
    expect(results.filter((r) => r === 'rate_limited')).toHaveLength(3);
    expect(counted(a, perKey.id, 'k1')).toBe(7);
  });

  it('when a charge is refunded, then what it counted is taken back, before any charge queued after it, never below zero', async () => {
    const { db } = fileDb();
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 10));
    const l = limiter(db, clock, { 'catalog-per-key': 2 });
    const first = await l.consume(checks('k1'));
    await l.consume(checks('k1'));
    expect(counted(db, perKey.id, 'k1')).toBe(2);
    // Refunded in the same turn as the next charge, and queued before it: the charge fits.
    l.refund(first);
    expect(await outcomes([l.consume(checks('k1'))])).toEqual(['ok']);
    expect([counted(db, perKey.id, 'k1'), counted(db, perAccount.id, 'acc')]).toEqual([2, 2]);
    expect(await outcomes([l.consume(checks('k1'))])).toEqual(['rate_limited']);
    // A window that was pruned or already taken back stays at zero.
    const lone = await l.consume(checks('k9', 'acc9'));
    l.refund(lone);
    l.refund(lone);
    await l.consume(checks('k8', 'acc8'));
    expect(counted(db, perKey.id, 'k9')).toBe(0);
  });

  it('when a charge on a rolling window is refunded, then its one event is removed', async () => {
    const { db } = fileDb();
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 10));
    const l = limiter(db, clock);
    const rolling = contract.limit('recipe-submissions-per-account');
    expect(rolling.window?.type).toBe('rolling');
    const events = () => (db.sqlite.prepare('SELECT COUNT(*) AS n FROM counter_events WHERE subject = ?').get('acc') as { n: number }).n;
    await l.consume([{ limit: rolling, subject: 'acc', plan: 'Free' }]);
    const second = await l.consume([{ limit: rolling, subject: 'acc', plan: 'Free' }]);
    expect(events()).toBe(2);
    l.refund(second);
    await l.consume(checks('k1'));
    expect(events()).toBe(1);
  });

  it('when windows are older than the longest limit window, then they are pruned, and live windows are kept', async () => {
    const { db } = fileDb();
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 10));
    const l = limiter(db, clock);
    const rows = () => (db.sqlite.prepare('SELECT COUNT(*) AS n FROM counters').get() as { n: number }).n;
    await l.consume(checks('k1'));
    const longest = Math.max(...[...contract.limits.values()].map((d) => d.window?.seconds ?? 0)) * 1000;
    expect(longest).toBeGreaterThan(60_000);
    clock.advance(longest - 60_000);
    await l.consume(checks('k1'));
    // The first window is still within the longest window: kept.
    expect(rows()).toBe(4);
    // Pruning runs at most every 10 minutes; 11 minutes on, the first window is past the longest one.
    clock.advance(11 * 60_000);
    await l.consume(checks('k1'));
    expect(rows()).toBe(4);
    expect(counted(db, perKey.id, 'k1')).toBe(2);
  });
});
