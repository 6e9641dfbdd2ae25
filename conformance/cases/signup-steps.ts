import type { CaseContext } from '../runner/context.js';
import type { Account } from '../runner/account.js';
import type { Exchange } from '../runner/exchange.js';
import type { Node } from '../runner/document.js';
import { password as newPassword } from '../runner/data.js';
import { RunnerError } from '../runner/outcome.js';
import { describeResponse } from '../runner/context.js';
import { LINK_BODY, LINK_OK, catalog, expectLinkRefused, fileSignup, signupApproved, signupSetup, type Filed } from './shared-steps.js';
import { spec, type Rule } from '../runner/basis.js';
import { body, entries } from '../runner/by-meaning.js';

/**
 * Steps the signup cases share beyond shared-steps.ts: the holder's view of a request, approvals that
 * cannot complete, password-policy and no-password checks, exact-size bodies, and logins saved in
 * bulk. Every call goes through `ctx.call`, so each response is still checked against the document.
 */

export const LIFETIME = 'signup-request-lifetime';
export const CHANGE_WINDOW = 'login-change-window';
export const WRITES = 'login-writes-per-key';
export const BUDGET = 'credential-changes-per-account';
export const PENDING = 'pending-signup-requests';

export const seconds = (ctx: CaseContext, id: string): number => ctx.limits.value(id) * 1000;

/** Files and expects the error `code` (its status from the document), by `rule`. */
export async function fileRefused(ctx: CaseContext, key: string, json: unknown, code: string, why: string, rule: Rule): Promise<Exchange> {
  const ex = await ctx.call('fileSignupRequest', { key, json });
  ctx.expectError(ex, code, rule);
  ctx.step(`refused ${why} with ${code}`);
  return ex;
}

/** The holder's view of a request through its link (`getSignupApproval`), expected to succeed. */
export async function holderView(ctx: CaseContext, token: string, rule: Rule = spec('link-signup-request')): Promise<Record<string, Node>> {
  const ex = await ctx.call('getSignupApproval', { params: { token } });
  ctx.expectSuccess(ex, rule, LINK_OK);
  return body(ex);
}

/** The holder's link refuses once used up or expired (section 4.11; 404 `not_found` is the reference's answer). */
export async function expectLinkGone(ctx: CaseContext, token: string, why: string, rule: Rule): Promise<void> {
  const ex = await ctx.call('getSignupApproval', { params: { token } });
  expectLinkRefused(ctx, ex, rule);
  ctx.step(`the holder's link refuses ${why}: ${ex.response.status}`);
}

/**
 * The holder approves, an approval check fails: the request stays pending, the account holder is
 * shown the check's reason, and the agent sees only `pending`. That the answer and the link show it
 * as `approvalFailure` is the reference's way.
 */
export async function approvalFails(ctx: CaseContext, account: Account, key: string, requestId: string, reason: string): Promise<string> {
  const token = await account.signupLink(requestId);
  const ex = await ctx.call('decideSignupApproval', { params: { token }, json: { decision: 'approve' } });
  // An approval that cannot complete is no success: section 3 leaves open how its failure is shown
  // to the account holder, so any answer but a server's failure will do (a 409 with the reason, a
  // 202); the reference answers 200 with `approvalFailure`.
  const status = ex.response.status;
  ctx.check(status >= 200 && status <= 499 && (status < 300 || status >= 400), 'an answer to the account holder (a 2xx or a 4xx)', () => describeResponse(ex), spec('signup-failed-approval-stays-pending'), ex);
  ctx.check(status === LINK_OK.status, `status ${LINK_OK.status}`, () => describeResponse(ex), LINK_OK.basis, ex);
  const answer = body(ex);
  const where = { ...LINK_BODY, pointer: '#/components/schemas/SignupApproval/properties/approvalFailure' };
  ctx.expectEqual([answer.status, answer.approvalFailure], ['pending', reason], 'the approval answer [status, approvalFailure]', where, ex);
  const view = await holderView(ctx, token, spec('signup-failed-approval-stays-pending'));
  ctx.expectEqual([view.status, view.approvalFailure], ['pending', reason], "the holder's link afterwards [status, approvalFailure]", where);
  // Section 3: the failure is shown only to the account holder, who sees it on the dashboard (the driver maps it to the runner's words).
  const state = await account.linkState(token);
  ctx.expectEqual([state.status, state.approvalFailure], ['pending', reason], 'what the account holder is shown [status, the failed check]', spec('signup-failed-approval-stays-pending'));
  const poll = await ctx.call('getSignupRequest', { key, params: { id: requestId } });
  ctx.expectStatus(poll, 200, spec('poll-answer-200'));
  ctx.expectEqual(body(poll).status, 'pending', "the agent's poll status", spec('signup-failed-approval-stays-pending'), poll);
  ctx.check(!poll.response.text.includes(reason), `the agent's poll not to name the failed check ${reason}`, poll.response.text, spec('signup-failed-approval-stays-pending'), poll);
  ctx.step(`approval of ${requestId} failed with ${reason}; the agent still sees pending`);
  return token;
}

/** Files a pending request, approves it through the link, and returns the approved poll's login. */
export async function approvedLogin(ctx: CaseContext, account: Account, key: string, body: Record<string, unknown> = {}) {
  const done = await signupApproved(ctx, account, key, body);
  return { ...done, label: done.login.label as string };
}

/**
 * A login an agent key created, and the keys and labels that are not its creator's (sections 4.8,
 * 4.9): another key of the account, a key of another account, an unknown label, and a login the
 * account holder saved. Each is `[who, key, label]`.
 */
export async function loginAndStrangers(ctx: CaseContext) {
  const { account, key } = await signupSetup(ctx);
  const { label } = await approvedLogin(ctx, account, key);
  const saved = await account.saveLogin({ website: ctx.site(), email: ctx.email() });
  const sibling = (await account.issueKey({ signup: true })).key;
  const stranger = (await (await ctx.account()).issueKey({ signup: true })).key;
  const strangers: (readonly [who: string, key: string, label: string])[] = [
    ['another signup key of the account', sibling, label],
    ['a signup key of another account', stranger, label],
    ['the creating key, for an unknown label', key, `${label}zz9`],
    ['the creating key, for a login the account holder saved', key, saved.label],
  ];
  return { key, label, strangers };
}

/** Files and expects `pending`, whatever the site. */
export async function filePending(ctx: CaseContext, key: string, fields: Record<string, unknown> = {}): Promise<Filed> {
  const filed = await fileSignup(ctx, key, fields);
  ctx.check(filed.status === 'pending', 'status pending for a request the holder must decide', `status ${filed.status}`, spec('signup-files-pending'), filed.exchange);
  return filed;
}

/** Files on a pre-approved site and expects the `status` given. */
export async function fileExpecting(ctx: CaseContext, key: string, fields: Record<string, unknown>, status: 'pending' | 'approved', why: string, rule: Rule): Promise<Filed> {
  const filed = await fileSignup(ctx, key, fields);
  ctx.check(filed.status === status, `status ${status} ${why}`, `status ${filed.status}`, rule, filed.exchange);
  return filed;
}

/** The login entry the catalog lists for a label. */
export async function catalogEntry(ctx: CaseContext, key: string, label: string): Promise<Record<string, Node> | undefined> {
  return entries((await catalog(ctx, key)).logins).find((l: Node) => l?.label === label);
}

/** Section 2.1: the login entry of a signup endpoint is the one the catalog lists for that label. */
export async function expectCatalogEntry(ctx: CaseContext, key: string, login: Record<string, Node>, what: string, ex?: Exchange): Promise<void> {
  const listed = await catalogEntry(ctx, key, login.label as string);
  ctx.expectEqual(login, listed, `${what} to equal the catalog's entry for ${login.label}:`, spec('signup-login-entry-is-the-catalog-entry'), ex);
}

/**
 * Section 2.5: the poll never returns a password. No member named `password` anywhere but the
 * login's password token.
 */
export function expectNoPassword(ctx: CaseContext, answer: unknown, tokenAt: string, rule: Rule, ex?: Exchange): void {
  const found: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}/${i}`));
    else if (value && typeof value === 'object') {
      for (const [name, v] of Object.entries(value)) {
        const at = `${path}/${name}`;
        if (name.toLowerCase() === 'password' && at !== tokenAt) found.push(at);
        walk(v, at);
      }
    }
  };
  walk(answer, '');
  ctx.check(found.length === 0, `no password; the only member named password is the token at ${tokenAt}`, () => `a member at ${found.join(', ')}`, rule, ex);
}

/** The safe symbol set, from the document's `PasswordPolicy.symbolAlphabet` pattern. */
export function safeSymbols(ctx: CaseContext): string[] {
  const pattern = ctx.doc.doc?.components?.schemas?.PasswordPolicy?.properties?.symbolAlphabet?.pattern as string | undefined;
  const set = pattern && /^\^\[(.*)\]\+\$$/.exec(pattern)?.[1];
  if (!set) throw new RunnerError('runner', 'the document gives no PasswordPolicy.symbolAlphabet pattern to read the safe symbol set from');
  return [...set.replace(/\\(.)/g, '$1')];
}

export const CLASSES = ['lowercase', 'uppercase', 'digit'];

export interface PolicyExpectation {
  /** The exact length, or the inclusive range it must fall in. */
  length: number | [number, number];
  /** The symbols the password may use (any order), or null for none. */
  symbols: string[] | null;
}

/** Sections 2.5 and 2.6: the `passwordPolicy` a poll or a rotation reports. */
/**
 * Sections 2.5 and 2.6: the `passwordPolicy` a poll or a rotation reports, each part by the
 * requirement that states it; `rule` names the one the case proves (a rule field's effect, say).
 */
export function expectPolicy(ctx: CaseContext, policy: Node, want: PolicyExpectation, what: string, rule: Rule, ex?: Exchange): void {
  const at = (r: Rule): Rule => ({ ...r, pointer: '#/components/schemas/PasswordPolicy' });
  ctx.check(policy && typeof policy === 'object', `a passwordPolicy ${what}`, 'none', at(spec('signup-password-policy')), ex);
  if (typeof want.length === 'number') ctx.expectEqual(policy.length, want.length, `passwordPolicy.length ${what}`, at(rule), ex);
  else {
    const [lo, hi] = want.length;
    ctx.check(policy.length >= lo && policy.length <= hi, `passwordPolicy.length from ${lo} to ${hi} ${what}`, `length ${policy.length}`, at(rule), ex);
  }
  const classes = want.symbols ? [...CLASSES, 'symbol'] : CLASSES;
  const reported = Array.isArray(policy.classes) ? [...(policy.classes as string[])].sort() : policy.classes;
  ctx.expectEqual(reported, [...classes].sort(), `passwordPolicy.classes (in any order) ${what}`, at(spec('generated-password-classes', 'signup-password-policy')), ex);
  if (want.symbols === null) {
    ctx.check(!('symbolAlphabet' in policy), `no symbolAlphabet ${what}`, `symbolAlphabet ${JSON.stringify(policy.symbolAlphabet)}`, at(spec('signup-password-policy')), ex);
  } else {
    const got = [...new Set(String(policy.symbolAlphabet ?? ''))].sort();
    ctx.expectEqual(got, [...new Set(want.symbols)].sort(), `the symbols of passwordPolicy.symbolAlphabet ${what}`, at(rule), ex);
  }
}

/** The default policy: the default length, every class, the whole safe set. */
export function defaultPolicy(ctx: CaseContext): PolicyExpectation {
  return { length: ctx.limits.value('generated-password-length'), symbols: safeSymbols(ctx) };
}

/** The generated password's length range (section 2.6). */
export function lengthRange(ctx: CaseContext): [number, number] {
  const def = ctx.limits.def('generated-password-length');
  if (def.min === undefined || def.max === undefined) throw new RunnerError('runner', 'generated-password-length has no min and max in the document');
  return [def.min, def.max];
}

/** A JSON body of exactly `bytes` bytes: the value, padded with whitespace before its closing brace. */
export function paddedJson(value: Record<string, unknown>, bytes: number): Buffer {
  const text = JSON.stringify(value);
  const pad = bytes - Buffer.byteLength(text);
  if (pad < 0) throw new RunnerError('runner', `the body is already ${Buffer.byteLength(text)} bytes, over ${bytes}`);
  return Buffer.from(`${text.slice(0, -1)}${' '.repeat(pad)}}`);
}

/**
 * Saves many logins as the account holder, a few at a time. They share one random password, one
 * canary for all: a canary per filler login would make every later response's scan slower for no
 * gain. Returns the labels in the order of `websites`.
 */
export async function saveLogins(ctx: CaseContext, account: Account, websites: string[], parallel = 16): Promise<string[]> {
  const driver = ctx.env.driver;
  if (!driver) throw new RunnerError('runner', 'saving logins needs the account-holder driver');
  const secret = newPassword(ctx.random);
  ctx.env.canaries.add(secret, 'password');
  const labels: string[] = new Array<string>(websites.length);
  let next = 0;
  const worker = async () => {
    while (next < websites.length) {
      const i = next++;
      try {
        labels[i] = (await driver.saveLogin(account.id, { website: websites[i]!, password: secret })).label;
      } catch (e) {
        throw new RunnerError('driver', `driver saveLogin: ${(e as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, websites.length) }, worker));
  ctx.step(`saved ${websites.length} logins as the account holder`);
  return labels;
}

/** Sites under distinct public suffixes, each named `name`: they share one label sequence. */
export const SUFFIXES = [
  'com', 'net', 'org', 'info', 'biz', 'io', 'dev', 'app', 'co.uk', 'org.uk', 'me.uk', 'us', 'ca', 'de', 'fr', 'nl', 'se', 'no', 'dk', 'fi',
  'es', 'it', 'pt', 'pl', 'cz', 'at', 'ch', 'be', 'ie', 'eu', 'jp', 'co.jp', 'kr', 'in', 'com.au', 'net.au', 'nz', 'co.nz', 'br', 'com.br',
  'mx', 'ar', 'cl', 'tv', 'cc', 'xyz', 'site', 'online', 'store', 'shop', 'tech', 'ai', 'gg', 'ro', 'hu', 'gr', 'sk', 'si', 'lt', 'lv',
];

/** Issues `n` keys with signup permission on an account. */
export async function signupKeys(account: Account, n: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) keys.push((await account.issueKey({ signup: true })).key);
  return keys;
}

/** Sends `count` requests, spread over `keys` so that no key sends more than `perKey`; in parallel across keys. */
export async function acrossKeys<T>(keys: string[], count: number, perKey: number, send: (key: string, i: number) => Promise<T>): Promise<T[]> {
  if (keys.length * perKey < count) throw new RunnerError('runner', `${keys.length} keys of ${perKey} writes cannot send ${count}`);
  const out: T[] = new Array<T>(count);
  await Promise.all(
    keys.map(async (key, k) => {
      for (let i = k * perKey; i < Math.min(count, (k + 1) * perKey); i++) out[i] = await send(key, i);
    }),
  );
  return out;
}
