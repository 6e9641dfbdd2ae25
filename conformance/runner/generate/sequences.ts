import fc from 'fast-check';
import type { Account } from '../account.js';
import type { Node } from '../document.js';
import type { Exchange } from '../exchange.js';
import type { Gen } from './properties.js';
import { EMAIL, PASSWORD_RULES, SITE, USERNAME } from './values.js';
import { reference, spec } from '../basis.js';
import { body as answerOf, entries } from '../by-meaning.js';

/**
 * Stateful sequences: random walks through the signup workflow on one account and key, chained by
 * what each step returns (file, poll, approve or deny through the holder's link, set the username,
 * rotate, the holder replacing the password, read the catalog). After every step the invariants of
 * the specification are checked against a model of what the steps did:
 * - the poll never carries a password;
 * - the login entry of the signup endpoints equals the catalog's;
 * - no more than the pending ceiling of requests await a decision;
 * - a refused request changes nothing a later read can see;
 * - tokens do not change on rotation.
 */

interface Request {
  id: string;
  status: 'pending' | 'approved' | 'denied';
  label?: string;
}

interface Login {
  label: string;
  username?: string;
  entry: Node;
  ownerManaged: boolean;
}

interface Model {
  requests: Request[];
  logins: Map<string, Login>;
  writes: number;
  changes: number;
}

interface Real {
  g: Gen;
  account: Account;
  key: string;
  count: { requests: number };
}

const limit = (r: Real, id: string) => r.g.ctx.limits.value(id, 'Free');

async function call(r: Real, operationId: string, options: Parameters<Gen['ctx']['call']>[1]): Promise<Exchange> {
  r.count.requests++;
  return r.g.ctx.call(operationId, options);
}

function passwordMembers(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => passwordMembers(v, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  // A member named for a password (`password`, `newPassword`), other than the login's password token.
  return Object.entries(value).flatMap(([k, v]) => (/password$/i.test(k) && !(at.endsWith('/tokens') && k === 'password') ? [`${at}/${k}`] : passwordMembers(v, `${at}/${k}`)));
}

/** What a later read can see: the catalog's logins and every request's poll. */
async function snapshot(m: Model, r: Real): Promise<string> {
  const cat = await call(r, 'getTokenCatalog', { key: r.key });
  const polls = [];
  for (const q of m.requests) polls.push((await call(r, 'getSignupRequest', { key: r.key, params: { id: q.id } })).response.json);
  return JSON.stringify({ logins: answerOf(cat).logins, polls });
}

/** The invariants that hold after every step. */
async function invariants(m: Model, r: Real): Promise<void> {
  const ctx = r.g.ctx;
  let pending = 0;
  for (const q of m.requests) {
    const ex = await call(r, 'getSignupRequest', { key: r.key, params: { id: q.id } });
    const body = answerOf(ex);
    ctx.expectEqual(passwordMembers(body), [], 'no password in a poll (members named so):', spec('poll-never-returns-password'), ex);
    ctx.expectEqual(body.status, q.status, `the status of ${q.id}`, spec('signup-status-values', 'signup-approved-by-holder', 'signup-denied'), ex);
    if (body.status === 'pending') pending++;
    if (q.status === 'approved') {
      const login = m.logins.get(q.label!)!;
      ctx.expectEqual(body.login, login.entry, `the poll's login entry equal to the catalog's for ${q.label}:`, spec('signup-login-entry-is-the-catalog-entry'), ex);
      ctx.expectEqual(body.passwordOwnerManaged === true, login.ownerManaged, 'passwordOwnerManaged', spec('signup-owner-managed'), ex);
    }
  }
  const ceiling = limit(r, 'pending-signup-requests');
  ctx.check(pending <= ceiling, `at most ${ceiling} requests awaiting a decision`, `${pending} pending`, { ...spec('pending-five'), pointer: '#/x-limits/pending-signup-requests' });
}

/** Reads the catalog and checks it lists exactly the model's logins, each with its entry. */
async function catalogMatches(m: Model, r: Real): Promise<void> {
  const ex = await call(r, 'getTokenCatalog', { key: r.key });
  r.g.ctx.expectStatus(ex, 200, spec('tokens-answer-200'));
  const logins = entries(answerOf(ex).logins);
  r.g.ctx.expectEqual(
    Object.fromEntries(logins.map((l: Node) => [l.label, l])),
    Object.fromEntries([...m.logins.values()].map((l) => [l.label, l.entry])),
    'the catalog\'s logins, each as the signup endpoints last returned it:',
    spec('signup-login-entry-is-the-catalog-entry'),
    ex,
  );
}

type Cmd = fc.AsyncCommand<Model, Real>;

const pick = <T>(items: T[], i: number): T => items[i % items.length]!;

class File implements Cmd {
  constructor(readonly body: Record<string, unknown>) {}
  check = (m: Model) => m.writes < 18;
  async run(m: Model, r: Real) {
    m.writes++;
    const full = m.requests.filter((q) => q.status === 'pending').length >= limit(r, 'pending-signup-requests');
    const before = full ? await snapshot(m, r) : '';
    const ex = await call(r, 'fileSignupRequest', { key: r.key, json: this.body });
    if (full) {
      r.g.ctx.expectError(ex, 'too_many_pending', spec('too-many-pending'));
      r.g.ctx.expectEqual(await snapshot(m, r), before, 'nothing changed by the refused request:', spec('refused-records-nothing'));
    } else {
      r.g.ctx.expectStatus(ex, 202, spec('filing-answer-202'));
      m.requests.push({ id: answerOf(ex).requestId, status: 'pending' });
    }
    await invariants(m, r);
  }
  toString = () => `file(${JSON.stringify(this.body)})`;
}

class Decide implements Cmd {
  constructor(readonly i: number, readonly decision: 'approve' | 'deny') {}
  check = (m: Model) => m.requests.some((q) => q.status === 'pending') && (this.decision === 'deny' || m.changes < 10);
  async run(m: Model, r: Real) {
    const q = pick(m.requests.filter((x) => x.status === 'pending'), this.i);
    const token = await r.account.signupLink(q.id);
    const ex = await call(r, 'decideSignupApproval', { params: { token }, json: { decision: this.decision } });
    r.g.ctx.expectSuccess(ex, spec('link-signup-request'), { status: 200, basis: reference('Section 4.11 shows no answer of the links: any success conforms. The reference answers 200.') });
    if (this.decision === 'deny') q.status = 'denied';
    else {
      m.changes++;
      const poll = await call(r, 'getSignupRequest', { key: r.key, params: { id: q.id } });
      const body = answerOf(poll);
      r.g.ctx.expectEqual(body.status, 'approved', 'the status after the holder approved', spec('signup-approved-by-holder'), poll);
      q.status = 'approved';
      q.label = body.login.label;
      m.logins.set(q.label!, { label: q.label!, entry: body.login, ownerManaged: false });
      await catalogMatches(m, r);
    }
    await invariants(m, r);
  }
  toString = () => `${this.decision}(${this.i})`;
}

class SetUsername implements Cmd {
  constructor(readonly i: number, readonly username: string, readonly again: boolean) {}
  check = (m: Model) => m.logins.size > 0 && m.writes < 18 && m.changes < 10;
  async run(m: Model, r: Real) {
    m.writes++;
    const login = pick([...m.logins.values()], this.i);
    const username = this.again && login.username ? login.username : this.username;
    const before = login.username && login.username !== username ? await snapshot(m, r) : '';
    const ex = await call(r, 'setLoginUsername', { key: r.key, json: { label: login.label, username } });
    if (login.username && login.username !== username) {
      r.g.ctx.expectError(ex, 'username_already_set', spec('username-recorded-once'));
      r.g.ctx.expectEqual(await snapshot(m, r), before, 'nothing changed by the refused request:', spec('username-recorded-once'));
    } else {
      r.g.ctx.expectStatus(ex, 200, spec('username-answer'));
      const entry = answerOf(ex).login ?? {};
      r.g.ctx.check(entry.hasUsername === true && typeof entry.tokens.username === 'string', 'hasUsername and a username token', JSON.stringify(entry), spec('username-answer'), ex);
      for (const t of ['password', 'email']) r.g.ctx.expectEqual(entry.tokens[t], login.entry.tokens[t], `the ${t} token unchanged:`, spec('tokens-never-expire'), ex);
      if (!login.username) m.changes++;
      login.username = username;
      login.entry = entry;
      await catalogMatches(m, r);
    }
    await invariants(m, r);
  }
  toString = () => `setUsername(${this.i}, ${JSON.stringify(this.username)}${this.again ? ', again' : ''})`;
}

class Rotate implements Cmd {
  constructor(readonly i: number, readonly rules: Record<string, unknown>) {}
  check = (m: Model) => m.logins.size > 0 && m.writes < 18 && m.changes < 10;
  async run(m: Model, r: Real) {
    m.writes++;
    const login = pick([...m.logins.values()], this.i);
    const before = login.ownerManaged ? await snapshot(m, r) : '';
    const ex = await call(r, 'rotateLoginPassword', { key: r.key, json: { label: login.label, ...this.rules } });
    if (login.ownerManaged) {
      r.g.ctx.expectError(ex, 'not_rotatable', spec('owner-managed-not-rotatable'));
      r.g.ctx.expectEqual(await snapshot(m, r), before, 'nothing changed by the refused request:', spec('refused-records-nothing'));
    } else {
      r.g.ctx.expectStatus(ex, 200, spec('rotate-answer'));
      m.changes++;
      const body = answerOf(ex);
      r.g.ctx.expectEqual(body.login.tokens, login.entry.tokens, 'the same tokens after a rotation:', spec('rotate-tokens-unchanged'), ex);
      login.entry = body.login;
      await catalogMatches(m, r);
    }
    await invariants(m, r);
  }
  toString = () => `rotate(${this.i}, ${JSON.stringify(this.rules)})`;
}

class HolderReplaces implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Model) => m.logins.size > 0;
  async run(m: Model, r: Real) {
    const login = pick([...m.logins.values()], this.i);
    await r.account.replacePassword(login.label);
    login.ownerManaged = true;
    await invariants(m, r);
  }
  toString = () => `holderReplacesPassword(${this.i})`;
}

class ReadCatalog implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    await catalogMatches(m, r);
  }
  toString = () => 'readCatalog';
}

const COMMANDS = [
  fc.record({ website: SITE, email: EMAIL }).map((b) => new File(b)),
  fc.tuple(fc.record({ website: SITE, email: EMAIL }), PASSWORD_RULES).map(([b, rules]) => new File({ ...b, ...rules })),
  fc.nat(9).map((i) => new Decide(i, 'approve')),
  fc.nat(9).map((i) => new Decide(i, 'deny')),
  fc.tuple(fc.nat(9), USERNAME, fc.boolean()).map(([i, u, again]) => new SetUsername(i, u, again)),
  fc.tuple(fc.nat(9), PASSWORD_RULES).map(([i, rules]) => new Rotate(i, rules)),
  fc.nat(9).map((i) => new HolderReplaces(i)),
  fc.constant(new ReadCatalog()),
];

export interface SequenceProperty {
  id: string;
  operationId: string;
  kind: 'sequence';
  needs: { driver: ['replacePassword'] };
  costs: Record<string, never>;
  rules: string[];
  weight: number;
  /** Runs one generated sequence on a fresh account; returns the requests it sent. */
  arbitrary: fc.Arbitrary<(g: Gen) => Promise<number>>;
}

export function sequenceProperty(): SequenceProperty {
  return {
    id: 'fileSignupRequest/generated-sequences',
    operationId: 'fileSignupRequest',
    kind: 'sequence',
    needs: { driver: ['replacePassword'] },
    costs: {},
    rules: ['file', 'poll', 'approve', 'deny', 'set the username (again, or another)', 'rotate', 'the holder replaces the password', 'read the catalog'],
    weight: 10,
    arbitrary: fc.commands(COMMANDS, { maxCommands: 14, size: 'max' }).map((cmds) => Object.assign(async (g: Gen) => {
      const account = await g.ctx.account({ plan: 'Free' });
      const { key } = await account.issueKey({ signup: true });
      const real: Real = { g, account, key, count: { requests: 0 } };
      const model: Model = { requests: [], logins: new Map(), writes: 0, changes: 0 };
      await fc.asyncModelRun(() => ({ model, real }), cmds);
      return real.count.requests;
    }, { toString: () => String(cmds) })),
  };
}
