import { transaction, type Db } from './db.js';

/** One part of a group commit: a request's write, or the limiter's charges of one turn. */
export interface CommitStep {
  /**
   * Runs inside the shared transaction, in a savepoint of its own, through `tx`. May run more than
   * once (a transaction retried after a conflict): it only settles in the two calls below.
   */
  run(tx: Db): Promise<void>;
  /** After the commit: what the step wrote is stored. */
  committed(): void;
  /** What the step wrote was rolled back: its own error, or the whole transaction's. */
  failed(err: unknown): void;
}

/**
 * A group commit: the steps that arrive in one event-loop turn run in one immediate transaction,
 * each in its own savepoint and in arrival order, and settle after its commit. A step that throws
 * rolls back alone and the others go on; a transaction SQLite has ended itself (a full disk) or a
 * commit that fails fails them all. The commit is a large part of what a small write costs, and
 * under load a turn holds the writes of many requests.
 */
class GroupCommit {
  private steps: CommitStep[] = [];
  /** Flushes scheduled and not yet run. */
  private scheduled = 0;

  constructor(private readonly db: Db) {}

  /**
   * Two flushes are scheduled at once, so both run in the same turn: the first commits the steps
   * queued so far (the charges of the requests just read); the second, the steps its settlements
   * queued at once (the write of a request whose charge it committed and whose body had arrived).
   * That write is answered in the turn its request arrived in, before the connection is read
   * again: a client that sent its request and closed its side still reads the answer.
   */
  add(step: CommitStep): void {
    if (this.steps.push(step) > 1 || this.scheduled > 0) return;
    this.scheduled = 2;
    setImmediate(() => this.scheduledFlush());
    setImmediate(() => this.scheduledFlush());
  }

  private scheduledFlush(): void {
    this.scheduled--;
    if (this.steps.length > 0) void this.flush();
  }

  private async flush(): Promise<void> {
    const steps = this.steps;
    this.steps = [];
    // Each step settles once the transaction has ended: one rolled back alone with its own error.
    const failedAlone = new Map<CommitStep, unknown>();
    try {
      await transaction(this.db, async (tx) => {
        failedAlone.clear();
        for (const step of steps) {
          try {
            await transaction(tx, (savepoint) => step.run(savepoint));
          } catch (err) {
            if (!tx.transactionOpen()) throw err;
            failedAlone.set(step, err);
          }
        }
      });
    } catch (err) {
      for (const step of steps) step.failed(failedAlone.has(step) ? failedAlone.get(step) : err);
      return;
    }
    for (const step of steps) {
      if (failedAlone.has(step)) step.failed(failedAlone.get(step));
      else step.committed();
    }
  }
}

const shared = new WeakMap<Db, GroupCommit>();

/** The connection's group commit. */
export function groupCommit(db: Db): GroupCommit {
  let commit = shared.get(db);
  if (!commit) shared.set(db, (commit = new GroupCommit(db)));
  return commit;
}

/**
 * Runs `write` in the connection's next group commit and settles with its result once that has
 * committed, or with its error (nothing of it written). An answer sent then is durable as one
 * sent after the write's own commit.
 */
export function writeInGroupCommit<T>(db: Db, write: (tx: Db) => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let result: T;
    // Methods, not named arrows: the TypeScript loader would name each closure anew on every write.
    groupCommit(db).add({
      async run(tx: Db) {
        result = await write(tx);
      },
      committed() {
        resolve(result);
      },
      failed(err: unknown) {
        reject(err);
      },
    });
  });
}
