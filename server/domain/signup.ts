import { transaction, type Db } from '../store/db.js';
import type { Sealer } from '../store/secrets.js';
import type { Contract, PlanName } from '../contract.js';
import { getAccount } from '../store/accounts.js';
import { addKeyLogin, getKey, keyLoginIds } from '../store/keys.js';
import {
  countLogins,
  getLogin,
  getLoginByLabel,
  insertLogin,
  labelTaken,
  readUsername,
  setPassword,
  setUsername,
} from '../store/logins.js';
import * as requests from '../store/signup-requests.js';
import { countPreapprovedSignup, getPreapproval } from '../store/preapprovals.js';
import { closeSignupLinks } from '../store/links.js';
import type { Clock } from './clock.js';
import type { Limiter, LimitCheck } from './limiter.js';
import { ApiError } from './errors.js';
import { allocateLabel } from './labels.js';
import { generatePassword } from './passwords.js';
import { passwordLength, policyOf, readPasswordRules, type PasswordPolicy, type PasswordRules } from './password-policy.js';
import { registrableWebsite, siteLabel } from './sites.js';
import { loginEntryOf, type LoginEntry } from './catalog.js';

/**
 * The signup workflow (sections 2.5, 3, 4.6, 4.7, 8.3, 8.4). Every limit is read from the document
 * through the limiter, so deployment settings apply; every check and write of one decision runs in
 * one immediate transaction, so two processes on one database cannot both take the last label or
 * the last change of a budget.
 */

export interface SignupDeps {
  db: Db;
  sealer: Sealer;
  clock: Clock;
  limiter: Limiter;
  contract: Contract;
}

export interface FilingKey {
  id: string;
  account_id: string;
  plan: PlanName;
  scoped: number;
}

export type SignupStatus = 'pending' | 'approved' | 'denied' | 'expired';

export interface FiledRequest {
  requestId: string;
  status: 'pending' | 'approved';
  expiresAt: number;
}

export type PollBody =
  | { status: 'pending'; expiresAt: number }
  | { status: 'approved'; login: LoginEntry; passwordPolicy: PasswordPolicy; passwordOwnerManaged: boolean }
  | { status: 'denied' | 'expired' };

/** Why an approval could not complete: the `code` of the limit that stopped it (shown only to the account holder). */
export type ApprovalOutcome = { ok: true; loginId: string } | { ok: false; reason: string };

const value = (deps: SignupDeps, id: string, plan: PlanName = 'Free') => deps.limiter.max(deps.contract.limit(id), plan);
const seconds = (deps: SignupDeps, id: string) => value(deps, id) * 1000;
const reasonOf = (deps: SignupDeps, id: string) => deps.contract.limit(id).code ?? id;

export function effectiveStatus(row: requests.SignupRequestRow, now: number): SignupStatus {
  return row.status === 'pending' && now >= row.expires_at ? 'expired' : row.status;
}

// The document's pattern reads "no whitespace" as `\s`, which misses U+0085 (NEL); the email's
// description asks for no whitespace in any Unicode sense and no control characters (NUL, ESC, DEL
// and the C1 controls), which no address syntax admits. This is the check of that sentence.
const NOT_IN_AN_EMAIL = /[\p{White_Space}\p{Cc}]/u;

/** The document's sentence for a website that is not a registrable domain, as its validation gives it. */
function websiteRefusal(contract: Contract): string {
  const schema = contract.resolve((contract.doc as { components: { schemas: Record<string, unknown> } }).components.schemas.SignupRequestCreate);
  return String(contract.resolve(schema.properties.website)['x-error-message']);
}

/** Websites filed lately, with their normal form: agents file for the same sites again and again. */
const normalForms = new Map<string, string | null>();
const NORMAL_FORMS_KEPT = 1000;
const LONGEST_HOST = 253;

function normalWebsite(value: string): string | null {
  if (value.length > LONGEST_HOST) return registrableWebsite(value);
  let normal = normalForms.get(value);
  if (normal === undefined) {
    normal = registrableWebsite(value);
    if (normalForms.size >= NORMAL_FORMS_KEPT) normalForms.clear();
    normalForms.set(value, normal);
  }
  return normal;
}

/**
 * POST /v1/logins/requests. The body has passed the document's validation (email, username). Runs
 * inside the write transaction the caller holds (a step of a group commit, which holds the write
 * lock): a refusal throws, and the caller rolls back what was written.
 */
export async function fileSignupRequest(deps: SignupDeps, key: FilingKey, body: Record<string, unknown>): Promise<FiledRequest> {
  // Stored, compared (pre-approvals, labels, the catalog) and returned in its normal form.
  const website = typeof body.website === 'string' ? normalWebsite(body.website) : null;
  if (website === null) throw new ApiError(400, 'invalid_website', websiteRefusal(deps.contract));
  const email = body.email as string;
  if (NOT_IN_AN_EMAIL.test(email)) {
    throw new ApiError(400, 'invalid_email', 'email must be one address of 4 to 254 characters with one @, no whitespace of any kind (U+0085 included) and no control characters.');
  }
  const rules = readPasswordRules(body, passwordLength(deps.contract));
  const username = typeof body.username === 'string' ? body.username : null;
  const { db, sealer } = deps;

  const now = deps.clock.now();
  const loginLimit = deps.contract.limit('logins-per-account');
  if (await countLogins(db, key.account_id) >= value(deps, loginLimit.id)) {
    throw new ApiError(loginLimit.status ?? 403, loginLimit.code ?? 'login_limit', 'The account holds the most logins it may; the account holder must delete logins before an agent can add one.');
  }
  const expiresAt = now + seconds(deps, 'signup-request-lifetime');
  const requestId = await requests.insertSignupRequest(db, sealer, {
    accountId: key.account_id,
    keyId: key.id,
    website,
    email,
    username,
    rules: JSON.stringify(rules),
    now,
    expiresAt,
  });
  if (await preapprovalApplies(deps, key, website, email)) {
    const outcome = await approve(deps, (await requests.getSignupRequest(db, requestId))!, { preapproved: true });
    if (outcome.ok) return { requestId, status: 'approved', expiresAt };
  }

  const pendingLimit = deps.contract.limit('pending-signup-requests');
  const maxPending = value(deps, pendingLimit.id);
  // The new request is already counted: refuse when it would be one too many.
  if (await requests.pendingAbove(db, key.account_id, now, maxPending)) {
    throw new ApiError(pendingLimit.status ?? 429, pendingLimit.code ?? 'too_many_pending', `${maxPending} signup requests already await the account holder; poll them before filing another.`);
  }
  // The request's link is its id with the server's tag (signupLinkToken): nothing more to store.
  return { requestId, status: 'pending', expiresAt };
}

/** Site and exact email on the list, within both pre-approval ceilings (section 4.6). */
async function preapprovalApplies(deps: SignupDeps, key: FilingKey, site: string, email: string): Promise<boolean> {
  const listed = await getPreapproval(deps.db, deps.sealer, key.account_id, site);
  if (!listed || listed.email !== email) return false;
  if (listed.signups >= value(deps, 'preapproved-signups-per-site')) return false;
  return deps.limiter.fits(deps.db, [preapprovalAllowance(deps, key.account_id, key.plan)]);
}

function preapprovalAllowance(deps: SignupDeps, accountId: string, plan: PlanName): LimitCheck {
  return { limit: deps.contract.limit('preapproved-signups-per-account'), subject: accountId, plan };
}

function changeBudget(deps: SignupDeps, accountId: string, plan: PlanName): LimitCheck {
  return { limit: deps.contract.limit('credential-changes-per-account'), subject: accountId, plan };
}

/**
 * Runs every approval check, then creates the login. Call inside an immediate transaction. A
 * pre-approved signup draws on the pre-approval allowance; an account holder's approval charges
 * the credential-change budget. A failed check writes nothing but its reason.
 */
async function approve(deps: SignupDeps, request: requests.SignupRequestRow, options: { preapproved: boolean }): Promise<ApprovalOutcome> {
  const { db, sealer } = deps;
  const now = deps.clock.now();
  const accountId = request.account_id;
  const plan = (await getAccount(db, accountId))!.plan;
  const key = request.key_id ? await getKey(db, request.key_id) : undefined;

  const failed = async (limitId: string): Promise<ApprovalOutcome> => {
    const reason = reasonOf(deps, limitId);
    await requests.recordApprovalFailure(db, request.id, reason);
    return { ok: false, reason };
  };

  if (await countLogins(db, accountId) >= value(deps, 'logins-per-account', plan)) return failed('logins-per-account');
  const label = await allocateLabel((l) => labelTaken(db, accountId, l), siteLabel(request.website), value(deps, 'labels-per-site-name', plan));
  if (label === null) return failed('labels-per-site-name');
  if (key?.scoped === 1) {
    const list = deps.contract.limit('scoped-key-login-list');
    const { added, total } = await requests.scopedListCounts(db, key.id);
    if (added >= value(deps, list.id, plan) || (list.fullAbove !== undefined && total > list.fullAbove)) return failed(list.id);
  }
  const budget = options.preapproved ? preapprovalAllowance(deps, accountId, plan) : changeBudget(deps, accountId, plan);
  if (!await deps.limiter.fits(deps.db, [budget])) return failed(budget.limit.id);

  const rules = JSON.parse(request.rules) as PasswordRules;
  const { email, username } = await requests.readSignupIdentity(db, sealer, request.id);
  const loginId = await insertLogin(db, sealer, {
    accountId,
    label,
    website: request.website,
    extraWebsites: [],
    email,
    username,
    password: generatePassword(rules),
    createdByKey: request.key_id,
    now,
  });
  if (key?.scoped === 1) await addKeyLogin(db, key.id, loginId);
  await deps.limiter.consumeInTransaction(db, [budget]);
  if (options.preapproved) await countPreapprovedSignup(db, accountId, request.website);
  await requests.markApproved(db, request.id, { loginId, passwordPolicy: JSON.stringify(policyOf(rules)), preapproved: options.preapproved, now });
  await closeSignupLinks(db, request.id, 'approved', now);
  return { ok: true, loginId };
}

/** GET /v1/logins/requests/{id}: only the filing key sees the request; never a password. */
export async function pollSignupRequest(deps: SignupDeps, key: FilingKey, id: string): Promise<PollBody> {
  const { db } = deps;
  const row = await requests.getSignupRequest(db, id);
  if (!row || row.key_id !== key.id) throw new ApiError(404, 'request_not_found', 'No signup request with this id was filed by this key.');
  const status = effectiveStatus(row, deps.clock.now());
  if (status === 'pending') return { status, expiresAt: row.expires_at };
  if (status !== 'approved') return { status };
  const login = row.login_id ? await getLogin(db, row.login_id) : undefined;
  if (!login || !await inScope(db, key, login.id)) throw new ApiError(403, 'scope_denied', "The approved login is no longer in this key's scope.");
  return {
    status,
    login: await loginEntryOf(db, login),
    passwordPolicy: JSON.parse(row.password_policy!) as PasswordPolicy,
    passwordOwnerManaged: login.password_owner_managed === 1,
  };
}

/** Section 5 item 6: a scoped key reaches only the logins on its list. */
async function inScope(db: Db, key: FilingKey, loginId: string): Promise<boolean> {
  return key.scoped !== 1 || (await keyLoginIds(db, key.id)).includes(loginId);
}

/** What the account holder sees on the signup link: the request, and why an approval could not complete. */
export interface SignupDecisionView {
  status: SignupStatus;
  website: string;
  email: string;
  username: string | null;
  expiresAt: number;
  approvalFailure: string | null;
}

export async function viewSignupRequest(deps: SignupDeps, requestId: string): Promise<SignupDecisionView> {
  const row = (await requests.getSignupRequest(deps.db, requestId))!;
  const { email, username } = await requests.readSignupIdentity(deps.db, deps.sealer, requestId);
  return {
    status: effectiveStatus(row, deps.clock.now()),
    website: row.website,
    email,
    username,
    expiresAt: row.expires_at,
    approvalFailure: row.status === 'pending' ? row.approval_failure : null,
  };
}

/**
 * The account holder's decision on a pending request. Approval runs every check in this
 * transaction; when one fails the request stays pending and the reason is returned (for the
 * account holder only). Returns undefined when the request is no longer pending.
 */
export async function decideSignupRequest(deps: SignupDeps, requestId: string, decision: 'approve' | 'deny'): Promise<ApprovalOutcome | { ok: true; denied: true } | undefined> {
  const row = await requests.getSignupRequest(deps.db, requestId);
  if (!row || effectiveStatus(row, deps.clock.now()) !== 'pending') return undefined;
  if (decision === 'deny') {
    await requests.markDenied(deps.db, requestId, deps.clock.now());
    await closeSignupLinks(deps.db, requestId, 'denied', deps.clock.now());
    return { ok: true, denied: true };
  }
  return approve(deps, row, { preapproved: false });
}

/**
 * An agent-created login the key may still change (sections 4.8, 4.9): created by this key, still
 * in its scope, and younger than the change window (a deployment setting). Windows run from
 * creation: a change at exactly the window's end is too late. A scoped key whose list no longer
 * holds the login may not change it (section 5 item 6): it reads as a login this key may not
 * change, the operation's own answer, and never shows the login's entry.
 */
async function changeableLogin(deps: SignupDeps, key: FilingKey, label: string) {
  const login = await getLoginByLabel(deps.db, key.account_id, label);
  if (!login || login.created_by_key !== key.id || !await inScope(deps.db, key, login.id)) return { login: undefined, inWindow: false };
  const inWindow = deps.clock.now() < login.created_at + seconds(deps, 'login-change-window');
  return { login, inWindow };
}

async function entryOf(deps: SignupDeps, loginId: string): Promise<LoginEntry> {
  return loginEntryOf(deps.db, (await getLogin(deps.db, loginId))!);
}

/** POST /v1/logins/username. The body has passed the document's validation. */
export function setLoginUsername(deps: SignupDeps, key: FilingKey, label: string, username: string): Promise<{ login: LoginEntry }> {
  const { sealer } = deps;
  return transaction(deps.db, async (db) => {
    const tx = { ...deps, db };
    const { login, inWindow } = await changeableLogin(tx, key, label);
    const notFound = () => new ApiError(404, 'not_found', 'No login with this label that this key may change.');
    if (!login) throw notFound();
    const current = await readUsername(db, sealer, login.id);
    // Recorded once: the same username again is a success that writes and charges nothing.
    if (current === username) return { login: await entryOf(tx, login.id) };
    if (current !== null) throw new ApiError(409, 'username_already_set', 'This login already has a different username.');
    if (!inWindow) throw notFound();
    await deps.limiter.consumeInTransaction(db, [changeBudget(deps, key.account_id, key.plan)]);
    await setUsername(db, sealer, login, username);
    return { login: await entryOf(tx, login.id) };
  });
}

/** POST /v1/logins/password: a new generated password behind the same tokens. */
export function rotateLoginPassword(
  deps: SignupDeps,
  key: FilingKey,
  body: Record<string, unknown>,
): Promise<{ login: LoginEntry; passwordPolicy: PasswordPolicy; rotated: true }> {
  const rules = readPasswordRules(body, passwordLength(deps.contract));
  const label = body.label as string;
  const { sealer } = deps;
  return transaction(deps.db, async (db) => {
    const tx = { ...deps, db };
    const { login, inWindow } = await changeableLogin(tx, key, label);
    if (!login || !inWindow || login.password_owner_managed === 1) {
      throw new ApiError(409, 'not_rotatable', 'This key cannot rotate the password of this login (not its creator, past the change window, replaced by the account holder, or no such label).');
    }
    await deps.limiter.consumeInTransaction(db, [changeBudget(deps, key.account_id, key.plan)]);
    await setPassword(db, sealer, login.id, generatePassword(rules), false);
    return { login: await entryOf(tx, login.id), passwordPolicy: policyOf(rules), rotated: true as const };
  });
}
