import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './support.js';
import { givenAccount } from './support.js';
import {
  DAY,
  HOUR,
  addLogins,
  decide,
  fileOk,
  fixture,
  nextMinute,
  poll,
  signupAccount,
  signupApproved,
  signupToken,
  startSignupServer,
  type Account,
} from './signup-support.js';
import { getLoginByLabel, readPassword, readUsername } from '../store/logins.js';
import { findToken } from '../store/tokens.js';

let t: TestServer;
beforeAll(async () => {
  t = await startSignupServer();
});
afterAll(() => t.close());

const WEEK = 7 * DAY;

async function setUsername(key: string, label: string, username: string) {
  const res = await t.call('/v1/logins/username', { method: 'POST', key, json: { label, username } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function rotate(key: string, body: Record<string, unknown>) {
  const res = await t.call('/v1/logins/password', { method: 'POST', key, json: body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** An account with a login its first key created through an approved signup request. */
async function agentLogin(website = 'acme.com', extra: Record<string, unknown> = {}, given?: Account) {
  const a = given ?? (await signupAccount(t));
  nextMinute(t);
  const approved = await signupApproved(t, a, website, extra);
  const login = (await getLoginByLabel(t.db, a.accountId, approved.login.label))!;
  return { a, label: approved.login.label as string, login, approved };
}

async function catalogEntry(a: Account, label: string) {
  const catalog = (await (await t.call('/v1/tokens', { key: a.key })).json()) as any;
  return catalog.logins.find((l: any) => l.label === label);
}

describe('setLoginUsername', () => {
  it('when the creating key sets a username, then it is recorded and the catalog entry gains hasUsername and a username token', async () => {
    const { a, label } = await agentLogin();
    const res = await setUsername(a.key, label, 'shopper.jane');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.login).toMatchObject({ label, hasUsername: true, tokens: { username: expect.any(String) } });
    expect(await catalogEntry(a, label)).toEqual(res.body.login);
  });

  it('when the identical username is sent again, even after the window, then the same envelope; a different one is 409 username_already_set', async () => {
    const { a, label } = await agentLogin();
    const first = await setUsername(a.key, label, 'shopper.jane');
    const again = await setUsername(a.key, label, 'shopper.jane');
    expect(again).toMatchObject({ status: 200, body: first.body });
    const other = await setUsername(a.key, label, 'someone.else');
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('username_already_set');
    t.clock.advance(WEEK + DAY);
    expect((await setUsername(a.key, label, 'shopper.jane')).body).toEqual(first.body);
  });

  it('when the username was filed with the request, then it is already recorded', async () => {
    const { a, label } = await agentLogin('acme.com', { username: 'filed.name' });
    expect((await setUsername(a.key, label, 'filed.name')).status).toBe(200);
    expect((await setUsername(a.key, label, 'other.name')).body.code).toBe('username_already_set');
  });

  it('when another key, an unknown label or a login the account holder saved is named, then 404 not_found', async () => {
    const { a, label } = await agentLogin();
    const other = await a.addKey({ signup: true });
    await addLogins(t, a.accountId, ['saved']);
    for (const [key, name] of [
      [other.key, label],
      [a.key, 'nosuchlabel'],
      [a.key, 'saved'],
    ] as const) {
      const res = await setUsername(key, name, 'shopper.jane');
      expect(res.status, name).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('when a scoped key names a login on its list, then it is recorded; once the login is removed from the list, 404 not_found, even for the same username', async () => {
    const kept = await agentLogin('kept.com', {}, await signupAccount(t, { scopedTo: [] }));
    expect((await setUsername(kept.a.key, kept.label, 'in.scope')).status).toBe(200);
    const { a, label } = await agentLogin('left.com', {}, await signupAccount(t, { scopedTo: [] }));
    expect((await setUsername(a.key, label, 'set.in.scope')).status).toBe(200);
    expect((await fixture(t, 'DELETE', `/accounts/${a.accountId}/keys/${a.keyId}/logins/${label}`)).status).toBe(204);
    for (const username of ['set.in.scope', 'another.name']) {
      const res = await setUsername(a.key, label, username);
      expect(res.status, username).toBe(404);
      expect(res.body).toEqual({ code: 'not_found', error: expect.any(String) });
    }
    const fresh = await agentLogin('fresh.com', {}, await signupAccount(t, { scopedTo: [] }));
    expect((await fixture(t, 'DELETE', `/accounts/${fresh.a.accountId}/keys/${fresh.a.keyId}/logins/${fresh.label}`)).status).toBe(204);
    expect((await setUsername(fresh.a.key, fresh.label, 'out.of.scope')).status).toBe(404);
    expect(await readUsername(t.db, t.sealer, fresh.login.id)).toBeNull();
  });

  it('when seven days have passed since creation, then 404 not_found; one millisecond before, then it is recorded', async () => {
    const early = await agentLogin('early.com');
    const late = await agentLogin('late.com');
    t.clock.advance(early.login.created_at + WEEK - 1 - t.clock.now());
    expect((await setUsername(early.a.key, early.label, 'just.in.time')).status).toBe(200);
    t.clock.advance(late.login.created_at + WEEK - t.clock.now());
    const res = await setUsername(late.a.key, late.label, 'too.late');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('when the username is under 4 characters or has a control character, then 400 invalid_username; without one, 400 bad_request', async () => {
    const { a, label } = await agentLogin();
    for (const username of ['abc', 'ab\ncd']) expect((await setUsername(a.key, label, username)).body.code).toBe('invalid_username');
    const missing = await t.call('/v1/logins/username', { method: 'POST', key: a.key, json: { label } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).code).toBe('bad_request');
  });

  it('when the key has no signup permission, then 403 signup_not_enabled', async () => {
    const a = await givenAccount(t);
    const res = await setUsername(a.key, 'acme', 'shopper.jane');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('signup_not_enabled');
  });
});

describe('rotateLoginPassword', () => {
  it('when the creating key rotates, then a new password follows the rules behind the same tokens', async () => {
    const { a, label, login } = await agentLogin();
    const before = await catalogEntry(a, label);
    const oldPassword = await readPassword(t.db, t.sealer, login.id);
    const res = await rotate(a.key, { label, maxLength: 16, noSymbols: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ login: before, passwordPolicy: { length: 16, classes: ['lowercase', 'uppercase', 'digit'] }, rotated: true });
    const newPassword = (await readPassword(t.db, t.sealer, login.id))!;
    expect(newPassword).not.toBe(oldPassword);
    expect(newPassword).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])[a-zA-Z0-9]{16}$/);
    // The password token still names this login's password, which is now the new one.
    expect(await findToken(t.db, before.tokens.password)).toMatchObject({ record_id: login.id, field: 'password' });
    const resolved = await fixture(t, 'POST', '/tokens/resolve', { token: before.tokens.password });
    expect(await resolved.json()).toEqual({ resolves: true });
    expect(await catalogEntry(a, label)).toEqual(before);
  });

  it('when symbols are given, then the policy reports the narrowed alphabet', async () => {
    const { a, label } = await agentLogin();
    const res = await rotate(a.key, { label, symbols: '?!%', minLength: 30 });
    expect(res.body.passwordPolicy).toEqual({ length: 30, classes: ['lowercase', 'uppercase', 'digit', 'symbol'], symbolAlphabet: '!?' });
  });

  it('when rule fields break a rule, then 400 password_too_short or invalid_policy', async () => {
    const { a, label } = await agentLogin();
    expect((await rotate(a.key, { label, maxLength: 8 })).body.code).toBe('password_too_short');
    expect((await rotate(a.key, { label, minLength: 70 })).body.code).toBe('invalid_policy');
    expect((await rotate(a.key, { label, symbols: 'abc' })).body.code).toBe('invalid_policy');
    const missing = await rotate(a.key, {});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('bad_request');
  });

  it('when maxLength is -1e400, then 400 password_too_short: nothing is rotated and the budget is not charged', async () => {
    const { a, label, login } = await agentLogin();
    const charged = () =>
      (t.db.sqlite.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM counters WHERE limit_id = ? AND subject = ?').get('credential-changes-per-account', a.accountId) as { n: number }).n;
    const before = { password: await readPassword(t.db, t.sealer, login.id), charged: charged() };
    for (const rules of ['"maxLength":-1e400', '"minLength":1e400']) {
      nextMinute(t);
      const res = await t.call('/v1/logins/password', { method: 'POST', key: a.key, headers: { 'content-type': 'application/json' }, body: `{"label":"${label}",${rules}}` });
      expect(res.status, rules).toBe(400);
      expect(((await res.json()) as { code: string }).code, rules).toBe(rules.startsWith('"max') ? 'password_too_short' : 'invalid_policy');
    }
    expect({ password: await readPassword(t.db, t.sealer, login.id), charged: charged() }).toEqual(before);
    // A maxLength too large for a double is a whole number with no upper limit: the default 24.
    nextMinute(t);
    const unbounded = await t.call('/v1/logins/password', { method: 'POST', key: a.key, headers: { 'content-type': 'application/json' }, body: `{"label":"${label}","maxLength":1e400}` });
    expect(unbounded.status).toBe(200);
    expect(((await unbounded.json()) as { passwordPolicy: { length: number } }).passwordPolicy.length).toBe(24);
    expect(charged()).toBe(before.charged + 1);
  });

  it('when another key, an unknown label, or a login the account holder saved is named, then 409 not_rotatable', async () => {
    const { a, label } = await agentLogin();
    const other = await a.addKey({ signup: true });
    await addLogins(t, a.accountId, ['saved']);
    for (const [key, name] of [
      [other.key, label],
      [a.key, 'nosuchlabel'],
      [a.key, 'saved'],
    ] as const) {
      const res = await rotate(key, { label: name });
      expect(res.status, name).toBe(409);
      expect(res.body.code).toBe('not_rotatable');
    }
  });

  it('when a scoped key names a login on its list, then it rotates; once the login is removed from the list, 409 not_rotatable and the password stays', async () => {
    const { a, label, login } = await agentLogin('rotating.com', {}, await signupAccount(t, { scopedTo: [] }));
    expect((await rotate(a.key, { label })).status).toBe(200);
    const password = await readPassword(t.db, t.sealer, login.id);
    expect((await fixture(t, 'DELETE', `/accounts/${a.accountId}/keys/${a.keyId}/logins/${label}`)).status).toBe(204);
    const res = await rotate(a.key, { label });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('not_rotatable');
    expect(await readPassword(t.db, t.sealer, login.id)).toBe(password);
  });

  it('when seven days have passed since creation, then 409 not_rotatable; one millisecond before, then it rotates', async () => {
    const early = await agentLogin('early.com');
    const late = await agentLogin('late.com');
    t.clock.advance(early.login.created_at + WEEK - 1 - t.clock.now());
    expect((await rotate(early.a.key, { label: early.label })).status).toBe(200);
    t.clock.advance(late.login.created_at + WEEK - t.clock.now());
    expect((await rotate(late.a.key, { label: late.label })).body.code).toBe('not_rotatable');
  });

  it('when the account holder replaced the password, then rotation is refused for good and the poll says passwordOwnerManaged', async () => {
    const { a, label, approved, login } = await agentLogin();
    const replaced = await fixture(t, 'PUT', `/accounts/${a.accountId}/logins/${label}/password`, { password: 'my own password' });
    expect(replaced.status).toBe(204);
    expect((await poll(t, a.key, approved.requestId)).body.passwordOwnerManaged).toBe(true);
    const res = await rotate(a.key, { label });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('not_rotatable');
    expect(await readPassword(t.db, t.sealer, login.id)).toBe('my own password');
  });
});

describe('the credential-change budget', () => {
  it('when 25 changes were counted (an approval and 24 writes), then the 26th is 429 daily_limit without Retry-After until 24 hours after the first', async () => {
    const { a, label, login } = await agentLogin();
    const first = login.created_at;
    for (let i = 2; i <= 25; i++) {
      if (i % 15 === 0) nextMinute(t);
      const res = i === 2 ? await setUsername(a.key, label, 'shopper.jane') : await rotate(a.key, { label });
      expect(res.status, `change ${i}`).toBe(200);
    }
    nextMinute(t);
    const password = await readPassword(t.db, t.sealer, login.id);
    const refused = await rotate(a.key, { label });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('daily_limit');
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(await readPassword(t.db, t.sealer, login.id)).toBe(password);
    // The budget is the account's: its other keys are refused too, and approvals stay pending.
    const other = await a.addKey({ signup: true });
    nextMinute(t);
    const filed = await fileOk(t, other.key, { website: 'other.com', email: 'agent@example.com' });
    expect(filed.status).toBe('pending');
    const decided = await decide(t, await signupToken(t, a.accountId, filed.requestId), 'approve');
    expect(decided.body).toMatchObject({ status: 'pending', approvalFailure: 'daily_limit' });
    // Repeating the recorded username writes nothing, so it is still answered.
    expect((await setUsername(a.key, label, 'shopper.jane')).status).toBe(200);

    t.clock.advance(first + DAY - 1 - t.clock.now());
    expect((await rotate(a.key, { label })).body.code).toBe('daily_limit');
    t.clock.advance(1);
    expect((await rotate(a.key, { label })).status).toBe(200);
  });

  it('when a username is set with the budget spent, then 429 daily_limit and nothing is recorded', async () => {
    const { a, label, login } = await agentLogin();
    for (let i = 2; i <= 25; i++) {
      if (i % 15 === 0) nextMinute(t);
      expect((await rotate(a.key, { label })).status).toBe(200);
    }
    nextMinute(t);
    const res = await setUsername(a.key, label, 'shopper.jane');
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('daily_limit');
    expect((await getLoginByLabel(t.db, a.accountId, label))!.has_username).toBe(0);
    t.clock.advance(login.created_at + DAY - t.clock.now());
    expect((await setUsername(a.key, label, 'shopper.jane')).status).toBe(200);
  });
});

describe('login-change-window as a deployment setting', () => {
  let short: TestServer;
  beforeAll(async () => {
    short = await startSignupServer({ limitOverrides: { 'login-change-window': 3600 } });
  });
  afterAll(() => short.close());

  it('when the deployment sets a one-hour window, then changes end an hour after creation', async () => {
    const a = await signupAccount(short);
    const approved = await signupApproved(short, a, 'acme.com');
    short.clock.advance(HOUR);
    const res = await short.call('/v1/logins/password', { method: 'POST', key: a.key, json: { label: approved.login.label } });
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('not_rotatable');
  });
});

describe('createLogin', () => {
  it('when called, then 410 signup_requires_approval', async () => {
    const a = await signupAccount(t);
    const res = await t.call('/v1/logins', { method: 'POST', key: a.key, json: { website: 'acme.com', password: 'secret-password' } });
    expect(res.status).toBe(410);
    // The document gives this answer Cache-Control: no-store, as every answer of a login endpoint.
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.json()).code).toBe('signup_requires_approval');
  });
});
