import { describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { stmt, type Db } from '../store/db.js';
import { findLink, insertLink, useLink } from '../store/links.js';
import { insertSignupRequest } from '../store/signup-requests.js';
import { createKey } from '../store/keys.js';
import { memoryAccount } from './memory-store.js';

const NOW = Date.UTC(2026, 10, 27, 12);

const given = () => memoryAccount('Timed', NOW);

const storedKeys = async (db: Db) => (await stmt(db, 'SELECT token_hash FROM account_links ORDER BY created_at, rowid').pluck().all()) as Buffer[];

describe('keys that carry the time they were issued', () => {
  it('when links are issued over time, then each token carries its time, is found by itself alone, and their keys sort in issue order', async () => {
    const { db, sealer, accountId } = await given();
    const tokens: string[] = [];
    for (const later of [0, 1, 1, 2, 1000, 86_400_000]) tokens.push(await insertLink(db, sealer, { accountId, kind: 'purchase', now: NOW + later, expiresAt: NOW + later + 1 }));
    for (const token of tokens) {
      expect(token).toMatch(/^lnk_[0-9a-f]{12}[A-Za-z0-9_-]{32}$/);
      expect((await findLink(db, sealer, token))?.account_id).toBe(accountId);
      // Any other character makes another key: the time alone never finds a link.
      const other = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      expect(await findLink(db, sealer, other)).toBeUndefined();
    }
    expect(tokens[0]!.slice(4, 16)).toBe(NOW.toString(16).padStart(12, '0'));
    const keys = await storedKeys(db);
    const times = keys.map((k) => k.subarray(0, 6).toString('hex'));
    expect(times).toEqual([...times].sort());
    expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(keys.length);
    // Two links of one millisecond differ by their 24 random bytes.
    expect(tokens[1]).not.toBe(tokens[2]);
  });

  it('when a link was stored under its SHA-256 alone, as tokens without a time were, then it is still found and spent by its token', async () => {
    const { db, sealer, accountId } = await given();
    const token = `lnk_${randomBytes(24).toString('base64url')}`;
    await stmt(db, 'INSERT INTO account_links (token_hash, token, account_id, kind, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      createHash('sha256').update(token).digest(),
      sealer.seal(token),
      accountId,
      'cvv',
      NOW,
      NOW + 60_000,
    );
    expect(await findLink(db, sealer, token)).toMatchObject({ account_id: accountId, kind: 'cvv', status: 'pending' });
    expect(await useLink(db, token, 'opened', NOW + 1)).toBe(true);
    expect((await findLink(db, sealer, token))?.status).toBe('opened');
    expect(await useLink(db, token, 'opened', NOW + 2)).toBe(false);
  });

  it('when signup requests are filed over time, then their ids sort in filing order and keep 128 random bits', async () => {
    const { db, sealer, accountId } = await given();
    const keyId = (await createKey(db, { accountId, name: 'signup', signupEnabled: true, scoped: false, now: NOW })).row.id;
    const file = (now: number) =>
      insertSignupRequest(db, sealer, { accountId, keyId, website: 'acme.com', email: 'jane@example.com', username: null, rules: '{}', now, expiresAt: now + 1 });
    const ids: string[] = [];
    for (const later of [0, 0, 1, 59_000, 3_600_000]) ids.push(await file(NOW + later));
    for (const id of ids) expect(id).toMatch(/^sreq_[0-9a-f]{12}[0-9a-f]{32}$/);
    expect(ids.map((id) => id.slice(5, 17))).toEqual([...ids.map((id) => id.slice(5, 17))].sort());
    expect(new Set(ids).size).toBe(ids.length);
  });
});
