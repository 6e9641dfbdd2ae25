// A replica that starts while its database is slow or away must keep running: the deliveries an
// earlier stop cut off are settled later (on the next listing), never by ending the process.
import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract.js';
import { StoreUnavailableError, type Db, type Statement } from '../store/db.js';
import { webhookFormat } from '../webhooks/format.js';
import { WebhookSender } from '../webhooks/sender.js';
import { ManualClock } from '../domain/clock.js';

function unreachable(): Db {
  const refuse = () => Promise.reject(new StoreUnavailableError('the database cannot be reached'));
  const statement: Statement = { get: refuse, all: refuse, run: refuse, pluck: () => statement, raw: () => statement };
  return {
    dialect: 'postgres',
    inTransaction: false,
    statement: () => statement,
    transactionOpen: () => false,
    transaction: refuse,
    close: () => Promise.resolve(),
    generation: () => '0',
    beginRequestReads: () => undefined,
  };
}

describe('the webhook sender on a database that cannot be reached', () => {
  it('when it starts, then settling the cut-off deliveries fails quietly and leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const db = unreachable();
      const sender = new WebhookSender({ db, clock: new ManualClock(0), format: webhookFormat(loadContract()), allowLoopback: false });
      // Unhandled rejections are reported after the microtask queue drains; give it several turns.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      // Asked directly, the same failure still reaches the caller, who answers 503.
      await expect(sender.settleOverdue()).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
