import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { migrate, openDb, type SqliteStore } from '../store/db.js';
import { Sealer } from '../store/secrets.js';
import { openAccount } from '../domain/accounts.js';
import { countLogins, deleteLogin, insertLogin } from '../store/logins.js';

// A filing and an approval ask the account's one row of counts how many logins it holds
// (migration 0010-login-counts) instead of counting them. Generated additions and deletions, by
// label and by row, in two accounts, one of which may be deleted: the row always says what a count
// of the logins says.

const sealer = new Sealer(randomBytes(32));
const counted = (db: SqliteStore, accountId: string) => db.sqlite.prepare('SELECT COUNT(*) FROM logins WHERE account_id = ?').pluck().get(accountId) as number;

const step = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('add' as const), account: fc.integer({ min: 0, max: 1 }), label: fc.nat({ max: 5 }) }), weight: 3 },
  fc.record({ op: fc.constantFrom('remove' as const, 'delete-row' as const), account: fc.integer({ min: 0, max: 1 }), label: fc.nat({ max: 5 }) }),
);

async function given(db: SqliteStore): Promise<string[]> {
  const ids: string[] = [];
  for (const i of [0, 1]) ids.push((await openAccount(db, { plan: 'Free', name: `a${i}`, now: 0 })).id);
  return ids;
}

async function add(db: SqliteStore, accountId: string, label: string) {
  await insertLogin(db, sealer, { accountId, label, website: 'acme.com', extraWebsites: [], password: 'pw-Secret-1', now: 0 });
}

describe('the login count of an account', () => {
  it('when logins are added and deleted, and an account is deleted, then its row of counts says what a count of its logins says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), fc.boolean(), async (steps, deleteAccount) => {
        const db = openDb(':memory:');
        try {
          const accounts = await given(db);
          for (const s of steps) {
            const accountId = accounts[s.account]!;
            const label = `login${s.label}`;
            const taken = db.sqlite.prepare('SELECT 1 FROM logins WHERE account_id = ? AND label = ?').get(accountId, label) !== undefined;
            if (s.op === 'add') {
              if (!taken) await add(db, accountId, label);
            } else if (s.op === 'remove') {
              await deleteLogin(db, accountId, label);
            } else {
              db.sqlite.prepare('DELETE FROM logins WHERE account_id = ? AND label = ?').run(accountId, label);
            }
            for (const a of accounts) expect(await countLogins(db, a)).toBe(counted(db, a));
          }
          if (deleteAccount) db.sqlite.prepare('DELETE FROM accounts WHERE id = ?').run(accounts[1]!);
          for (const a of accounts) expect(await countLogins(db, a)).toBe(counted(db, a));
          // A deleted account's row goes with it.
          if (deleteAccount) expect(db.sqlite.prepare('SELECT COUNT(*) FROM login_counts WHERE account_id = ?').pluck().get(accounts[1]!)).toBe(0);
        } finally {
          await db.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('when a database written before the counts is migrated, then each account starts with the count of the logins it holds', async () => {
    const db = openDb(':memory:');
    try {
      const [a, b] = await given(db);
      for (const label of ['x', 'y', 'z']) await add(db, a!, label);
      await add(db, b!, 'x');
      // The database as it was before migration 0010; only 0010 is replayed, later ones are there already.
      const version = db.sqlite.pragma('user_version', { simple: true }) as number;
      db.sqlite.exec('DROP TRIGGER logins_count_insert; DROP TRIGGER logins_count_delete; DROP TABLE login_counts;');
      db.sqlite.pragma('user_version = 9');
      migrate(db.sqlite, 10);
      db.sqlite.pragma(`user_version = ${version}`);
      expect([await countLogins(db, a!), await countLogins(db, b!)]).toEqual([3, 1]);
      await add(db, b!, 'y');
      expect(await countLogins(db, b!)).toBe(2);
    } finally {
      await db.close();
    }
  });
});
