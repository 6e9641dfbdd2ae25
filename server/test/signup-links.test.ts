import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { stmt, type Db } from '../store/db.js';
import { Sealer } from '../store/secrets.js';
import { deleteAccount } from '../store/accounts.js';
import { createKey } from '../store/keys.js';
import { findLink, insertLink, listAccountLinks, signupLinkToken } from '../store/links.js';
import { insertSignupRequest, markDenied } from '../store/signup-requests.js';
import { memoryAccount } from './memory-store.js';

/**
 * A signup request's link is not stored: its token is the request's id with the server's tag of
 * it, and its state is the request's. Only a token the server issued names a request.
 */

const NOW = Date.UTC(2026, 10, 27, 12);
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

async function given() {
  const { db, sealer, accountId } = await memoryAccount('Links', NOW);
  const keyId = (await createKey(db, { accountId, name: 'signup', signupEnabled: true, scoped: false, now: NOW })).row.id;
  const file = (website = 'acme.com', now = NOW) =>
    insertSignupRequest(db, sealer, { accountId, keyId, website, email: 'jane@example.com', username: null, rules: '{}', now, expiresAt: now + 60_000 });
  // As an approval leaves it, without the login it would create (the link reads only these).
  const approve = (id: string, preapproved: boolean, now: number) =>
    stmt(db, "UPDATE signup_requests SET status = 'approved', preapproved = ?, decided_at = ? WHERE id = ?").run(preapproved ? 1 : 0, now, id);
  return { db, sealer, accountId, file, approve };
}

const storedLinks = async (db: Db) => (await stmt(db, 'SELECT COUNT(*) FROM account_links').pluck().get()) as number;

describe('the link of a signup request', () => {
  it('when a request is filed, then its token finds it as a pending signup link, with nothing stored for the link', async () => {
    const { db, sealer, accountId, file } = await given();
    const id = await file();
    const token = signupLinkToken(sealer, id);
    expect(token).toMatch(/^lnk_[A-Za-z0-9_-]+$/);
    expect(await findLink(db, sealer, token)).toEqual({
      account_id: accountId,
      kind: 'signup',
      signup_request_id: id,
      details: '{}',
      status: 'pending',
      decision_at: null,
      created_at: NOW,
      expires_at: NOW + 60_000,
      used_at: null,
    });
    expect(await storedLinks(db)).toBe(0);
    expect(await listAccountLinks(db, sealer, accountId)).toEqual([{ ...await findLink(db, sealer, token), token }]);
  });

  it('when any one character of the token is changed, or the token is cut or lengthened, then it names no link', async () => {
    const { db, sealer, file } = await given();
    const token = signupLinkToken(sealer, await file());
    for (let i = 4; i < token.length; i++) {
      for (const c of [BASE64URL[(BASE64URL.indexOf(token[i]!) + 1) % 64]!, BASE64URL[(BASE64URL.indexOf(token[i]!) + 32) % 64]!]) {
        const changed = `${token.slice(0, i)}${c}${token.slice(i + 1)}`;
        expect(await findLink(db, sealer, changed), changed).toBeUndefined();
      }
    }
    for (const other of [token.slice(0, -1), token.slice(0, -4), `${token}A`, `${token}AAAA`, token.slice(0, 30), 'lnk_', token.slice(4)]) {
      expect(await findLink(db, sealer, other), other).toBeUndefined();
    }
  });

  it('when the token was tagged under another master key, or names a request that does not exist, then it names no link', async () => {
    const { db, sealer, file } = await given();
    const id = await file();
    expect(await findLink(db, new Sealer(randomBytes(32)), signupLinkToken(sealer, id))).toBeUndefined();
    expect(await findLink(db, sealer, signupLinkToken(new Sealer(randomBytes(32)), id))).toBeUndefined();
    expect(await findLink(db, sealer, signupLinkToken(sealer, `sreq_${randomBytes(22).toString('hex')}`))).toBeUndefined();
  });

  it('when the request is decided, then the link reads its decision; when pre-approved or its account is deleted, then there is no link', async () => {
    const { db, sealer, accountId, file, approve } = await given();
    const denied = await file('denied.com');
    await markDenied(db, denied, NOW + 5);
    expect(await findLink(db, sealer, signupLinkToken(sealer, denied))).toMatchObject({ status: 'denied', used_at: NOW + 5 });

    const approved = await file('approved.com');
    await approve(approved, false, NOW + 6);
    expect(await findLink(db, sealer, signupLinkToken(sealer, approved))).toMatchObject({ status: 'approved', used_at: NOW + 6 });

    const preapproved = await file('preapproved.com');
    await approve(preapproved, true, NOW + 7);
    expect(await findLink(db, sealer, signupLinkToken(sealer, preapproved))).toBeUndefined();
    expect((await listAccountLinks(db, sealer, accountId)).map((l) => l.signup_request_id)).toEqual([approved, denied]);

    await deleteAccount(db, accountId);
    expect(await findLink(db, sealer, signupLinkToken(sealer, denied))).toBeUndefined();
    expect(await listAccountLinks(db, sealer, accountId)).toEqual([]);
  });

  it('when a request has a stored link, as requests once did, then that link is found by its token and listed once, newest first with the rest', async () => {
    const { db, sealer, accountId, file } = await given();
    const older = await file('older.com', NOW);
    const stored = await insertLink(db, sealer, { accountId, kind: 'signup', signupRequestId: older, now: NOW, expiresAt: NOW + 60_000 });
    const newer = await file('newer.com', NOW + 1000);
    const held = await insertLink(db, sealer, { accountId, kind: 'purchase', now: NOW + 2000, expiresAt: NOW + 62_000 });
    expect(await findLink(db, sealer, stored)).toMatchObject({ kind: 'signup', signup_request_id: older, status: 'pending' });
    expect((await listAccountLinks(db, sealer, accountId)).map((l) => [l.token, l.signup_request_id])).toEqual([
      [held, null],
      [signupLinkToken(sealer, newer), newer],
      [stored, older],
    ]);
  });
});
