import http, { STATUS_CODES } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ROOT } from './processes.js';

/** A response on its way back to the runner, which a fault may change. */
export interface Passing {
  method: string;
  /** The path as the deployment behind the proxy sees it (a base path removed). */
  path: string;
  query: URLSearchParams;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The request's body as it was sent (as far as it had arrived). */
  seen: string;
  /** The request's headers as the runner sent them, names in lowercase. */
  requestHeaders: Record<string, string>;
  /** Send the body in several chunks (`Transfer-Encoding: chunked`, no `Content-Length`). */
  chunked?: boolean;
}

/** What a fault sees of requests, to learn a stored secret from the account holder's side. */
export interface Seen {
  method: string;
  path: string;
  body: Buffer;
}

/** The head of a request on its way to the deployment. */
export interface RequestHead {
  method: string;
  path: string;
  headers: Record<string, string>;
}

export interface Fault {
  /** Changes the headers of a request before it is forwarded (the driver's included). */
  forward?(head: RequestHead): Record<string, string>;
  /** Sees every request (the driver's included) once its body has arrived. */
  request?(seen: Seen): void;
  /** Changes a response; returns it (changed or not), or a promise of it (a fault that must ask something first). */
  response?(passing: Passing): Passing | Promise<Passing>;
  /**
   * For a request it returns a function for, the proxy holds the whole body and either forwards
   * what the function returns in its place or, given a response, answers with it itself (that
   * answer then passes through `response` as the deployment's would).
   */
  rewrite?(head: RequestHead): ((body: Buffer) => Buffer | Answer | Promise<Buffer | Answer>) | undefined;
}

/** An answer a fault gives in place of the deployment's. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxyOptions {
  /** Serve over TLS with this certificate and key (PEM). */
  tls?: { cert: string; key: string };
  /** Serve the deployment under this path (`/vault`); the proxy answers a request elsewhere with 404 itself. */
  basePath?: string;
  /**
   * An edge's own bound on a request head, in bytes: a head over it is answered by the proxy with
   * 431 and an empty body, as Node's `https`, nginx or a CDN do, and never reaches the deployment.
   */
  edgeHeadCap?: number;
  /**
   * How the deployment keeps client connections: closed once idle this many milliseconds
   * (`idleCloseMs`), or right after their `maxRequests`-th answer, without `Connection: close`;
   * `announce` is the `Keep-Alive: timeout=N` it sends whatever it does (none when not given).
   * Unset, Node's own keep-alive (announced, 5 s) applies.
   */
  connections?: { idleCloseMs?: number; maxRequests?: number; announce?: number };
}

export interface ProxyCounts {
  requests: number;
  outside: number;
  edge: number;
  closed: number;
  unread: number;
}

export interface TamperingProxy {
  base: string;
  fault: Fault;
  /**
   * Requests that reached the proxy, and those of them outside the base path; request heads the
   * edge refused itself; connections closed as `connections` says, and requests that met one
   * being closed (never read).
   */
  counts: ProxyCounts;
  stop(): Promise<void>;
}

const HOP_BY_HOP = ['content-length', 'transfer-encoding'];

interface Bundled {
  'x-limits': Record<string, { value?: number; plan?: string; window?: { seconds: number } }>;
  'x-plans': Record<string, Record<string, number | null>>;
}

let bundled: Bundled | undefined;

function document(): Bundled {
  bundled ??= JSON.parse(readFileSync(join(ROOT, 'dist', 'openapi.json'), 'utf8')) as Bundled;
  return bundled;
}

/** A limit's default, as the bundled document the answers are judged by states it (the HTTP layer's bounds, say). */
export function documentLimit(id: string): number {
  return document()['x-limits'][id]!.value!;
}

/** A limit of a plan (`catalog-per-key` on Free, say) and its window, as the bundled document states them. */
export function documentPlanLimit(id: string, plan: string): { value: number; windowMs: number } {
  const limit = document()['x-limits'][id]!;
  return { value: document()['x-plans'][plan]![limit.plan!] ?? Number.POSITIVE_INFINITY, windowMs: limit.window!.seconds * 1000 };
}

/**
 * A tampering HTTP proxy between the runner and a deployment, standing in for a deployment that
 * is wrong, or different, in one known way. Requests stream through unchanged (a chunked body
 * stays chunked); responses are read whole, passed through the current fault, and sent on. No
 * fault lives in the server itself.
 *
 * Its own request-head cap is above the deployment's, so an oversized head reaches the deployment
 * and is answered there; a head that never ends cannot be forwarded, so the proxy answers it after
 * the document's timeout, as the deployment would, and that answer passes through the fault too.
 */
export async function startTamperingProxy(upstream: string, options: ProxyOptions = {}): Promise<TamperingProxy> {
  const target = new URL(upstream);
  // Free connections go before the deployment's keep-alive timeout closes them under a request.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });
  const state = { fault: {} as Fault };
  const counts: ProxyCounts = { requests: 0, outside: 0, edge: 0, closed: 0, unread: 0 };
  const prefix = options.basePath?.replace(/\/+$/, '') ?? '';

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (kept?.closing(req.socket)) {
      counts.unread += 1;
      return void req.socket.destroy();
    }
    counts.requests += 1;
    const raw = req.url ?? '/';
    if (prefix && raw !== prefix && !raw.startsWith(`${prefix}/`) && !raw.startsWith(`${prefix}?`)) {
      counts.outside += 1;
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not Found\n');
      return;
    }
    const rest = raw.slice(prefix.length);
    const forwardedPath = rest.startsWith('/') ? rest : `/${rest}`;
    const url = new URL(forwardedPath, upstream);
    const chunks: Buffer[] = [];
    const requestHeaders = flatten(req.headers);
    const head = { method: req.method ?? 'GET', path: url.pathname, headers: { ...requestHeaders, host: target.host } };
    const headers = state.fault.forward?.(head) ?? head.headers;
    const send = (replaced?: Buffer, retried = false) => {
      const sent = replaced ? { ...withoutFraming(headers), 'content-length': String(replaced.length) } : headers;
      const out = http.request({ host: target.hostname, port: target.port, method: req.method, path: forwardedPath, headers: sent, agent }, (up) => {
        const body: Buffer[] = [];
        up.on('data', (c: Buffer) => body.push(c));
        up.on('end', () => {
          let passing: Passing = {
            method: req.method ?? 'GET',
            path: url.pathname,
            query: url.searchParams,
            status: up.statusCode ?? 502,
            headers: flatten(up.headers),
            body: Buffer.concat(body),
            seen: Buffer.concat(chunks).toString('utf8'),
            requestHeaders,
          };
          void settle(state.fault.response?.(passing) ?? passing).then((out) => answer(res, out), () => res.destroy());
        });
      });
      // A held body can be sent again: a pooled connection the deployment closed under it is no answer.
      out.on('error', () => (replaced && !retried && !res.headersSent ? send(replaced, true) : res.destroy()));
      if (replaced) {
        if (!retried) chunks.push(replaced);
        state.fault.request?.({ method: req.method ?? 'GET', path: url.pathname, body: replaced });
        out.end(replaced);
        return;
      }
      req.on('data', (c: Buffer) => {
        chunks.push(c);
        out.write(c);
      });
      req.on('end', () => {
        state.fault.request?.({ method: req.method ?? 'GET', path: url.pathname, body: Buffer.concat(chunks) });
        out.end();
      });
    };
    const rewrite = state.fault.rewrite?.(head);
    const own = (out: Answer, body: Buffer) => {
      const passing: Passing = { method: head.method, path: url.pathname, query: url.searchParams, ...out, seen: body.toString('utf8'), requestHeaders };
      void settle(state.fault.response?.(passing) ?? passing).then((p) => answer(res, p), () => res.destroy());
    };
    if (rewrite) held(req, res, rewrite, send, own);
    else send();
  };

  const settings: http.ServerOptions = {
    maxHeaderSize: options.edgeHeadCap ?? 4 * documentLimit('request-header-size'),
    headersTimeout: documentLimit('request-headers-timeout') * 1000,
    // The deployment behind times the rest of the request out itself.
    requestTimeout: 0,
    connectionsCheckingInterval: 250,
  };
  const server = options.tls ? https.createServer({ ...settings, cert: options.tls.cert, key: options.tls.key }, handler) : http.createServer(settings, handler);
  const kept = options.connections ? keepConnections(server, options.connections, counts) : undefined;
  server.on('clientError', (err: Error & { code?: string }, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) return void socket.destroy();
    if (options.edgeHeadCap !== undefined && err.code === 'HPE_HEADER_OVERFLOW') {
      counts.edge += 1;
      socket.end('HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      socket.destroySoon();
      return;
    }
    const refused = refusal(err.code);
    void settle(state.fault.response?.(refused) ?? refused).then((out) => {
      socket.end(serialize(out));
      socket.destroySoon();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const scheme = options.tls ? 'https' : 'http';
  return {
    base: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`,
    counts,
    get fault() {
      return state.fault;
    },
    set fault(f: Fault) {
      state.fault = f;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const settle = <T>(value: T | Promise<T>): Promise<T> => Promise.resolve(value);

/** Holds a request's whole body, then forwards what `rewrite` makes of it, or answers in its place. */
function held(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  rewrite: (body: Buffer) => Buffer | Answer | Promise<Buffer | Answer>,
  forward: (body: Buffer) => void,
  own: (out: Answer, body: Buffer) => void,
): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    void settle(rewrite(body)).then(
      (out) => (Buffer.isBuffer(out) ? forward(out) : own(out, body)),
      () => res.destroy(),
    );
  });
}

/**
 * Keeps client connections as `connections` says, in place of Node's keep-alive: an idle
 * connection closed after `idleCloseMs`, or one closed after its `maxRequests`-th answer, neither
 * announced with `Connection: close` (RFC 9112 §9.3 lets a server close at any time). A request
 * that meets a connection being closed is never read, as a server that closed it reads nothing
 * more: `closing` tells the handler so.
 */
function keepConnections(server: http.Server | https.Server, connections: NonNullable<ProxyOptions['connections']>, counts: ProxyCounts): { closing(socket: Socket): boolean } {
  // Node then neither closes idle connections itself nor sends its own Keep-Alive header.
  server.keepAliveTimeout = 0;
  const served = new WeakMap<Socket, number>();
  const idle = new WeakMap<Socket, NodeJS.Timeout>();
  const closing = new WeakSet<Socket>();
  const close = (socket: Socket) => {
    counts.closed += 1;
    closing.add(socket);
    socket.end();
  };
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    if (!served.has(socket)) socket.once('close', () => clearTimeout(idle.get(socket)));
    clearTimeout(idle.get(socket));
    if (closing.has(socket)) return;
    if (connections.announce !== undefined) res.setHeader('keep-alive', `timeout=${connections.announce}`);
    served.set(socket, served.get(socket) ?? 0);
    res.once('finish', () => {
      const count = (served.get(socket) ?? 0) + 1;
      served.set(socket, count);
      if (connections.maxRequests !== undefined && count >= connections.maxRequests) return close(socket);
      if (connections.idleCloseMs !== undefined) idle.set(socket, setTimeout(() => close(socket), connections.idleCloseMs));
    });
  });
  return { closing: (socket) => closing.has(socket) };
}

function withoutFraming(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name.toLowerCase())));
}

function flatten(headers: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
}

/** The pieces of a body sent chunked: three, or one a byte when it is shorter. */
function pieces(body: Buffer): Buffer[] {
  const size = Math.max(1, Math.ceil(body.length / 3));
  const out: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) out.push(body.subarray(at, at + size));
  return out;
}

function outgoing(passing: Passing): Record<string, string> {
  return Object.fromEntries(Object.entries(passing.headers).filter(([name]) => !HOP_BY_HOP.includes(name.toLowerCase())));
}

function answer(res: http.ServerResponse, passing: Passing): void {
  const headers = outgoing(passing);
  if (!passing.chunked) {
    res.writeHead(passing.status, { ...headers, 'content-length': String(passing.body.length) });
    res.end(passing.body);
    return;
  }
  res.writeHead(passing.status, headers);
  for (const piece of pieces(passing.body)) res.write(piece);
  res.end();
}

/** What the deployment answers a request head it refuses before any operation (the document's `{code, error}`). */
function refusal(code: string | undefined): Passing {
  const [status, error] =
    code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, `The request headers did not arrive within ${documentLimit('request-headers-timeout')} seconds.`]
      : code === 'HPE_HEADER_OVERFLOW'
        ? [431, `The request headers are larger than ${documentLimit('request-header-size')} bytes.`]
        : [400, 'The request is not valid HTTP/1.1.'];
  return {
    method: '',
    path: '',
    query: new URLSearchParams(),
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: Buffer.from(JSON.stringify({ code: 'bad_request', error })),
    seen: '',
    requestHeaders: {},
  };
}

/** A whole answer as bytes, for a connection that has no response object; the connection closes after it. */
function serialize(passing: Passing): Buffer {
  const lines = [`HTTP/1.1 ${passing.status} ${STATUS_CODES[passing.status] ?? ''}`];
  for (const [name, value] of Object.entries(outgoing(passing))) if (name.toLowerCase() !== 'connection') lines.push(`${name}: ${value}`);
  lines.push('Connection: close');
  if (!passing.chunked) {
    lines.push(`Content-Length: ${passing.body.length}`);
    return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), passing.body]);
  }
  lines.push('Transfer-Encoding: chunked');
  const framed = pieces(passing.body).flatMap((p) => [Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), ...framed, Buffer.from('0\r\n\r\n')]);
}

/** A JSON body changed by `edit`; other bodies pass unchanged. */
export function editJson(passing: Passing, edit: (body: Record<string, unknown>) => void): Passing {
  try {
    const body = JSON.parse(passing.body.toString('utf8')) as Record<string, unknown>;
    edit(body);
    return { ...passing, body: Buffer.from(JSON.stringify(body)) };
  } catch {
    return passing;
  }
}

export type Coding = 'gzip' | 'br';

/** Whether the request's `Accept-Encoding` allows `coding` (RFC 9110 §12.5.3): named, or `*`, with a weight above 0. */
export function accepts(passing: Passing, coding: Coding): boolean {
  const weights = new Map<string, number>();
  for (const part of (passing.requestHeaders['accept-encoding'] ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (name === '') continue;
    const q = params.find((p) => p.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) : 1);
  }
  const weight = weights.get(coding) ?? weights.get('*');
  return weight !== undefined && weight > 0;
}

/**
 * The body compressed with `coding` when the request allows it, with `Content-Encoding` and
 * `Vary: Accept-Encoding` (on every answer: whether it is compressed depends on the request).
 */
export function compress(passing: Passing, coding: Coding): Passing {
  const vary = passing.headers.vary ? `${passing.headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  if (!accepts(passing, coding) || passing.headers['content-encoding']) return { ...passing, headers: { ...passing.headers, vary } };
  const body = coding === 'gzip' ? gzipSync(passing.body) : brotliCompressSync(passing.body);
  return { ...passing, body, headers: { ...passing.headers, 'content-encoding': coding, vary } };
}
