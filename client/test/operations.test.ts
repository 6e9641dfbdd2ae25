// Every operation of the document, called through the client against the reference server: its
// success, and its documented errors arriving as VaultApiError with the operation's code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type components, type OperationId } from '../index.js';
import { apiError, approvedLogin, calledOperations, clientFor } from './support/clients.js';
import { startSandbox, type Sandbox } from './support/sandbox.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const recipe: components['schemas']['Recipe'] = {
  key: 'example.com',
  kind: 'merchant',
  status: 'unverified',
  platform: 'custom',
  match: { hosts: ['www.example.com'], paths: ['/checkout'] },
};

describe('getTokenCatalog', () => {
  it('when the page has a login, then the catalog is narrowed to it and lists related logins', async () => {
    const { accountId, key } = await sandbox.holder.account();
    await sandbox.holder.addLogin(accountId, { website: 'acme.com', email: 'jane@example.com', password: 'correct horse battery' });
    await sandbox.holder.addLogin(accountId, { website: 'acme.co.uk', email: 'jane@example.com', password: 'another long passphrase' });
    const vault = clientFor(sandbox, key);
    const narrowed = await vault.getTokenCatalog({ url: 'https://www.acme.com/checkout?step=2' });
    expect(narrowed.logins.map((l) => l.label)).toEqual(['acme']);
    expect(narrowed.relatedLogins?.map((l) => l.label)).toEqual(['acme2']);
    const byHost = await vault.getTokenCatalog({ host: 'shop.acme.com' });
    expect(byHost.logins.map((l) => l.label)).toEqual(['acme']);
    const other = await vault.getTokenCatalog({ url: 'https://globex.com/' });
    expect(other.logins).toEqual([]);
    const whole = await vault.getTokenCatalog();
    expect(whole.relatedLogins).toBeUndefined();
    expect(whole.identity.tokens.phone).toEqual(expect.any(String));
  });

  it('when the key is unknown, then the call rejects with 401 invalid_api_key', async () => {
    const error = await apiError(clientFor(sandbox, 'vk_not_a_key').getTokenCatalog());
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', operationId: 'getTokenCatalog', retryAfter: undefined });
    expect(error.error).toEqual(expect.any(String));
  });
});

describe('getRecipes', () => {
  it('when no url is sent, then the index lists recipes without bodies, and with full=1 with bodies', async () => {
    const vault = clientFor(sandbox);
    const index = await vault.getRecipes();
    expect('recipes' in index && index.recipes.length).toBeGreaterThan(0);
    expect('recipes' in index && index.recipes.every((r) => r.recipe === undefined)).toBe(true);
    const full = await vault.getRecipes({ full: '1' });
    expect('recipes' in full && full.recipes.every((r) => typeof r.recipe === 'object')).toBe(true);
  });

  it('when a page is looked up, then the four slots come back, the query and fragment never sent', async () => {
    const sent: string[] = [];
    const vault = clientFor(sandbox, undefined, {
      fetch: (request) => {
        sent.push(new URL(request.url).searchParams.get('url') ?? '');
        return fetch(request);
      },
    });
    const lookup = await vault.lookupRecipes('https://www.acme.com/checkout?coupon=x#pay');
    expect(Object.keys(lookup).sort()).toEqual(['merchant', 'platform', 'signup', 'signupPlatform']);
    expect(lookup.merchant).toMatchObject({ id: 'acme.com', kind: 'merchant' });
    const hosted = await vault.lookupRecipes('https://checkout.payco.com/s/sess_abc123?x=1');
    expect(hosted.platform).toMatchObject({ id: 'payco', kind: 'platform' });
    expect(sent).toEqual(['https://www.acme.com/checkout', 'https://checkout.payco.com']);
  });
});

describe('submitRecipe and getRecipeSubmission', () => {
  it('when a valid recipe is submitted, then it is pending and its submission can be read back', async () => {
    const { key } = await sandbox.holder.account();
    const vault = clientFor(sandbox, key);
    const accepted = await vault.submitRecipe({ recipe, note: 'Bought a mug.' });
    expect(accepted).toEqual({ id: expect.any(String), status: 'pending' });
    const submission = await vault.getRecipeSubmission({ id: accepted.id });
    expect(submission).toMatchObject({ id: accepted.id, key: 'example.com' });
    expect(Array.isArray(submission.verdict)).toBe(true);
  });

  it('when the recipe is invalid, then 400 invalid_recipe lists its problems in errors', async () => {
    const { key } = await sandbox.holder.account();
    // The wire accepts any JSON; the client's type does not, so the cast stands for a caller outside TypeScript.
    const error = await apiError(clientFor(sandbox, key).submitRecipe({ key: 'example.com', kind: 'nonsense' } as never));
    expect(error).toMatchObject({ status: 400, code: 'invalid_recipe' });
    expect(error.errors?.length).toBeGreaterThan(0);
  });

  it('when the submission belongs to no submission of the account, then 404 not_found', async () => {
    const { key } = await sandbox.holder.account();
    const error = await apiError(clientFor(sandbox, key).getRecipeSubmission({ id: 'sub_unknown' }));
    expect(error).toMatchObject({ status: 404, code: 'not_found', operationId: 'getRecipeSubmission' });
  });
});

describe('fileSignupRequest and getSignupRequest', () => {
  it('when a request is filed, then it is pending and polls as pending until its expiry time', async () => {
    const { key } = await sandbox.holder.account({ signup: true });
    const vault = clientFor(sandbox, key);
    const filed = await vault.fileSignupRequest({ website: 'example.com', email: 'jane@example.com', minLength: 16, noSymbols: true });
    expect(filed).toEqual({ requestId: expect.any(String), status: 'pending', expiresAt: expect.any(Number) });
    expect(await vault.getSignupRequest({ id: filed.requestId })).toEqual({ status: 'pending', expiresAt: filed.expiresAt });
  });

  it('when the key lacks the signup permission, then 403 signup_not_enabled', async () => {
    const { key } = await sandbox.holder.account({ signup: false });
    const error = await apiError(clientFor(sandbox, key).fileSignupRequest({ website: 'example.com', email: 'jane@example.com' }));
    expect(error).toMatchObject({ status: 403, code: 'signup_not_enabled', operationId: 'fileSignupRequest' });
  });

  it.each([
    [{ website: 'not a domain', email: 'jane@example.com' }, 'invalid_website'],
    [{ website: 'example.com', email: 'jane' }, 'invalid_email'],
    [{ website: 'example.com', email: 'jane@example.com', username: 'ab' }, 'invalid_username'],
    [{ website: 'example.com', email: 'jane@example.com', maxLength: 8 }, 'password_too_short'],
    [{ website: 'example.com', email: 'jane@example.com', minLength: 80 }, 'invalid_policy'],
  ] as const)('when the body is %j, then 400 %s', async (body, code) => {
    const { key } = await sandbox.holder.account({ signup: true });
    const error = await apiError(clientFor(sandbox, key).fileSignupRequest(body));
    expect(error).toMatchObject({ status: 400, code });
  });

  it('when the request id is unknown, then 404 request_not_found', async () => {
    const { key } = await sandbox.holder.account({ signup: true });
    const error = await apiError(clientFor(sandbox, key).getSignupRequest({ id: 'sreq_unknown' }));
    expect(error).toMatchObject({ status: 404, code: 'request_not_found' });
  });

  it('when the approved login has left the key scope, then the poll answers 403 scope_denied', async () => {
    const { accountId, keyId, key } = await sandbox.holder.account({ signup: true, scope: [] });
    const vault = clientFor(sandbox, key);
    const approved = await approvedLogin(sandbox, accountId, vault);
    await sandbox.holder.removeKeyLogin(accountId, keyId, approved.login.label);
    const error = await apiError(vault.getSignupRequest({ id: approved.requestId }));
    expect(error).toMatchObject({ status: 403, code: 'scope_denied', operationId: 'getSignupRequest' });
  });
});

describe('setLoginUsername and rotateLoginPassword', () => {
  it('when the creating key sets the username once, then the login has it and a different one is refused with 409', async () => {
    const { accountId, key } = await sandbox.holder.account({ signup: true });
    const vault = clientFor(sandbox, key);
    const { login } = await approvedLogin(sandbox, accountId, vault);
    const set = await vault.setLoginUsername({ label: login.label, username: 'shopper.jane' });
    expect(set.login).toMatchObject({ label: login.label, hasUsername: true, tokens: { username: expect.any(String) } });
    expect(await vault.setLoginUsername({ label: login.label, username: 'shopper.jane' })).toEqual(set);
    const error = await apiError(vault.setLoginUsername({ label: login.label, username: 'someone.else' }));
    expect(error).toMatchObject({ status: 409, code: 'username_already_set' });
  });

  it('when the label is unknown, then setLoginUsername answers 404 not_found and rotateLoginPassword 409 not_rotatable', async () => {
    const { key } = await sandbox.holder.account({ signup: true });
    const vault = clientFor(sandbox, key);
    expect(await apiError(vault.setLoginUsername({ label: 'nosuchlogin', username: 'shopper.jane' }))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await apiError(vault.rotateLoginPassword({ label: 'nosuchlogin' }))).toMatchObject({ status: 409, code: 'not_rotatable' });
  });

  it('when the creating key rotates the password with rules, then the policy follows them and the tokens stay', async () => {
    const { accountId, key } = await sandbox.holder.account({ signup: true });
    const vault = clientFor(sandbox, key);
    const { login } = await approvedLogin(sandbox, accountId, vault);
    const rotated = await vault.rotateLoginPassword({ label: login.label, minLength: 30, maxLength: 30, noSymbols: true });
    expect(rotated).toMatchObject({ rotated: true, passwordPolicy: { length: 30 }, login: { tokens: { password: login.tokens.password } } });
    expect(rotated.passwordPolicy.symbolAlphabet).toBeUndefined();
  });
});

describe('createLogin', () => {
  it('when called, then the retired operation rejects with 410 signup_requires_approval', async () => {
    const error = await apiError(clientFor(sandbox).createLogin());
    expect(error).toMatchObject({ status: 410, code: 'signup_requires_approval', operationId: 'createLogin' });
  });
});

describe('account-holder links', () => {
  it('when the holder reads and approves a signup link, then the link shows the request and then its decision', async () => {
    const { accountId, key } = await sandbox.holder.account({ signup: true });
    const agent = clientFor(sandbox, key);
    const filed = await agent.fileSignupRequest({ website: 'example.com', email: 'jane@example.com' });
    const token = await sandbox.holder.signupLink(accountId, filed.requestId);
    const holder = clientFor(sandbox);
    expect(await holder.getSignupApproval({ token })).toMatchObject({ status: 'pending', website: 'example.com', email: 'jane@example.com' });
    expect(await holder.decideSignupApproval({ token, decision: 'approve' })).toMatchObject({ status: 'approved' });
    expect((await agent.getSignupRequest({ id: filed.requestId })).status).toBe('approved');
  });

  it('when a held purchase is read and approved, then the decision is recorded; a mismatch needs declared', async () => {
    const accountId = await sandbox.holder.createAccount();
    const holder = clientFor(sandbox);
    const plain = await sandbox.holder.createPurchaseApproval(accountId);
    expect(await holder.getPurchaseApproval({ token: plain.token })).toMatchObject({ offersDeclared: expect.any(Boolean) });
    expect(await holder.decidePurchaseApproval({ token: plain.token, decision: 'approve', at: 'page' })).toMatchObject({ status: 'approved' });
    const mismatch = await sandbox.holder.createPurchaseApproval(accountId, { kind: 'amount_mismatch', offersDeclared: true });
    const error = await apiError(holder.decidePurchaseApproval({ token: mismatch.token, decision: 'approve', at: 'page' }));
    expect(error).toMatchObject({ status: 400, code: 'declared_required', operationId: 'decidePurchaseApproval' });
  });

  it('when a security-code or challenge link is opened, then it answers; an unknown link is 404 not_found', async () => {
    const accountId = await sandbox.holder.createAccount();
    const holder = clientFor(sandbox);
    const cvv = await sandbox.holder.createCvvRequest(accountId);
    const challenge = await sandbox.holder.createChallengeRequest(accountId);
    expect(await holder.getCvvRequest({ token: cvv.token })).toEqual(expect.any(Object));
    expect(await holder.getChallengeRequest({ token: challenge.token })).toEqual(expect.any(Object));
    expect(await apiError(holder.getCvvRequest({ token: 'lnk_unknown' }))).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('getProxyHealth', () => {
  it('when the proxy URL is ws://host:port/v1, then the health check goes to http://host:port/health', async () => {
    const proxyUrl = `${sandbox.base.replace('http:', 'ws:')}/v1`;
    expect(await clientFor(sandbox, undefined, { proxyUrl }).getProxyHealth()).toEqual({ ok: true });
  });
});

// Runs last in this file (vitest keeps the order of a file's tests): the tests above, together, call
// every operation the document has.
describe('coverage', () => {
  it('when the tests above have run, then every operation of the document was called through the client and answered', () => {
    const answered = new Set(sandbox.server.logs.map((l) => l.operation));
    const missing = (Object.keys(OPERATIONS) as OperationId[]).filter((id) => !calledOperations.has(id) || !answered.has(id));
    expect(missing).toEqual([]);
  });
});
