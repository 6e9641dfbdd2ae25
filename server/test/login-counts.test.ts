import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { migrate, openDb, type Db } from '../store/db.js';
import { Sealer } from '../store/secrets.js';
import { openAccount } from '../domain/accounts.js';
import { countLogins, deleteLogin, insertLogin } from '../store/logins.js';

// A filing and an approval ask the account's one row of counts how many logins it holds
// (migration 0010-login-counts) instead of counting them. Generated additions and deletions, by
// label and by row, in two accounts, one of which may be deleted: the row always says what a count
// of the logins says.

const sealer = new Sealer(randomBytes(32));
const counted = (db: Db, accountId: string) => db.prepare('SELECT COUNT(*) FROM logins WHERE account_id = ?').pluck().get(accountId) as number;

const step = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('add' as const), account: fc.integer({ min: 0, max: 1 }), label: fc.nat({ max: 5 }) }), weight: 3 },
  fc.record({ op: fc.constantFrom('remove' as const, 'delete-row' as const), account: fc.integer({ min: 0, max: 1 }), label: fc.nat({ max: 5 }) }),
);

function given(db: Db) {
  return [0, 1].map((i) => openAccount(db, { plan: 'Free', name: `a${i}`, now: 0 }).id);
}

function add(db: Db, accountId: string, label: string) {
  insertLogin(db, sealer, { accountId, label, website: 'acme.com', extraWebsites: [], password: 'pw-Secret-1', now: 0 });
}

describe('the login count of an account', () => {
  it('when logins are added and deleted, and an account is deleted, then its row of counts says what a count of its logins says', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.boolean(), (steps, deleteAccount) => {
        const db = openDb(':memory:');
        try {
          const accounts = given(db);
          for (const s of steps) {
            const accountId = accounts[s.account]!;
            const label = `login${s.label}`;
            const taken = db.prepare('SELECT 1 FROM logins WHERE account_id = ? AND label = ?').get(accountId, label) !== undefined;
            if (s.op === 'add') {
              if (!taken) add(db, accountId, label);
            } else if (s.op === 'remove') {
              deleteLogin(db, accountId, label);
            } else {
              db.prepare('DELETE FROM logins WHERE account_id = ? AND label = ?').run(accountId, label);
            }
            for (const a of accounts) expect(countLogins(db, a)).toBe(counted(db, a));
          }
          if (deleteAccount) db.prepare('DELETE FROM accounts WHERE id = ?').run(accounts[1]!);
          for (const a of accounts) expect(countLogins(db, a)).toBe(counted(db, a));
          // A deleted account's row goes with it.
          if (deleteAccount) expect(db.prepare('SELECT COUNT(*) FROM login_counts WHERE account_id = ?').pluck().get(accounts[1]!)).toBe(0);
        } finally {
          db.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('when a database written before the counts is migrated, then each account starts with the count of the logins it holds', () => {
    const db = openDb(':memory:');
    try {
      const [a, b] = given(db);
      for (const label of ['x', 'y', 'z']) add(db, a!, label);
      add(db, b!, 'x');
      // The database as it was before migration 0010; only 0010 is replayed, later ones are there already.
      const version = db.pragma('user_version', { simple: true }) as number;
      db.exec('DROP TRIGGER logins_count_insert; DROP TRIGGER logins_count_delete; DROP TABLE login_counts;');
      db.pragma('user_version = 9');
      migrate(db, 10);
      db.pragma(`user_version = ${version}`);
      expect([countLogins(db, a!), countLogins(db, b!)]).toEqual([3, 1]);
      add(db, b!, 'y');
      expect(countLogins(db, b!)).toBe(2);
    } finally {
      db.close();
    }
  });
});
