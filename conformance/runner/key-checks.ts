import { randomBytes } from 'node:crypto';
import type { KeyRole } from './case.js';
import { KEY_OPTION } from './context.js';
import type { Connection, HttpResponse } from './http.js';
import { codeOf } from './exchange.js';
import { UsageError } from './options.js';

/**
 * Each key given is what its option claims, checked before the first case, since a swapped key
 * fails cases that would blame the deployment and leaves behind what those cases wrote. Every
 * check here changes nothing on the deployment:
 *
 * - The signup permission (section 4.5, section 5 item 5) is asked with POST /v1/logins/password
 *   for a label no login has. Past the permission check, section 4.9 answers every unknown label
 *   with 409 `not_rotatable`, and nothing is written (the credential-change budget is charged only
 *   by a write, section 4.5). Without the permission, 403 `signup_not_enabled`. The body is well
 *   formed, so the answer does not depend on whether a deployment checks the body or the
 *   permission first (the specification does not order them). It costs one of the key's 20 login
 *   writes of the minute, which the specification counts per key, at most.
 * - First, a key nobody issued: a deployment that answers it (a stateless mock) tells no key from
 *   another, and the checks below are skipped with a line saying so.
 * - Another account's key (section 5 item 7: tokens belong to one account) is compared by the
 *   tokens of the two catalogs (GET /v1/tokens, a read): a token in both means one account. A
 *   catalog holds a token per identity field even when empty (section 2.1), so two accounts are
 *   told apart when the deployment lists those; when neither catalog holds a token, nothing free of
 *   side effects tells two accounts apart, and the runner says so and goes on.
 */

/** What the checks report that is not an error: a claim no check free of side effects could confirm. */
export type KeyCheckLog = (line: string) => void;

interface Ask {
  connection: Connection;
  baseUrl: string;
  timeoutMs: number;
}

async function send(ask: Ask, method: string, path: string, key: string, body?: unknown): Promise<HttpResponse> {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const request = ask.connection.request({ method, url: `${ask.baseUrl}${path}`, headers, body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)) });
  return ask.connection.send(request, ask.timeoutMs);
}

/** Whether the key has the signup permission, or undefined when the answer does not say. */
export async function hasSignupPermission(ask: Ask, key: string): Promise<boolean | undefined> {
  const label = `conformancekeycheck${randomBytes(4).toString('hex')}`;
  const res = await send(ask, 'POST', '/v1/logins/password', key, { label });
  if (res.status === 403 && codeOf(res) === 'signup_not_enabled') return false;
  // Only the unknown label's answer of section 4.9 proves the check was passed; anything else (a
  // mock's example, a gateway's refusal) says nothing of the permission.
  if (res.status === 409 && codeOf(res) === 'not_rotatable') return true;
  return undefined;
}

/** The opaque strings of a catalog that may be tokens: every string but the named plain members. */
const PLAIN = new Set(['label', 'website', 'extraWebsites', 'missing', 'error', 'code']);

export function catalogTokens(body: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(body)) for (const item of body) catalogTokens(item, into);
  else if (body && typeof body === 'object') {
    for (const [name, value] of Object.entries(body)) {
      if (PLAIN.has(name)) continue;
      if (typeof value === 'string' && value.length >= 8) into.add(value);
      else catalogTokens(value, into);
    }
  }
  return into;
}

async function tokensOf(ask: Ask, key: string): Promise<Set<string> | undefined> {
  const res = await send(ask, 'GET', '/v1/tokens', key);
  return res.status === 200 ? catalogTokens(res.json) : undefined;
}

/** Checks every key given for what its option claims; a mismatch is a UsageError naming the option. */
export async function checkKeys(ask: Ask, keys: Partial<Record<KeyRole, string>>, log: KeyCheckLog): Promise<void> {
  const undetermined = (option: string, why: string) => log(`${option}: could not confirm ${why}; going on\n`);
  // A deployment that answers a key nobody issued (a stateless mock) tells no key from another, so
  // nothing it answers here says what a key is (section 5 item 3 refuses an unknown key).
  const made = `vk_conformance_unissued_${randomBytes(12).toString('hex')}`;
  if ((await send(ask, 'GET', '/v1/tokens', made)).status === 200) {
    log('keys: the deployment answered a key it never issued, so what each key may do cannot be checked; going on\n');
    return;
  }
  if (keys.key) {
    const signup = await hasSignupPermission(ask, keys.key);
    if (signup === true) throw new UsageError('the key given with --key has the signup permission; give a key without it (the cases need its refusals), and this one as --signup-key');
    if (signup === undefined) undetermined('--key', 'that it lacks the signup permission (POST /v1/logins/password answered neither 403 signup_not_enabled nor past it)');
  }
  if (keys.signupKey) {
    const signup = await hasSignupPermission(ask, keys.signupKey);
    if (signup === false) throw new UsageError('the key given with --signup-key lacks the signup permission (403 signup_not_enabled); give a key the account holder granted it');
    if (signup === undefined) undetermined('--signup-key', 'that it has the signup permission (POST /v1/logins/password answered neither 403 signup_not_enabled nor past it)');
  }
  const other = keys.otherAccountKey;
  if (!other) return;
  const own = (['key', 'signupKey', 'scopedKey'] as const).filter((role) => keys[role]);
  for (const role of own) {
    if (keys[role] === other) throw new UsageError(`the key given with --other-account-key is the one given with ${KEY_OPTION[role]}; give a key of another account`);
  }
  const theirs = await tokensOf(ask, other);
  let compared = false;
  for (const role of own) {
    const mine = await tokensOf(ask, keys[role]!);
    if (!mine || !theirs || mine.size === 0 || theirs.size === 0) continue;
    compared = true;
    if ([...mine].some((t) => theirs.has(t))) {
      throw new UsageError(`the key given with --other-account-key belongs to the account of ${KEY_OPTION[role]} (their catalogs share tokens); give a key of another account`);
    }
  }
  if (own.length > 0 && !compared) undetermined('--other-account-key', 'that it belongs to another account: neither catalog holds a token to compare, and no other check is free of side effects');
}
