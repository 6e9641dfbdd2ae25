import http from 'node:http';
import https from 'node:https';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { Duplex } from 'node:stream';
import { RunnerError } from './errors.js';
import { proxyAuthorization, proxyFor, shownProxy, tunnel, type ProxySettings } from './proxy.js';
import { tlsHint, tlsOptions, type TlsSettings } from './tls.js';
import { ACCEPT_ENCODING, decodeBody, parseAnswer, type Wire } from './wire.js';

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
 * start-up probe's and the fixtures driver's: TLS with the run's files, the staging headers, the
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

  /** Sends a request as it is (see `request`), raw when it has raw bytes. */
  send(request: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
    const sending = request.raw ? this.sendRaw(request, request.raw, timeoutMs) : this.sendParsed(request, timeoutMs, !READS.has(request.method));
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
   * One sending of a parsed request. `alone`: on a connection opened for it, as every write is and
   * as a read is sent again once when the pooled connection it was handed turns out closed before
   * any byte of its answer: the deployment closed it idle (RFC 9112 §9.3), unannounced, just as
   * the runner reused it.
   */
  private sendParsed(request: HttpRequest, timeoutMs: number, alone: boolean): Promise<HttpResponse> {
    const url = new URL(request.url);
    const proxy = proxyFor(url, this.settings.proxy);
    const headers: Record<string, string> = { ...request.headers };
    if (request.body && !request.chunked) headers['content-length'] = String(request.body.length);
    const agent = this.agent(url, proxy, alone);
    const started = performance.now();
    return new Promise<HttpResponse>((resolve, reject) => {
      let settled = false;
      // Bytes the connection brought since this request took it (an interim answer's included).
      let arrived = 0;
      let reused = false;
      const fail = (kind: RunnerError['kind'], message: string) => {
        if (settled) return;
        settled = true;
        reject(new RunnerError(kind, message));
      };
      // Set once the answer's head has arrived: a request error after it (the rest of the body
      // refused with a reset) waits for the answer, which counts if it arrives whole.
      let requestError: string | undefined;
      let answering = false;
      const onResponse = (res: http.IncomingMessage) => {
        answering = true;
        const chunks: Buffer[] = [];
        const brokeOff = (why: string) => fail('network', requestError ?? `the response to ${request.method} ${url.pathname} broke off: ${why}`);
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => brokeOff(e.message));
        res.on('close', () => brokeOff('the connection closed'));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          const received = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
          resolve(answer(res.statusCode ?? 0, res.statusMessage ?? '', received, Buffer.concat(chunks), started));
        });
      };
      // Through a proxy, a plain-http request names its whole URL (RFC 9112 §3.2.2); an https one
      // goes through the tunnel its agent opens.
      const req =
        proxy && url.protocol === 'http:'
          ? http.request(
              { host: bare(proxy.hostname), port: defaultPort(proxy), path: url.href, method: request.method, headers: { host: url.host, ...proxyAuthorization(proxy), ...headers }, agent, timeout: timeoutMs },
              onResponse,
            )
          : (url.protocol === 'https:' ? https : http).request(url, { method: request.method, headers, agent, timeout: timeoutMs }, onResponse);
      // Set on the socket in every case: Node leaves a reused socket's idle timeout (shortened by
      // the server's Keep-Alive hint) in place when the request's timeout equals the agent's.
      req.setTimeout(timeoutMs);
      req.on('socket', (socket: Socket) => {
        // Node says `reusedSocket` only of a connection taken from the idle pool, not of one handed
        // straight from the request before to a queued request; the runner keeps its own count.
        reused = this.carried.has(socket);
        this.carried.add(socket);
        const count = (c: Buffer) => void (arrived += c.length);
        socket.on('data', count);
        req.once('close', () => socket.off('data', count));
      });
      req.on('timeout', () => {
        req.destroy();
        fail('timeout', `no answer to ${request.method} ${url.pathname} within ${timeoutMs} ms`);
      });
      // A server may answer (413) and close before the whole body is written, and the rest of the
      // body then meets a reset (RFC 9112 §9.6); an answer that arrives whole still counts.
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (!alone && !settled && reused && arrived === 0 && CLOSED.has(e.code ?? '')) {
          settled = true;
          resolve(this.sendParsed(request, timeoutMs, true));
          return;
        }
        const message = `${request.method} ${url.pathname} failed: ${this.explain(e, url, proxy)}`;
        if (answering && !(e instanceof RunnerError)) requestError = message;
        else fail(e instanceof RunnerError ? e.kind : 'network', message);
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

  /** A new connection (TLS for https, through the proxy's tunnel when there is one) for raw bytes. */
  private async open(url: URL, proxy: URL | undefined, timeoutMs: number): Promise<Socket> {
    const host = bare(url.hostname);
    const port = defaultPort(url);
    if (url.protocol !== 'https:') {
      return connected(proxy ? netConnect({ host: bare(proxy.hostname), port: defaultPort(proxy) }) : netConnect({ host, port }), 'connect');
    }
    const socket = proxy ? await tunnel(proxy, host, port, timeoutMs) : undefined;
    return connected(tlsConnect({ ...this.tls, host, port, socket, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] }), 'secureConnect');
  }

  /**
   * Writes the raw bytes and reads the answer as its framing says (chunks, Content-Length, or
   * until the server closes), so a server that keeps the connection open is not waited out.
   */
  private sendRaw(request: HttpRequest, raw: Buffer, timeoutMs: number): Promise<HttpResponse> {
    const url = new URL(request.url);
    const proxy = proxyFor(url, this.settings.proxy);
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let socket: Socket | undefined;
      let done = false;
      const finish = (outcome: Error | HttpResponse) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        socket?.destroy();
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const read = (ended: boolean) => {
        try {
          const parsed = parseAnswer(Buffer.concat(chunks), ended, request.method);
          if (parsed) finish(answer(parsed.status, parsed.statusText, parsed.headers, parsed.body, started));
        } catch (e) {
          finish(e as Error);
        }
      };
      const timer = setTimeout(() => finish(new RunnerError('timeout', `no answer to ${request.method} ${url.pathname} within ${timeoutMs} ms`)), timeoutMs);
      this.open(url, proxy, timeoutMs).then(
        (s) => {
          socket = s;
          if (done) return void s.destroy();
          s.on('data', (c: Buffer) => {
            chunks.push(c);
            read(false);
          });
          s.on('end', () => read(true));
          s.on('close', () => read(true));
          // A server may answer a head over its bound and reset the connection while the rest is written.
          s.on('error', (e: NodeJS.ErrnoException) =>
            chunks.length > 0 ? read(true) : finish(new RunnerError('network', `${request.method} ${url.pathname} failed: ${this.explain(e, url, proxy)}`)),
          );
          s.write(raw);
        },
        (e: NodeJS.ErrnoException) => finish(e instanceof RunnerError ? e : new RunnerError('network', `${request.method} ${url.pathname} failed: ${this.explain(e, url, proxy)}`)),
      );
    });
  }
}

function connected(socket: Socket, event: 'connect' | 'secureConnect'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once(event, () => resolve(socket));
    socket.once('error', reject);
  });
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

/**
 * The raw head with `added` headers after its request line, each unless the head has it, and
 * through an http proxy the whole URL in the request line, as a parsed request would have.
 */
function rawHead(raw: Buffer, url: URL, added: [string, string][], proxy: URL | undefined): Buffer {
  const lineEnd = raw.indexOf('\r\n');
  if (lineEnd < 0) return raw;
  const headEnd = raw.indexOf('\r\n\r\n');
  const fields = raw.subarray(lineEnd + 2, headEnd < 0 ? raw.length : headEnd).toString('latin1').split('\r\n');
  const present = new Set(fields.map((f) => f.split(':')[0]!.trim().toLowerCase()));
  const lines: string[] = [];
  for (const [name, value] of added) {
    if (present.has(name.toLowerCase())) continue;
    present.add(name.toLowerCase());
    lines.push(`${name}: ${value}\r\n`);
  }
  let requestLine = raw.subarray(0, lineEnd).toString('latin1');
  if (proxy && url.protocol === 'http:') requestLine = requestLine.replace(/^(\S+) (\/\S*)/, (_m, method: string, target: string) => `${method} ${url.origin}${target}`);
  return Buffer.concat([Buffer.from(`${requestLine}\r\n${lines.join('')}`, 'latin1'), raw.subarray(lineEnd + 2)]);
}
