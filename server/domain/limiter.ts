import type { Db } from '../store/db.js';
import { groupCommit } from '../store/group-commit.js';
import * as counters from '../store/counters.js';
import type { Contract, LimitDef, PlanName } from '../contract.js';
import type { Clock } from './clock.js';
import { ApiError } from './errors.js';

/** One limit applied to one subject (a key id or an account id). */
export interface LimitCheck {
  limit: LimitDef;
  subject: string;
  plan: PlanName;
}

export interface LimitSettings {
  /** Deployment settings: limit id → value that replaces the document's default. */
  overrides: Record<string, number>;
}

const REFUSAL_MESSAGES: Record<string, string> = {
  rate_limited: 'Rate limit reached; retry later.',
  daily_limit: "The account's credential-change budget for this 24-hour window is spent.",
};

/**
 * What one charge counted, to take back (`Limiter.refund`) when the request it counted is refused
 * after all: section 8.1 item 4, "a refused request records nothing". Taken back inside a later
 * batch, through that batch's tally when it has one.
 */
export interface Counted {
  readonly undo: (tx: Db, tally?: WindowTally) => Promise<void>;
}

interface QueuedCharge {
  checks: LimitCheck[];
  resolve(counted: Counted): void;
  reject(err: unknown): void;
}

type Queued = QueuedCharge | Counted;

/** One limit's count for one subject, read in a transaction, and how to change it there or later. */
interface Plan {
  check: LimitCheck;
  max: number;
  used: number;
  retryAt: number;
  charge(by: number): Promise<void>;
  uncharge(later: Db, by: number, laterTally?: WindowTally): Promise<void>;
}

/** How often the limiter drops counters that no window can read any more. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * Rate limits and budgets of section 8. A request is counted against every limit that applies or
 * against none: a refused request records nothing. Every check and charge runs inside an immediate
 * transaction, so concurrent requests and other processes on the same file serialise.
 */
export class Limiter {
  private queue: Queued[] = [];
  private prunedAt = Number.NEGATIVE_INFINITY;
  /** The longest window of any limit: counters older than this can no longer count. */
  private readonly longestWindowMs: number;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly contract: Contract,
    private readonly settings: LimitSettings,
  ) {
    this.longestWindowMs = Math.max(0, ...[...contract.limits.values()].map((l) => (l.window?.seconds ?? 0) * 1000));
  }

  max(limit: LimitDef, plan: PlanName): number {
    const override = this.settings.overrides[limit.id];
    if (override !== undefined) return override;
    if (limit.value !== undefined) return limit.value;
    const planValue = limit.plan ? this.contract.plans[plan]?.[limit.plan] : undefined;
    if (typeof planValue === 'number') return planValue;
    if (planValue === null) return Number.POSITIVE_INFINITY;
    throw new Error(`limit ${limit.id} has no value for plan ${plan}`);
  }

  /**
   * Counts a request against every check, or rejects with the first refusal and counts nothing.
   * The charges of one event-loop turn share one immediate transaction (a group commit, with the
   * writes of the same turn that use it): each is still checked and counted on its own, in arrival
   * order, under the write lock, so each gets the answer it would get alone. Only the commit is
   * shared, and the commit is most of what a charge costs. The promise settles after the commit,
   * so an answered request has been counted.
   */
  consume(checks: LimitCheck[]): Promise<Counted> {
    return new Promise((resolve, reject) => this.enqueue({ checks, resolve, reject }));
  }

  /**
   * Takes back what a charge counted, in the next group commit. Queued behind every charge that
   * arrived before it, so a request sent after a refusal was answered sees it taken back.
   */
  refund(counted: Counted): void {
    this.enqueue(counted);
  }

  private enqueue(item: Queued): void {
    if (this.queue.push(item) !== 1) return;
    const limiter = this;
    let batch: Queued[] | undefined;
    let settled: Map<QueuedCharge, Counted | ApiError> | undefined;
    // One step of the connection's group commit, with the requests' writes of the same turn.
    groupCommit(this.db).add({
      async run(tx: Db) {
        // Run again when the transaction is retried: the batch is taken once.
        batch ??= limiter.takeQueue();
        settled = await limiter.chargeAll(tx, batch);
      },
      committed() {
        for (const [charge, outcome] of settled!) {
          if (outcome instanceof ApiError) charge.reject(outcome);
          else charge.resolve(outcome);
        }
      },
      failed(err: unknown) {
        for (const item of batch ?? limiter.takeQueue()) if ('checks' in item) item.reject(err);
      },
    });
  }

  private takeQueue(): Queued[] {
    const batch = this.queue;
    this.queue = [];
    return batch;
  }

  /** Inside the shared transaction: each charge checked and counted in order, refunds taken back. */
  private async chargeAll(tx: Db, batch: Queued[]): Promise<Map<QueuedCharge, Counted | ApiError>> {
    const settled = new Map<QueuedCharge, Counted | ApiError>();
    await this.pruneNowAndThen(tx);
    const tally = new WindowTally(tx);
    for (const item of batch) {
      if (!('checks' in item)) {
        await item.undo(tx, tally);
        continue;
      }
      try {
        settled.set(item, await this.charge(tx, item.checks, 1, tally));
      } catch (err) {
        // A refusal throws before anything is counted; anything else rolls back this turn's charges.
        if (!(err instanceof ApiError)) throw err;
        settled.set(item, err);
      }
    }
    await tally.write();
    return settled;
  }

  private async pruneNowAndThen(tx: Db): Promise<void> {
    const now = this.clock.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    await counters.pruneCounters(tx, now - this.longestWindowMs);
    this.prunedAt = now;
  }

  /** For callers that charge a budget inside their own write transaction, which a refusal rolls back with it. */
  async consumeInTransaction(tx: Db, checks: LimitCheck[], by = 1): Promise<void> {
    await this.charge(tx, checks, by);
  }

  private async charge(tx: Db, checks: LimitCheck[], by: number, tally?: WindowTally): Promise<Counted> {
    const now = this.clock.now();
    const plans: Plan[] = [];
    for (const c of checks) plans.push(await this.plan(tx, c, now, tally));
    for (const p of plans) {
      if (p.used + by > p.max) throw this.refusal(p.check.limit, p.retryAt, now);
    }
    for (const p of plans) await p.charge(by);
    // Methods, not named arrows: the TypeScript loader would name each closure anew on every charge.
    return {
      async undo(later: Db, laterTally?: WindowTally) {
        for (const p of plans) await p.uncharge(later, by, laterTally);
      },
    };
  }

  /** Whether `by` more would fit, without counting. */
  async fits(tx: Db, checks: LimitCheck[], by = 1): Promise<boolean> {
    const now = this.clock.now();
    for (const c of checks) {
      const p = await this.plan(tx, c, now);
      if (p.used + by > p.max) return false;
    }
    return true;
  }

  private async plan(tx: Db, check: LimitCheck, now: number, tally?: WindowTally): Promise<Plan> {
    const { limit, subject } = check;
    const max = this.max(limit, check.plan);
    const window = limit.window;
    if (!window) throw new Error(`limit ${limit.id} has no window`);
    const span = window.seconds * 1000;
    if (window.type === 'fixed') {
      const start = Math.floor(now / span) * span;
      const counter = tally && (await tally.counter(limit.id, subject, start));
      return {
        check,
        max,
        used: counter ? counter.count : await counters.windowCount(tx, limit.id, subject, start),
        retryAt: start + span,
        async charge(by: number) {
          if (counter) counter.add(by);
          else await counters.addToWindow(tx, limit.id, subject, start, by);
        },
        // Taken back through the tally of the batch that takes it back, when there is one.
        async uncharge(later: Db, by: number, laterTally?: WindowTally) {
          if (laterTally) (await laterTally.counter(limit.id, subject, start)).add(-by);
          else await counters.subtractFromWindow(later, limit.id, subject, start, by);
        },
      };
    }
    if (window.type === 'anchored') {
      const latest = await counters.latestWindowStart(tx, limit.id, subject);
      const live = latest !== undefined && now < latest + span;
      const start = live ? latest! : now;
      return {
        check,
        max,
        used: live ? await counters.windowCount(tx, limit.id, subject, start) : 0,
        retryAt: start + span,
        charge: (by: number) => counters.addToWindow(tx, limit.id, subject, start, by),
        uncharge: (later: Db, by: number) => counters.subtractFromWindow(later, limit.id, subject, start, by),
      };
    }
    const since = now - span;
    const oldest = await counters.oldestEventSince(tx, limit.id, subject, since);
    return {
      check,
      max,
      used: await counters.eventsSince(tx, limit.id, subject, since),
      retryAt: (oldest ?? now) + span,
      charge: async (by: number) => {
        for (let i = 0; i < by; i++) await counters.addEvent(tx, limit.id, subject, now);
      },
      uncharge: async (later: Db, by: number) => {
        for (let i = 0; i < by; i++) await counters.removeEvent(later, limit.id, subject, now);
      },
    };
  }

  private refusal(limit: LimitDef, retryAt: number, now: number): ApiError {
    const code = limit.code ?? 'rate_limited';
    const status = limit.status ?? 429;
    const retryAfter = limit.retryAfter ? Math.max(1, Math.ceil((retryAt - now) / 1000)) : undefined;
    return new ApiError(status, code, REFUSAL_MESSAGES[code] ?? 'Limit reached.', { retryAfter });
  }
}

/**
 * The fixed-window counters of one batch of charges, inside its transaction: each is read once,
 * counted in memory as the charges go, in order, and written once at the end. Each charge sees the
 * count the charges before it left, as it would reading the table, and the table ends where it
 * would; under load a batch holds many requests of the same key and account, and reading and
 * writing their two counters for each request was most of what a request cost the limiter.
 */
export class WindowTally {
  private readonly windows = new Map<string, { limitId: string; subject: string; start: number; count: number; added: number; add(by: number): void }>();

  constructor(private readonly db: Db) {}

  async counter(limitId: string, subject: string, start: number) {
    const id = `${limitId}\n${subject}\n${start}`;
    let counter = this.windows.get(id);
    if (!counter) {
      counter = {
        limitId,
        subject,
        start,
        count: await counters.windowCount(this.db, limitId, subject, start),
        added: 0,
        // A refund never takes a window below zero, as the table's own subtraction does not.
        add(by: number) {
          const next = Math.max(0, this.count + by);
          this.added += next - this.count;
          this.count = next;
        },
      };
      this.windows.set(id, counter);
    }
    return counter;
  }

  async write(): Promise<void> {
    for (const c of this.windows.values()) {
      if (c.added > 0) await counters.addToWindow(this.db, c.limitId, c.subject, c.start, c.added);
      else if (c.added < 0) await counters.subtractFromWindow(this.db, c.limitId, c.subject, c.start, -c.added);
    }
  }
}
