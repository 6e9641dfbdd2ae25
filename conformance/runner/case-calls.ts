import type { AccountHolderDriver } from '../drivers/driver.js';
import type { ApiDocument } from './document.js';
import type { Schemas } from './schemas.js';
import type { Limits } from './limits.js';
import type { Canaries } from './canaries.js';
import type { Secrets } from './secrets.js';
import { spendsOrCreates, type CaseInfo, type KeyRole } from './needs.js';
import { judgeResponse, type Judge } from './checks.js';
import { codeOf, triple, type Exchange } from './exchange.js';
import type { Connection } from './http.js';
import { RunnerError, sameDeparture, type Deviation } from './outcome.js';
import { Random, hashString } from './data.js';
import { sleep, type Throttle } from './throttle.js';
import type { Judgement } from './basis.js';
import type { RequirementId } from '../requirements/index.js';
import type { Stop } from './interruption.js';

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
 * The calls of a case: a request by operationId, sent the way every request of the run goes, and
 * its answer checked against the document at once (checks.ts); the departures it showed and the
 * requirements its checks applied are kept for the case's verdict.
 */
export class CaseCalls {
  readonly random: Random;
  readonly exchanges: Exchange[] = [];
  readonly steps: string[] = [];
  /** Departures from the reference server's choices, when judging by the specification. */
  readonly deviations: Deviation[] = [];
  /** The requirements this case's assertions tried: those that held and those that broke. */
  readonly tried = { held: new Set<RequirementId>(), broken: new Set<RequirementId>() };
  private counter = 0;

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
  }

  get doc(): ApiDocument {
    return this.env.doc;
  }

  get limits() {
    return this.env.limits;
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

  // ------------------------------------------------------------------------------------------

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
}
