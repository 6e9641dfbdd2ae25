import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, migrate, beginRequestReads, stmt } from '../store/db.js';
import { cachedRead } from '../store/read-cache.js';
import { Sealer, verifyMasterKeyNow, WrongMasterKeyError } from '../store/secrets.js';
import { openAccount } from '../domain/accounts.js';
import { storePlainSecrets } from './plain-secrets.js';

describe('store', () => {
  it('when opened, then WAL, foreign keys and the latest schema version are in force, and migrating again changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-store-'));
    try {
      const db = openDb(join(dir, 'v.db'));
      expect(db.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
      const version = db.sqlite.pragma('user_version', { simple: true });
      expect(version).toBeGreaterThanOrEqual(1);
      migrate(db.sqlite);
      expect(db.sqlite.pragma('user_version', { simple: true })).toBe(version);
      const tables = db.sqlite.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table'").all() as { name: string; sql: string }[];
      for (const t of tables) expect(t.sql, t.name).toMatch(/STRICT/);
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when a secret is sealed, then only the same key opens it and tampering is detected', () => {
    const a = new Sealer(randomBytes(32));
    const b = new Sealer(randomBytes(32));
    const blob = a.seal('4242424242424242');
    expect(blob.includes(Buffer.from('4242424242424242'))).toBe(false);
    expect(a.open(blob)).toBe('4242424242424242');
    expect(() => b.open(blob)).toThrow(WrongMasterKeyError);
    const tampered = Buffer.from(blob);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => a.open(tampered)).toThrow(WrongMasterKeyError);
  });

  it('when the database was written under one key, then another key is refused at start', () => {
    const db = openDb(':memory:');
    verifyMasterKeyNow(db.sqlite, new Sealer(randomBytes(32)));
    expect(() => verifyMasterKeyNow(db.sqlite, new Sealer(randomBytes(32)))).toThrow(WrongMasterKeyError);
  });

  it('when secrets are stored, then the database file holds none of them in plain text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-store-'));
    try {
      const file = join(dir, 'v.db');
      const db = openDb(file);
      const sealer = new Sealer(randomBytes(32));
      const { plain } = await storePlainSecrets(db, db, sealer);
      db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
      await db.close();
      const bytes = readFileSync(file);
      for (const s of plain) {
        expect(bytes.includes(Buffer.from(s)), s).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("when another connection commits, then a cached read sees it once a request begins, or soon after without one", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-store-'));
    const a = openDb(join(dir, 'v.db'));
    const b = openDb(join(dir, 'v.db'));
    try {
      const accounts = () => cachedRead(a, 'accounts', async () => (a.sqlite.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number }).n);
      beginRequestReads(a);
      expect(await accounts()).toBe(0);
      await openAccount(b, { plan: 'Free', name: 'x', now: Date.now() });
      beginRequestReads(a);
      expect(await accounts()).toBe(1);
      // Writes of the same connection end cached reads at once.
      await stmt(a, "UPDATE accounts SET name = 'y'").run();
      await openAccount(b, { plan: 'Free', name: 'z', now: Date.now() });
      await new Promise((r) => setTimeout(r, 20));
      expect(await accounts()).toBe(2);
    } finally {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
