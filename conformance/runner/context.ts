import type { AccountHolderDriver, LookupSlot, PlanName, RecipeRequest, RecipeSample } from '../drivers/driver.js';
import type { ApiDocument } from './document.js';
import type { Schemas } from './schemas.js';
import type { Limits } from './limits.js';
import type { Canaries } from './canaries.js';
import type { Secrets } from './secrets.js';
import { spendsOrCreates, type CaseInfo, type KeyRole } from './needs.js';
import { Account, DriverCalls } from './account.js';
import { judgeResponse, type Judge } from './checks.js';
import { codeOf, triple, type Exchange } from './exchange.js';
import type { Connection } from './http.js';
import { CaseFailure, NotRun, ReferenceDeparture, RunnerError, StatusMismatch, sameDeparture, type Deviation } from './outcome.js';
import { Random, hashString } from './data.js';
import { sleep, type Throttle } from './throttle.js';
import { at, binds, requirementsOf, sameBasis, type Basis, type Judgement, type Rule } from './basis.js';
import { requirement, type RequirementId } from '../requirements/index.js';
import type { Stop } from './stop.js';

/** What every case of one run shares. */
export interface RunEnvironment {
  baseUrl: string;
  /** The proxy's HTTP origin, for the operations the document serves there; the base URL when not given. */
  proxyOrigin?: string;
  doc: ApiDocument;
  /** What fails a case: the specification's rules (and HTTP's) only, or the reference server's too. */
  judgement: Judgement;
  /** The two views of the document every response is checked against. */
  judge: Judge;
  /** The whole document's schemas (the generator validates what it sends with them). */
  schemas: Schemas;
  limits: Limits;
  keys: Partial<Record<KeyRole, string>>;
  /** How every request reaches the deployment (TLS, staging headers, proxy). */
  connection: Connection;
  driver?: AccountHolderDriver;
  manualClock: boolean;
  timeoutMs: number;
  throttle: Throttle;
  canaries: Canaries;
  secrets: Secrets;
  seed: number;
  /** Unique per run: names made with it never meet those of another run on the same deployment. */
  runId: string;
  /** Sees every exchange of every case (the coverage table, the generator, the HAR file). */
  onExchange?: (ex: Exchange) => void;
  /** A stop a signal asked for: no account is opened after it. */
  stop?: Stop;
  /**
   * How long what follows an answer may take to show (a contribution's screening runs after its
   * 202, section 3): what a case reads after it is polled for at most this long. 30 s by default.
   */
  settleMs?: number;
}

const SETTLE_MS = 30_000;

export interface CallOptions {
  /** Send `Authorization: Bearer <key>`. */
  key?: string;
  /** The raw `Authorization` header, in place of `key`. */
  authorization?: string;
  /** Path parameters by name. */
  params?: Record<string, string>;
  /** Query parameters, or a raw query string (without `?`), sent as written. */
  query?: Record<string, string> | string;
  /** A JSON body. */
  json?: unknown;
  /** A raw body, sent as given. */
  body?: string | Buffer;
  /** `Content-Type` of the body (default `application/json`); `null` sends none. */
  contentType?: string | null;
  /** Send the body chunked, without `Content-Length`. */
  chunked?: boolean;
  headers?: Record<string, string>;
  /** Another method than the operation's (only for method checks). */
  method?: string;
}

const MAX_RATE_LIMIT_RETRIES = 2;
const MAX_RETRY_WAIT_S = 65;

/**
 * What a case works with: checked calls by operationId, expectations that say where they are
 * written, accounts and keys through the driver, the deployment's clock, and seeded values.
 */
export class CaseContext {
  readonly random: Random;
  readonly exchanges: Exchange[] = [];
  readonly steps: string[] = [];
  /** Departures from the reference server's choices, when judging by the specification. */
  readonly deviations: Deviation[] = [];
  private readonly cleanups: (() => Promise<void>)[] = [];
  private readonly keyCache = new Map<KeyRole, string>();
  private home?: Account;
  private counter = 0;
  private readonly calls?: DriverCalls;

  /** Whether the runner paces this case's calls and waits out a rate limit for it. */
  private readonly manners: { pace: boolean; honourRetryAfter: boolean };

  constructor(
    readonly env: RunEnvironment,
    readonly spec: CaseInfo,
    attempt: number,
    manners?: { pace: boolean; honourRetryAfter: boolean },
  ) {
    // A case that tests limits sends at full speed and must see every refusal as it comes.
    const testsLimits = spendsOrCreates(spec);
    this.manners = manners ?? { pace: !testsLimits, honourRetryAfter: !testsLimits };
    this.random = new Random(env.seed ^ hashString(spec.id) ^ attempt);
    if (env.driver) this.calls = new DriverCalls(env.driver, spec.needs.driver === true || !spec.needs.driver ? 'all' : new Set(spec.needs.driver));
  }

  get doc(): ApiDocument {
    return this.env.doc;
  }

  get limits() {
    return this.env.limits;
  }

  /** The range the catalogue accepts for a figure the specification gives as "about". */
  requirementRange(id: RequirementId): { min: number; max: number } {
    const range = requirement(id).range;
    if (!range) throw new RunnerError('runner', `requirement ${id} records no range`);
    return range;
  }

  /** A name no other case or run uses: lowercase letters and digits. */
  unique(prefix = 'c'): string {
    this.counter += 1;
    return `${prefix}${this.env.runId}${hashString(this.spec.id).toString(36)}${this.counter}`;
  }

  /**
   * A fresh registrable domain, under a public suffix every Public Suffix List knows. Its name ends
   * in a letter, so the numbered labels of one site (`name2`) never meet the plain label of another.
   */
  site(): string {
    return `${this.unique('cf')}x.com`;
  }

  email(): string {
    return `${this.unique('agent')}@example.com`;
  }

  step(text: string): void {
    this.steps.push(text);
  }

  /** The longest this case waited for something to show, so that an absence is judged after as long. */
  private settledMs = 0;

  /**
   * Reads `probe` until `done` holds, backing off from a quarter of a second to two, for at most the
   * run's settle time; returns the last value read, done or not. For what the specification lets
   * happen after the answer (section 3: screening runs after the 202; section 4.4: poll while
   * pending), which an agent polls for.
   */
  async eventually<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const bound = this.env.settleMs ?? SETTLE_MS;
    const started = Date.now();
    let wait = 250;
    let value = await probe();
    while (!done(value) && Date.now() - started < bound) {
      await sleep(wait);
      wait = Math.min(wait * 2, 2000);
      value = await probe();
    }
    const took = Date.now() - started;
    if (done(value)) {
      this.settledMs = Math.max(this.settledMs, took);
      if (took > 0) this.step(`${what}: seen after ${(took / 1000).toFixed(1)} s`);
    } else this.step(`${what}: not seen within ${bound / 1000} s`);
    return value;
  }

  /** Waits twice as long as anything this case polled for took to show: then an absence means absent. */
  async settle(): Promise<void> {
    await sleep(Math.min(this.settledMs * 2 + 250, this.env.settleMs ?? SETTLE_MS));
  }

  // Calls ------------------------------------------------------------------------------------------

  /** Sends a request for an operation and checks its response against the document. */
  async call(operationId: string, options: CallOptions = {}): Promise<Exchange> {
    const op = this.doc.operation(operationId);
    const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const value = options.params?.[name];
      if (value === undefined) throw new RunnerError('runner', `${operationId} needs the path parameter ${name}`);
      return encodeURIComponent(value);
    });
    const query = typeof options.query === 'string' ? options.query : options.query ? new URLSearchParams(options.query).toString() : '';
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    else if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    let body: Buffer | undefined;
    if (options.json !== undefined) body = Buffer.from(JSON.stringify(options.json));
    else if (options.body !== undefined) body = Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
    if (body && options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
    const request = this.env.connection.request({
      method: options.method ?? op.method,
      url: `${op.ownOrigin ? (this.env.proxyOrigin ?? this.env.baseUrl) : this.env.baseUrl}${path}${query ? `?${query}` : ''}`,
      headers,
      body,
      chunked: options.chunked,
    });
    for (let attempt = 0; ; attempt++) {
      if (this.manners.pace) await this.env.throttle.take();
      const response = await this.env.connection.send(request, this.env.timeoutMs);
      const ex: Exchange = { operationId, request, response };
      this.exchanges.push(ex);
      this.env.onExchange?.(ex);
      this.judge(ex);
      // Outside the cases that test limits, a rate limit is the deployment pacing the runner: wait as told.
      if (this.manners.honourRetryAfter && response.status === 429 && codeOf(response) === 'rate_limited' && attempt < MAX_RATE_LIMIT_RETRIES) {
        const seconds = Number(response.headers['retry-after'] ?? 2 ** (attempt + 1));
        if (seconds <= MAX_RETRY_WAIT_S) {
          this.step(`rate limited on ${operationId}; waited ${seconds} s as Retry-After asked`);
          await sleep(seconds * 1000);
          continue;
        }
      }
      return ex;
    }
  }

  /**
   * Writes `head` (and `body`) raw on a new connection for an operation and checks the answer like
   * any other: for what a client library will not send. `head` is everything before the body, its
   * request target the whole path (the base URL's path included). It goes the way every request
   * goes: TLS, the staging headers, the proxy, the answer decoded.
   */
  async raw(operationId: string, head: string, body?: Buffer): Promise<Exchange> {
    const op = this.doc.operation(operationId);
    const origin = op.ownOrigin ? (this.env.proxyOrigin ?? this.env.baseUrl) : this.env.baseUrl;
    const [method = 'GET', target = '/'] = head.split(' ');
    const request = this.env.connection.request({
      method,
      url: new URL(target, origin).href,
      headers: {},
      body,
      raw: Buffer.concat([Buffer.from(head, 'latin1'), body ?? Buffer.alloc(0)]),
    });
    const sentHead = request.raw!.length - (body?.length ?? 0);
    request.headers['(raw)'] = `${sentHead} bytes of request head${head.endsWith('\r\n\r\n') ? '' : ', unfinished'}`;
    const response = await this.env.connection.send(request, this.env.timeoutMs + 45_000);
    const ex: Exchange = { operationId, request, response, layer: true };
    this.exchanges.push(ex);
    this.env.onExchange?.(ex);
    this.judge(ex);
    return ex;
  }

  /** Checks a response against the document: a binding problem throws, a departure from a reference choice is recorded. */
  private judge(ex: Exchange): void {
    // A case that proves a choice of the reference takes any refusal as a departure from it, whatever its form.
    const verdict = judgeResponse(this.env.judge, this.env.canaries, ex, { provesReferenceChoice: this.spec.basis?.kind === 'reference' });
    for (const d of verdict.deviations) this.deviate(d);
    for (const id of verdict.held) this.tried.held.add(id);
    if (verdict.failure) throw verdict.failure;
  }

  /** One record per departure, counting the answers it was seen in. */
  deviate(d: Deviation): void {
    const known = this.deviations.find((k) => sameDeparture(k, d));
    if (known) known.answers = (known.answers ?? 1) + (d.answers ?? 1);
    else this.deviations.push({ ...d, answers: d.answers ?? 1 });
  }

  /** The (operation, status, code) triples this case received. */
  observed(): string[] {
    return [...new Set(this.exchanges.map(triple).filter((t): t is string => t !== undefined))];
  }

  // Expectations -----------------------------------------------------------------------------------
  // Every expectation names its rule: a requirement of the catalogue (`spec(...)`, `http(...)`), or
  // the reference server's choice (`reference(why)`), which judging by the specification can only
  // be a deviation.

  /** The requirements this case's assertions tried: those that held and those that broke. */
  readonly tried = { held: new Set<RequirementId>(), broken: new Set<RequirementId>() };

  private note(rule: Rule, held: boolean): void {
    for (const id of requirementsOf(rule)) (held ? this.tried.held : this.tried.broken).add(id);
  }

  /** The rule, with the document's pointer to the response it expects when it names none. */
  private located(ex: Exchange | undefined, status: number | undefined, rule: Rule): Rule {
    if (rule.pointer !== undefined || !ex?.operationId || status === undefined) return rule;
    return at(rule, this.doc.response(ex.operationId, status)?.pointer);
  }

  /** Whether a rule fails the case in this run: judging by the specification, a reference choice does not. */
  private binding(rule: Rule): boolean {
    return this.env.judgement === 'reference' || binds(rule);
  }

  /** Ends the case: failed, or, for a reference choice judged by the specification, a departure. */
  fail(expected: string, received: string, rule: Rule, ex?: Exchange): never {
    if (!this.binding(rule)) this.depart({ expected, received, where: rule, exchange: ex });
    this.note(rule, false);
    throw new CaseFailure(expected, received, rule, ex);
  }

  /**
   * The deployment chose otherwise than the reference where the case cannot go on. A case that
   * proves this very choice ends there, its departure recorded; a case that only builds on it never
   * tried its own rule, so it ends `not run`, with the deviation and what would let it run.
   */
  private depart(d: Deviation): never {
    // A case that proves a reference choice departs from the reference wherever the deployment chose otherwise.
    if (sameBasis(d.where, this.spec.basis) || this.spec.basis?.kind === 'reference') throw new ReferenceDeparture(d);
    this.deviate(d);
    const remedy = d.where.kind === 'reference' ? d.where.remedy : undefined;
    throw precondition(`it builds on a choice of the reference that the deployment does not share (expected ${d.expected}; received ${d.received})`, remedy ?? 'a deployment that shares this choice');
  }

  /**
   * What the case's rule depends on (a contribution accepted, a link issued): when the deployment
   * refused it, the case ends `not run` with the reason and `remedy`, what would let it run; never
   * `passed`. Judging by the reference, `binding` says the reference server must not refuse it.
   */
  precondition(condition: unknown, what: string, received: string | (() => string), remedy: string, ex?: Exchange, binding?: Rule): void {
    if (condition) return;
    const text = typeof received === 'function' ? received() : received;
    if (binding && this.env.judgement === 'reference') throw new CaseFailure(what, text, binding, ex);
    throw precondition(`the deployment refused what its rule depends on: ${what}; received ${text}`, remedy);
  }

  /**
   * A refusal: any 4xx holds `rule` (a used link must refuse, say); its exact status and code are
   * `exact`'s, a deviation when the deployment made another choice.
   */
  expectRefused(ex: Exchange, code: string, exact: Basis, rule: Rule & { status?: number }): void {
    const status = rule.status ?? (ex.operationId ? this.doc.statusOfCode(ex.operationId, code) : undefined);
    if (ex.response.status < 400 || ex.response.status > 499) this.mismatch('a refusal (a 4xx status)', ex, this.located(ex, status, rule));
    this.note(rule, true);
    this.check(ex.response.status === status && codeOf(ex.response) === code, `${status} ${code}`, () => describeResponse(ex), at(exact, rule.pointer), ex);
  }

  /** Fails the case when `condition` does not hold; for a reference choice judged by the specification, records the deviation and goes on. */
  check(condition: unknown, expected: string, received: string | (() => string), rule: Rule, ex?: Exchange): void {
    if (condition) {
      this.note(rule, true);
      return;
    }
    const text = typeof received === 'function' ? received() : received;
    if (!this.binding(rule)) return this.deviate({ expected, received: text, where: rule, exchange: ex });
    this.note(rule, false);
    throw new CaseFailure(expected, text, rule, ex);
  }

  /** The response has exactly this status (an error's code is `expectError`'s). */
  expectStatus(ex: Exchange, status: number, rule: Rule): void {
    if (ex.response.status === status) {
      this.note(rule, true);
      return;
    }
    this.mismatch(`status ${status}`, ex, this.located(ex, status, rule));
  }

  /**
   * A success, where `rule` gives no exact status (the links' answers are not shown): any 2xx holds
   * it; `exact`, the reference's status, is a check of the reference's basis.
   */
  expectSuccess(ex: Exchange, rule: Rule, exact?: { status: number; basis: Basis }): void {
    const status = ex.response.status;
    if (status < 200 || status > 299) this.mismatch(`a success (a 2xx status)${exact ? `, ${exact.status} by the reference` : ''}`, ex, this.located(ex, exact?.status, rule));
    this.note(rule, true);
    if (exact) this.check(status === exact.status, `status ${exact.status}`, () => describeResponse(ex), exact.basis, ex);
  }

  /** The response is the error `code`, with the status the document gives it on this operation. */
  expectError(ex: Exchange, code: string, rule: Rule & { status?: number }): void {
    const status = rule.status ?? (ex.operationId ? this.doc.statusOfCode(ex.operationId, code) : undefined);
    if (status === undefined) throw new RunnerError('runner', `${ex.operationId} documents no status with code ${code}`);
    if (ex.response.status !== status || codeOf(ex.response) !== code) this.mismatch(`${status} ${code}`, ex, this.located(ex, status, rule));
    this.note(rule, true);
  }

  /** What follows an unexpected status depends on it, so even a reference choice ends the case here. */
  private mismatch(expected: string, ex: Exchange, rule: Rule): never {
    if (!this.binding(rule)) this.depart({ expected, received: describeResponse(ex), where: rule, exchange: ex });
    this.note(rule, false);
    throw new StatusMismatch(expected, describeResponse(ex), rule, ex);
  }

  /** Deep equality of two JSON values, with both shown when they differ (a check: see `check`). */
  expectEqual(actual: unknown, expected: unknown, what: string, rule: Rule, ex?: Exchange): void {
    this.check(jsonEqual(actual, expected), `${what} ${JSON.stringify(expected)}`, () => `${JSON.stringify(actual)}`, rule, ex);
  }

  // Accounts, keys, clock --------------------------------------------------------------------------

  get hasDriver(): boolean {
    return this.calls !== undefined;
  }

  private driverCalls(): DriverCalls {
    if (!this.calls) throw new NotRun('needs the account-holder driver');
    return this.calls;
  }

  /** A new account through the driver, deleted when the case ends (when the driver can). */
  async account(options: { plan?: PlanName } = {}): Promise<Account> {
    if (!this.spec.needs.driver) throw new RunnerError('runner', `${this.spec.id} opens an account but does not declare needs.driver`);
    return this.openAccount(options);
  }

  private async openAccount(options: { plan?: PlanName } = {}): Promise<Account> {
    const calls = this.driverCalls();
    const stop = this.env.stop;
    if (stop?.requested) throw stop.interrupted('no account is opened after it');
    const plan = options.plan ?? 'Free';
    const { accountId } = await calls.run('openAccount', { plan, name: `conformance ${this.spec.id}` });
    const account = new Account(accountId, plan, calls, this.random, this.env.canaries, this.env.secrets);
    // Opened while the stop came: the case's cleanup may already have run, so it goes at once.
    if (stop?.requested && calls.driver.deleteAccount) {
      await account.delete().catch(() => undefined);
      throw stop.interrupted('the account opened as it came was deleted');
    }
    if (calls.driver.deleteAccount) this.cleanups.push(() => account.delete());
    return account;
  }

  /** A key for a role: issued through the driver on the case's own account, else the one given to the runner. */
  async key(role: KeyRole): Promise<string> {
    const cached = this.keyCache.get(role);
    if (cached) return cached;
    if (!this.spec.needs.keys?.includes(role) && !this.spec.needs.driver) {
      throw new RunnerError('runner', `${this.spec.id} uses the ${role} key but declares neither it nor needs.driver`);
    }
    let key: string;
    if (this.calls) {
      if (role === 'otherAccountKey') key = (await (await this.openAccount()).issueKey()).key;
      else {
        this.home ??= await this.openAccount();
        const options = role === 'signupKey' ? { signup: true } : role === 'scopedKey' ? { scope: [] as string[] } : {};
        key = (await this.home.issueKey(options)).key;
      }
    } else {
      const given = this.env.keys[role];
      if (!given) throw new NotRun(`needs ${KEY_OPTION[role]} or the account-holder driver`);
      key = given;
    }
    this.keyCache.set(role, key);
    return key;
  }

  /** A registry maintainer's decision on a submission, through the driver. */
  async maintainer(submissionId: string, decision: 'merge' | 'verify' | 'reject'): Promise<void> {
    this.step(`a maintainer's decision on ${submissionId}: ${decision}`);
    await this.driverCalls().run('decideRecipeSubmission', submissionId, decision);
  }

  /** A recipe in the deployment's own format, when its driver writes one (section 2.2 does not show the body). */
  async sampleRecipe(request: RecipeRequest): Promise<RecipeSample | undefined> {
    if (typeof this.env.driver?.sampleRecipe !== 'function' || !this.calls) return undefined;
    const sample = await this.calls.run('sampleRecipe', request);
    this.step(`the driver wrote a ${request.kind} recipe in the deployment's format: ${sample.key}`);
    return sample;
  }

  /** Pages the deployment's registry serves, by lookup slot, when its driver names them. */
  async registryPages(): Promise<Partial<Record<LookupSlot, string>> | undefined> {
    if (typeof this.env.driver?.registryPages !== 'function' || !this.calls) return undefined;
    return this.calls.run('registryPages');
  }

  readonly clock = {
    now: async (): Promise<number> => (await this.driverCalls().run('clock')).now,
    advance: async (ms: number): Promise<number> => {
      if (!this.spec.needs.manualClock) throw new RunnerError('runner', `${this.spec.id} moves the clock but does not declare needs.manualClock`);
      if (!this.env.manualClock) throw new NotRun('needs a manual clock');
      this.step(`moved the deployment's clock ${ms} ms on`);
      return (await this.driverCalls().run('advanceClock', ms)).now;
    },
    /** Moves the clock to the start of the next window of `seconds` (windows aligned to the epoch), plus `offsetMs`. */
    toNextWindow: async (seconds: number, offsetMs = 0): Promise<number> => {
      const now = await this.clock.now();
      const next = (Math.floor(now / (seconds * 1000)) + 1) * seconds * 1000 + offsetMs;
      return this.clock.advance(next - now);
    },
  };

  async cleanup(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // Cleaning up is a courtesy to the deployment; the verdict is already known.
      }
    }
  }
}

export const KEY_OPTION: Record<KeyRole, string> = {
  key: '--key',
  signupKey: '--signup-key',
  otherAccountKey: '--other-account-key',
  scopedKey: '--scoped-key',
};

/** A case whose rule was never tried, counted under one cause. */
function precondition(reason: string, remedy: string): NotRun {
  return new NotRun(`not tried: ${reason}. To run it: ${remedy}`, 'capability', PRECONDITION_REFUSED);
}

/** The cause the summary counts these cases under, apart from the capabilities the run lacked. */
export const PRECONDITION_REFUSED = 'the deployment refused a precondition';

export function describeResponse(ex: Exchange): string {
  const code = codeOf(ex.response);
  return `${ex.response.status}${code ? ` ${code}` : ''}`;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
