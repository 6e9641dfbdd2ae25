import { beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { beginRequestReads, stmt, transaction, type Db, type SqliteStore } from '../store/db.js';
import { cachedRead, scopes } from '../store/read-cache.js';
import { Sealer } from '../store/secrets.js';
import { twoConnectionsEachTest } from './shared-file.js';
import { openAccount } from '../domain/accounts.js';
import { createKey, markKeyUsed, revokeKey } from '../store/keys.js';
import { insertLogin, setUsername, getLogin, setPassword } from '../store/logins.js';
import { insertSubmission } from '../store/recipes.js';

// Kept reads end only when what they depend on changed (store/read-cache.ts, migration
// 0006-data-scopes): a write to one account ends that account's reads, a contribution the
// registry's, a key or account change authentication's; in this process or in another on the
// same file. Each read counts how often it was built.

const sealer = new Sealer(randomBytes(32));
const dbs = twoConnectionsEachTest();
let a: SqliteStore;
let b: SqliteStore;
beforeEach(() => ({ a, b } = dbs));

/** A kept read on `db` under `scope` that counts its builds. */
function counted(db: SqliteStore, key: string, scope?: string) {
  let builds = 0;
  const read = () => cachedRead(db, key, async () => ++builds, scope);
  return { read, builds: () => builds };
}

function login(db: Db, accountId: string, label: string) {
  return insertLogin(db, sealer, { accountId, label, website: 'acme.com', extraWebsites: ['shop.acme.com'], password: 'pw-Secret-1', now: 0 });
}

describe('kept reads by scope', () => {
  it('when one account is written, then only its reads are built again; the other account and the registry keep theirs', async () => {
    const one = await openAccount(a, { plan: 'Free', name: 'one', now: 0 });
    const two = await openAccount(a, { plan: 'Free', name: 'two', now: 0 });
    const readsOne = counted(a, 'one', scopes.account(one.id));
    const readsTwo = counted(a, 'two', scopes.account(two.id));
    const registry = counted(a, 'registry', scopes.registry);
    const unscoped = counted(a, 'any');
    for (const r of [readsOne, readsTwo, registry, unscoped]) await r.read();
    const id = await login(a, one.id, 'acme');
    for (const r of [readsOne, readsTwo, registry, unscoped]) await r.read();
    expect([readsOne.builds(), readsTwo.builds(), registry.builds(), unscoped.builds()]).toEqual([2, 1, 1, 2]);
    // A write to a row of the account's child tables (through its login) is the account's too.
    await setUsername(a, sealer, (await getLogin(a, id))!, 'me');
    await stmt(a, "INSERT INTO login_extra_sites (login_id, host) VALUES (?, 'other.acme.com')").run(id);
    for (const r of [readsOne, readsTwo, registry]) await r.read();
    expect([readsOne.builds(), readsTwo.builds(), registry.builds()]).toEqual([3, 1, 1]);
  });

  it("when one part of an account is written, then that part is built again and its other parts are not; the account's whole reads are", async () => {
    const one = await openAccount(a, { plan: 'Free', name: 'one', now: 0 });
    const id = await login(a, one.id, 'acme');
    const parts = (['logins', 'cards', 'profile', 'tokens'] as const).map((part) => counted(a, part, scopes.part(part, one.id)));
    const whole = counted(a, 'whole', scopes.account(one.id));
    for (const r of [...parts, whole]) await r.read();
    // A new site leaves the login's tokens as they are.
    await stmt(a, "UPDATE logins SET website = 'shop.acme.com' WHERE id = ?").run(id);
    for (const r of [...parts, whole]) await r.read();
    expect([...parts.map((r) => r.builds()), whole.builds()]).toEqual([2, 1, 1, 1, 2]);
    // A username set adds a token: the logins and the tokens part.
    await setUsername(a, sealer, (await getLogin(a, id))!, 'me');
    for (const r of [...parts, whole]) await r.read();
    expect([...parts.map((r) => r.builds()), whole.builds()]).toEqual([3, 1, 1, 2, 3]);
  });

  it('when a contribution is recorded, then the registry is built again and no account is', async () => {
    const one = await openAccount(a, { plan: 'Free', name: 'one', now: 0 });
    const key = await createKey(a, { accountId: one.id, name: 'k', signupEnabled: false, scoped: false, now: 0 });
    const account = counted(a, 'one', scopes.account(one.id));
    const registry = counted(a, 'registry', scopes.registry);
    await account.read();
    await registry.read();
    await insertSubmission(a, { accountId: one.id, keyId: key.row.id, key: 'acme.com', kind: 'merchant', platform: null, body: '{}', liveStatus: 'unverified', note: null, verificationRequested: false, now: 0 });
    await account.read();
    await registry.read();
    expect([account.builds(), registry.builds()]).toEqual([1, 2]);
  });

  it("when a key's last use is marked, then nothing is built again; when a key is revoked, then authentication's reads are", async () => {
    const one = await openAccount(a, { plan: 'Free', name: 'one', now: 0 });
    const key = await createKey(a, { accountId: one.id, name: 'k', signupEnabled: false, scoped: false, now: 0 });
    const keys = counted(a, 'key', scopes.keys);
    const account = counted(a, 'one', scopes.account(one.id));
    await keys.read();
    await account.read();
    await markKeyUsed(a, key.row.id, 1000);
    await keys.read();
    await account.read();
    expect([keys.builds(), account.builds()]).toEqual([1, 1]);
    await revokeKey(a, key.row.id, 2000);
    await keys.read();
    await account.read();
    expect([keys.builds(), account.builds()]).toEqual([2, 2]);
  });

  it("when a login's password is written, then nothing is built again; when it becomes the account holder's, then the account's reads are", async () => {
    const one = await openAccount(a, { plan: 'Free', name: 'one', now: 0 });
    const id = await login(a, one.id, 'acme');
    const account = counted(a, 'one', scopes.account(one.id));
    const logins = counted(a, 'logins', scopes.part('logins', one.id));
    await account.read();
    await logins.read();
    // A rotation: a new sealed password, the token unchanged.
    await setPassword(a, sealer, id, 'pw-Rotated-2', false);
    await account.read();
    await logins.read();
    expect([account.builds(), logins.builds()]).toEqual([1, 1]);
    // The account holder's own password: the login's metadata changes with it.
    await setPassword(a, sealer, id, 'pw-Owner-3', true);
    await account.read();
    await logins.read();
    expect([account.builds(), logins.builds()]).toEqual([2, 2]);
    await setUsername(a, sealer, (await getLogin(a, id))!, 'me');
    await account.read();
    await logins.read();
    expect([account.builds(), logins.builds()]).toEqual([3, 3]);
  });

  it('when a write is rolled back, then nothing is built again', async () => {
    const one = await openAccount(a, { plan: 'Free', name: 'one', now: 0 });
    const account = counted(a, 'one', scopes.account(one.id));
    await account.read();
    await expect(
      transaction(a, async (tx) => {
        await login(tx, one.id, 'acme');
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await account.read();
    expect(account.builds()).toBe(1);
  });

  it('when another process writes one account, then this process builds that account again once a request begins, and no other', async () => {
    const one = await openAccount(a, { plan: 'Free', name: 'one', now: 0 });
    const two = await openAccount(a, { plan: 'Free', name: 'two', now: 0 });
    const readsOne = counted(a, 'one', scopes.account(one.id));
    const readsTwo = counted(a, 'two', scopes.account(two.id));
    const registry = counted(a, 'registry', scopes.registry);
    beginRequestReads(a);
    for (const r of [readsOne, readsTwo, registry]) await r.read();
    await login(b, one.id, 'acme');
    beginRequestReads(a);
    for (const r of [readsOne, readsTwo, registry]) await r.read();
    expect([readsOne.builds(), readsTwo.builds(), registry.builds()]).toEqual([2, 1, 1]);
    // The other process deletes the account: its reads end, with every row of it.
    b.sqlite.prepare('DELETE FROM accounts WHERE id = ?').run(one.id);
    beginRequestReads(a);
    for (const r of [readsOne, readsTwo, registry]) await r.read();
    expect([readsOne.builds(), readsTwo.builds(), registry.builds()]).toEqual([3, 1, 1]);
  });
});
