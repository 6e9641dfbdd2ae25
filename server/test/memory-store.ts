import { onTestFinished } from 'vitest';
import { randomBytes } from 'node:crypto';
import { openDb } from '../store/db.js';
import { Sealer } from '../store/secrets.js';
import { openAccount } from '../domain/accounts.js';

/** A database in memory with one account and a master key of its own, closed when the test ends. */
export async function memoryAccount(name: string, now: number) {
  const db = openDb(':memory:');
  onTestFinished(async () => {
    await db.close();
  });
  const sealer = new Sealer(randomBytes(32));
  const accountId = (await openAccount(db, { plan: 'Free', name, now })).id;
  return { db, sealer, accountId };
}
