import http from 'node:http';
import https from 'node:https';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { Duplex } from 'node:stream';
import { RunnerError } from './errors.js';
import { proxyAuthorization, proxyFor, shownProxy, tunnel, type ProxySettings } from './proxy.js';
import { tlsHint, tlsOptions, type TlsSettings } from './tls.js';
import { ACCEPT_ENCODING, decodeBody, type Wire } from './answer-decoding.js';
import { ANSWER_CAP, late, overCap } from './bounds.js';
import { connected, exchangeRaw, rawHead } from './raw.js';

/**
 * One HTTP request exactly as the case wrote it: the runner must be able to send what a generic
 * client would not (a body without Content-Length, a wrong Content-Type, bytes that are not UTF-8),
 * so it speaks node:http directly rather than through fetch.
 */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body chunked (`Transfer-Encoding: chunked`, no `Content-Length`). */
  chunked?: boolean;
  /**
   * Bytes written on a new connection as they are, request line and head included: for what no
   * client library sends (a head over the size bound, a head that never ends). `method`, `url`,
   * `headers` and `body` then describe them for reports.
   */
  raw?: Buffer;
  /** How the request reached the deployment, besides its URL: what a replay needs. */
  route?: Route;
}

export interface Route {
  caCert?: string;
  clientCert?: string;
  clientKey?: string;
  insecure?: boolean;
  /** The proxy it went through, without credentials. */
  proxy?: string;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  /** Header names in lowercase; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body after content decoding (gzip, deflate, br): what the checks and the canary scan read. */
  body: Buffer;
  text: string;
  /** The parsed body when it is JSON. */
  json?: unknown;
  durationMs: number;
  /** What came over the wire. */
  wire?: Wire;
}

/** One exchange as it ended, for whoever watches the connection. */
export interface Sent {
  request: HttpRequest;
  response?: HttpResponse;
  /** Why no answer came (a timeout, a reset). */
  error?: string;
  startedAt: Date;
  durationMs: number;
}

/**
 * The methods sent on a pooled, kept-alive connection and sent again when that connection turns
 * out closed. Any other (a write) gets a connection opened for it and is sent once: a reset after
 * the deployment applied it would otherwise apply it twice (RFC 9110 §9.2.2).
 */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A reused connection the deployment had closed, as a request meets it: reset, or closed at once. */
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** How the runner reaches a deployment: TLS files, headers a staging edge needs, the environment's proxy. */
export interface ConnectionSettings extends TlsSettings {
  /** Sent on every request to the deployment, never over a header the request sets itself. */
  headers: Record<string, string>;
  proxy: ProxySettings;
}

export const DIRECT: ConnectionSettings = { headers: {}, insecure: false, proxy: {} };

/** How long a kept-alive connection may sit idle in the pool when the server announces no shorter time. */
const IDLE_MS = 30_000;

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '');
}

function defaultPort(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/** An https agent whose connections go through a proxy's tunnel. */
class TunnelAgent extends https.Agent {
  constructor(
    options: https.AgentOptions,
    private readonly proxy: URL,
  ) {
    super(options);
  }

  override createConnection(options: https.RequestOptions, done?: (err: Error | null, stream: Duplex) => void): undefined {
    const { host, port, timeout } = options;
    tunnel(this.proxy, String(host), Number(port), timeout ?? 30_000).then(
      (socket) => done?.(null, tlsConnect({ ...(options as ConnectionOptions), socket })),
      (e: Error) => done?.(e, undefined as unknown as Duplex),
    );
    return undefined;
  }
}

/**
 * The one way every request of a run reaches the deployment, the cases' (parsed or raw), the
 * start-up probe's and the back-office driver's: TLS with the run's files, the staging headers, the
 * environment's proxy, and the answer's content decoded before anything reads it.
 */
export class Connection {
  private readonly tls: ReturnType<typeof tlsOptions>;
  private readonly agents = new Map<string, http.Agent>();
  /** Every connection a request has been handed, so that a request knows whether its own is new. */
  private readonly carried = new WeakSet<Socket>();
  private readonly targets: Set<string>;

  /** `targets`: the deployment's URLs, the origins that get the staging headers. */
  constructor(
    private readonly settings: ConnectionSettings,
    targets: (string | undefined)[] = [],
  ) {
    this.tls = tlsOptions(settings);
    this.targets = new Set(targets.filter((t): t is string => !!t).map((t) => new URL(t).origin));
  }

  /** The request as it will be sent: with the staging headers and Accept-Encoding where it has none, and its route. */
  request(init: HttpRequest): HttpRequest {
    const url = new URL(init.url);
    const proxy = proxyFor(url, this.settings.proxy);
    const added = [...Object.entries(this.targets.has(url.origin) ? this.settings.headers : {}), ['accept-encoding', ACCEPT_ENCODING] as [string, string]];
    const route = this.route(url, proxy);
    if (init.raw) return { ...init, raw: rawHead(init.raw, url, added, proxy), ...(route ? { route } : {}) };
    const headers = { ...init.headers };
    const present = new Set(Object.keys(headers).map((n) => n.toLowerCase()));
    for (const [name, value] of added) {
      if (present.has(name.toLowerCase())) continue;
      present.add(name.toLowerCase());
      headers[name] = value;
    }
    return { ...init, headers, ...(route ? { route } : {}) };
  }

  private readonly watchers: ((sent: Sent) => void)[] = [];

  /**
   * Calls `watcher` with every exchange sent this way, answered or not, once it has ended (`--har`
   * records them), in the async context of the call to `send`.
   */
  watch(watcher: (sent: Sent) => void): void {
    this.watchers.push(watcher);
  }

  /**
   * Sends a request as it is (see `request`), raw when it has raw bytes. It ends within
   * `timeoutMs`, connection, head and whole body included, with at most `ANSWER_CAP` of its answer read.
   */
  send(request: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
    const sending = request.raw ? this.sendRaw(request, request.raw, timeoutMs) : this.sendParsed(request, timeoutMs, performance.now() + timeoutMs, !READS.has(request.method));
    if (this.watchers.length === 0) return sending;
    const startedAt = new Date();
    const started = performance.now();
    const tell = (response?: HttpResponse, error?: string) => {
      const sent: Sent = { request, response, error, startedAt, durationMs: performance.now() - started };
      for (const watcher of this.watchers) watcher(sent);
    };
    return sending.then(
      (response) => {
        tell(response);
        return response;
      },
      (e: Error) => {
        tell(undefined, e.message);
        throw e;
      },
    );
  }

  /** Values the reports mask: the staging headers' (a gateway's key), a proxy's password. */
  secrets(): [string, string][] {
    const out: [string, string][] = Object.entries(this.settings.headers).map(([name, value]) => [value, `header ${name}`]);
    for (const proxy of [this.settings.proxy.https, this.settings.proxy.http]) {
      const password = proxy ? new URL(proxy).password : '';
      if (password) out.push([decodeURIComponent(password), 'proxy password'], [password, 'proxy password']);
    }
    return out;
  }

  /** The connection in a few words for the run's header line; unverified TLS is said in capitals. */
  describe(): string {
    const s = this.settings;
    const notes: string[] = [];
    if (s.insecure) notes.push('TLS CERTIFICATES NOT VERIFIED (--insecure)');
    if (s.caCert) notes.push(`CA ${s.caCert}`);
    if (s.clientCert) notes.push(`client certificate ${s.clientCert}`);
    const proxy = [...this.targets].map((t) => proxyFor(new URL(t), s.proxy)).find((p) => p !== undefined);
    if (proxy) notes.push(`through the proxy ${shownProxy(proxy)}`);
    const names = Object.keys(s.headers);
    if (names.length > 0) notes.push(`extra header${names.length > 1 ? 's' : ''} ${names.join(', ')}`);
    return notes.length > 0 ? ` [${notes.join('; ')}]` : '';
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private route(url: URL, proxy: URL | undefined): Route | undefined {
    const s = this.settings;
    const route: Route = {};
    if (url.protocol === 'https:') {
      if (s.caCert) route.caCert = s.caCert;
      if (s.clientCert) route.clientCert = s.clientCert;
      if (s.clientKey) route.clientKey = s.clientKey;
      if (s.insecure) route.insecure = true;
    }
    if (proxy) route.proxy = shownProxy(proxy);
    return Object.keys(route).length > 0 ? route : undefined;
  }

  /**
   * The pool of kept-alive connections, or (`alone`) an agent that opens a connection for each
   * request and closes it after the answer, never handing it to another.
   */
  private agent(url: URL, proxy: URL | undefined, alone: boolean): http.Agent {
    const key = `${url.protocol} ${proxy?.href ?? 'direct'}${alone ? ' alone' : ''}`;
    let agent = this.agents.get(key);
    if (!agent) {
      // With a timeout of its own, Node's agent also heeds a server's `Keep-Alive: timeout=N`,
      // retiring an idle connection a second before the server would close it. Without keep-alive
      // and with no cap on sockets, nothing is queued, so every request gets a new connection.
      agent = this.newAgent(url, proxy, alone ? { keepAlive: false, maxSockets: Infinity } : { keepAlive: true, maxSockets: 32, timeout: IDLE_MS });
      this.agents.set(key, agent);
    }
    return agent;
  }

  private newAgent(url: URL, proxy: URL | undefined, options: http.AgentOptions): http.Agent {
    if (url.protocol !== 'https:') return new http.Agent(options);
    return proxy ? new TunnelAgent({ ...options, ...this.tls }, proxy) : new https.Agent({ ...options, ...this.tls });
  }

  private explain(e: NodeJS.ErrnoException, url: URL, proxy: URL | undefined): string {
    const hint = url.protocol === 'https:' ? tlsHint(e.code, this.settings) : undefined;
    if (hint) return hint;
    if (e.code === 'ECONNREFUSED') {
      return proxy && url.protocol === 'http:' ? `ECONNREFUSED (is the proxy running at ${shownProxy(proxy)}?)` : `ECONNREFUSED (is the deployment running at ${url.origin}?)`;
    }
    return e.code ?? e.message;
  }

  /**
   * One sending of a parsed request, by `until` (a `performance.now()` time). `alone`: on a
   * connection opened for it, as every write is and as a read is sent again once when the pooled
   * connection it was handed turns out closed before any byte of its answer: the deployment
   * closed it idle (RFC 9112 §9.3), unannounced, just as the runner reused it.
   */
  private sendParsed(request: HttpRequest, timeoutMs: number, until: number, alone: boolean): Promise<HttpResponse> {
    const url = new URL(request.url);
    const proxy = proxyFor(url, this.settings.proxy);
    const what = `${request.method} ${url.pathname}`;
    const headers: Record<string, string> = { ...request.headers };
    if (request.body && !request.chunked) headers['content-length'] = String(request.body.length);
    const agent = this.agent(url, proxy, alone);
    const started = performance.now();
    return new Promise<HttpResponse>((resolve, reject) => {
      let settled = false;
      // Bytes the connection brought since this request took it (an interim answer's included).
      let arrived = 0;
      let reused = false;
      let body: number | undefined;
      // Set once the answer's head has arrived: a request error after it (the rest of the body
      // refused with a reset) waits for the answer, which counts if it arrives whole.
      let requestError: string | undefined;
      const end = (outcome: HttpResponse | Promise<HttpResponse> | RunnerError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (outcome instanceof RunnerError) {
          req.destroy();
          reject(outcome);
        } else resolve(outcome);
      };
      const timer = setTimeout(() => end(late(what, timeoutMs, body)), Math.max(0, until - performance.now()));
      const onResponse = (res: http.IncomingMessage) => {
        body = 0;
        const chunks: Buffer[] = [];
        const brokeOff = (why: string) => end(new RunnerError('network', requestError ?? `the response to ${what} broke off: ${why}`));
        res.on('data', (c: Buffer) => {
          body! += c.length;
          if (body! > ANSWER_CAP) end(overCap(`the answer to ${what}`));
          else chunks.push(c);
        });
        res.on('error', (e) => brokeOff(e.message));
        res.on('close', () => brokeOff('the connection closed'));
        res.on('end', () => {
          end(answered(what, res.statusCode ?? 0, res.statusMessage ?? '', headersOf(res), Buffer.concat(chunks), started));
        });
      };
      // Through a proxy, a plain-http request names its whole URL (RFC 9112 §3.2.2); an https one
      // goes through the tunnel its agent opens.
      const req =
        proxy && url.protocol === 'http:'
          ? http.request({ host: bare(proxy.hostname), port: defaultPort(proxy), path: url.href, method: request.method, headers: { host: url.host, ...proxyAuthorization(proxy), ...headers }, agent }, onResponse)
          : (url.protocol === 'https:' ? https : http).request(url, { method: request.method, headers, agent }, onResponse);
      req.on('socket', (socket: Socket) => {
        // Node says `reusedSocket` only of a connection taken from the idle pool, not of one handed
        // straight from the request before to a queued request; the runner keeps its own count.
        reused = this.carried.has(socket);
        this.carried.add(socket);
        // The deadline is the one clock: the idle time the pool set on the connection is not the request's.
        socket.setTimeout(0);
        const count = (c: Buffer) => void (arrived += c.length);
        socket.on('data', count);
        req.once('close', () => socket.off('data', count));
      });
      // A 101 that no request asked for (none does) is still the answer: judged, with no body.
      req.on('upgrade', (res: http.IncomingMessage, socket: Socket) => {
        socket.destroy();
        end(answered(what, res.statusCode ?? 0, res.statusMessage ?? '', headersOf(res), Buffer.alloc(0), started));
      });
      req.on('close', () => {
        if (body === undefined) end(new RunnerError('network', `${what} failed: the connection closed without an answer`));
      });
      // A server may answer (413) and close before the whole body is written, and the rest of the
      // body then meets a reset (RFC 9112 §9.6); an answer that arrives whole still counts.
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (settled) return;
        if (!alone && reused && arrived === 0 && CLOSED.has(e.code ?? '')) return end(this.sendParsed(request, timeoutMs, until, true));
        const message = `${what} failed: ${this.explain(e, url, proxy)}`;
        if (body !== undefined && !(e instanceof RunnerError)) requestError = message;
        else end(new RunnerError(e instanceof RunnerError ? e.kind : 'network', message));
      });
      if (request.body && request.chunked) {
        // Two chunks, so the body really arrives in pieces.
        const half = Math.floor(request.body.length / 2);
        req.write(request.body.subarray(0, half));
        req.end(request.body.subarray(half));
      } else {
        req.end(request.body);
      }
    });
  }

  /**
   * A new connection (TLS for https, through the proxy's tunnel when there is one) for raw bytes;
   * `opened` gets its socket at once, to close it if the exchange ends first.
   */
  private async open(url: URL, proxy: URL | undefined, timeoutMs: number, opened: (s: Socket) => void): Promise<Socket> {
    const host = bare(url.hostname);
    const port = defaultPort(url);
    const made = (s: Socket) => {
      opened(s);
      return s;
    };
    if (url.protocol !== 'https:') {
      return connected(made(proxy ? netConnect({ host: bare(proxy.hostname), port: defaultPort(proxy) }) : netConnect({ host, port })), 'connect');
    }
    const socket = proxy ? made(await tunnel(proxy, host, port, timeoutMs)) : undefined;
    return connected(made(tlsConnect({ ...this.tls, host, port, socket, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] })), 'secureConnect');
  }

  /** Raw bytes on a connection of their own (raw.ts), their answer decoded as a parsed one's is. */
  private async sendRaw(request: HttpRequest, raw: Buffer, timeoutMs: number): Promise<HttpResponse> {
    const url = new URL(request.url);
    const proxy = proxyFor(url, this.settings.proxy);
    const what = `${request.method} ${url.pathname}`;
    const started = performance.now();
    const got = await exchangeRaw(what, request.method, raw, timeoutMs, (opened) => this.open(url, proxy, timeoutMs, opened), (e) => `${what} failed: ${this.explain(e, url, proxy)}`);
    const out = answered(what, got.status, got.statusText, got.headers, got.body, started);
    if (out instanceof RunnerError) throw out;
    return out;
  }
}

/** Header names in lowercase, repeated headers joined with ", ". */
function headersOf(res: http.IncomingMessage): Record<string, string> {
  return Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
}

/** The answer to `what` as the checks read it, or why it cannot be: a body that decodes past the cap. */
function answered(what: string, status: number, statusText: string, headers: Record<string, string>, encoded: Buffer, started: number): HttpResponse | RunnerError {
  try {
    return answer(status, statusText, headers, encoded, started);
  } catch (e) {
    return e instanceof RunnerError ? new RunnerError(e.kind, `the answer to ${what}: ${e.message}`) : new RunnerError('network', `the answer to ${what} could not be read: ${(e as Error).message}`);
  }
}

function answer(status: number, statusText: string, headers: Record<string, string>, encoded: Buffer, started: number): HttpResponse {
  const { body, wire } = decodeBody(encoded, headers);
  const text = body.toString('utf8');
  const out: HttpResponse = { status, statusText, headers, body, text, durationMs: performance.now() - started, wire };
  if (text !== '' && !wire.undecodable) {
    try {
      out.json = JSON.parse(text);
    } catch {
      // Not JSON: the checks say so where the document promises JSON.
    }
  }
  return out;
}
