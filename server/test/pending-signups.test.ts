import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { openDb } from '../store/db.js';
import { Sealer } from '../store/secrets.js';
import { openAccount } from '../domain/accounts.js';
import { createKey } from '../store/keys.js';
import { countPending, insertSignupRequest, markDenied, pendingAbove } from '../store/signup-requests.js';

// A filing asks whether the pending ceiling is passed from one row per account (migration
// 0007-pending-signups) instead of counting the account's requests. Generated filings (some
// expired by the time of the question), denials and deletions, in two accounts: its answer is
// always that of the count over the requests.

const sealer = new Sealer(randomBytes(32));

const step = fc.oneof(
  fc.record({ op: fc.constant('file' as const), account: fc.integer({ min: 0, max: 1 }), expiresIn: fc.integer({ min: -5, max: 5 }) }),
  fc.record({ op: fc.constantFrom('deny' as const, 'delete' as const), pick: fc.nat() }),
);

describe('the pending count of a filing', () => {
  it('when requests are filed, decided, deleted and expire, then whether the ceiling is passed is what a count of live pending requests says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), fc.integer({ min: 0, max: 6 }), fc.boolean(), async (steps, ceiling, deleteAccount) => {
        const db = openDb(':memory:');
        try {
          const now = 1_000;
          const accounts = [await openAccount(db, { plan: 'Free', name: 'a0', now: 0 }), await openAccount(db, { plan: 'Free', name: 'a1', now: 0 })];
          const keys = [];
          for (const a of accounts) keys.push(await createKey(db, { accountId: a.id, name: 'k', signupEnabled: true, scoped: false, now: 0 }));
          const ids: string[] = [];
          for (const s of steps) {
            if (s.op === 'file') {
              const a = accounts[s.account]!;
              ids.push(await insertSignupRequest(db, sealer, { accountId: a.id, keyId: keys[s.account]!.row.id, website: 'acme.com', email: 'a@example.com', username: null, rules: '{}', now: 0, expiresAt: now + s.expiresIn }));
            } else if (ids.length > 0) {
              const id = ids[s.pick % ids.length]!;
              if (s.op === 'deny') await markDenied(db, id, now);
              else db.sqlite.prepare('DELETE FROM signup_requests WHERE id = ?').run(id);
            }
          }
          if (deleteAccount) db.sqlite.prepare('DELETE FROM accounts WHERE id = ?').run(accounts[1]!.id);
          for (const a of accounts) expect(await pendingAbove(db, a.id, now, ceiling)).toBe(await countPending(db, a.id, now) > ceiling);
        } finally {
          await db.close();
        }
      }),
      { numRuns: 200 },
    );
  });
});
