import { request, type IncomingMessage } from 'node:http';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { lookup } from 'node:dns/promises';
import type { AttemptOutcome } from '../store/webhooks.js';
import { addressVerdict, deliverable } from './addresses.js';
import { isLoopbackName } from './endpoint.js';

/** Resolves a host name to every address DNS gives for it. */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

/** Where one attempt will connect: the checked address, never the name again (no second lookup). */
export interface DialTarget {
  address: string;
  port: number;
  tls: boolean;
  /** The host name, for TLS's SNI and certificate check; absent when the URL names an address. */
  servername?: string;
}

/** Opens the connection of one attempt. Tests inject one that records the target instead. */
export type Connector = (target: DialTarget) => Socket;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

export const systemConnector: Connector = (target) =>
  target.tls
    ? tlsConnect({ host: target.address, port: target.port, servername: target.servername, ALPNProtocols: ['http/1.1'] })
    : netConnect({ host: target.address, port: target.port });

export interface AttemptInput {
  url: URL;
  headers: Record<string, string>;
  body: Buffer;
  allowLoopback: boolean;
  noDataTimeoutMs: number;
  totalTimeoutMs: number;
  responseBodyCap: number;
  resolve: Resolver;
  connect: Connector;
}

export interface AttemptResult {
  statusCode: number | null;
  outcome: AttemptOutcome;
  detail: string;
}

/**
 * The address to dial for `url`, or why none may be: the name is resolved once, every address it
 * gives is checked (one private answer among public ones refuses the lot: a rebinding name
 * mixes them), and the attempt then connects to the checked address, so DNS cannot change the
 * answer between the check and the connection. A refusal never names an address a name resolved
 * to: the delivery list would otherwise tell anyone who sets an endpoint what internal names
 * resolve to (OWASP's SSRF prevention cheat sheet).
 */
export async function dialTarget(url: URL, allowLoopback: boolean, resolve: Resolver): Promise<DialTarget | string> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const literal = isIP(host) !== 0;
  const loopbackName = !literal && isLoopbackName(host);
  if (loopbackName && !allowLoopback) return `${host} is this machine, and this deployment delivers only to public endpoints; not dialled.`;
  let addresses: string[];
  if (literal) addresses = [host];
  else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch (e) {
      return `${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? 'lookup failed'}).`;
    }
    if (addresses.length === 0) return `${host} does not resolve.`;
  }
  for (const address of addresses) {
    const verdict = deliverable(address, allowLoopback);
    if (!verdict.ok) return literal ? `${host} is ${verdict.what}; not dialled.` : `${host} resolves to an address that is not public; not dialled.`;
  }
  const thisMachine = addresses.every((a) => addressVerdict(a).thisMachine);
  if (loopbackName && !thisMachine) return `${host} does not resolve to this machine only; not dialled.`;
  if (url.protocol === 'http:' && !(allowLoopback && thisMachine)) return 'http:// is allowed only for a receiver on this machine; not dialled.';
  return { address: addresses[0]!, port, tls: url.protocol === 'https:', servername: literal ? undefined : host };
}

/**
 * One attempt (section 6 item 2): a 2xx in time delivers; a redirect is never followed; nothing
 * from the endpoint for `noDataTimeoutMs`, or no answer within `totalTimeoutMs` of the start,
 * times out. At most `responseBodyCap` bytes of the answer's body are read, then the connection
 * is closed: the body is not used, and an endpoint must not be able to keep the sender reading.
 */
export function attemptDelivery(input: AttemptInput): Promise<AttemptResult> {
  return new Promise((settle) => {
    let done = false;
    let socket: Socket | undefined;
    let noData: NodeJS.Timeout | undefined;
    const total = setTimeout(() => finish(null, 'timed_out', `No answer within ${input.totalTimeoutMs / 1000} s.`), input.totalTimeoutMs);
    const quiet = () => {
      clearTimeout(noData);
      noData = setTimeout(() => finish(null, 'timed_out', `Nothing from the endpoint for ${input.noDataTimeoutMs / 1000} s.`), input.noDataTimeoutMs);
    };
    const finish = (statusCode: number | null, outcome: AttemptOutcome, detail: string, keepReading?: IncomingMessage) => {
      if (done) return;
      done = true;
      clearTimeout(total);
      clearTimeout(noData);
      settle({ statusCode, outcome, detail });
      if (keepReading) drain(keepReading, input.responseBodyCap, Math.min(input.noDataTimeoutMs, input.totalTimeoutMs));
      else socket?.destroy();
    };
    quiet();
    void dialTarget(input.url, input.allowLoopback, input.resolve).then((target) => {
      if (done) return;
      if (typeof target === 'string') return finish(null, 'connection_failed', target);
      const req = request({
        method: 'POST',
        host: input.url.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        path: `${input.url.pathname}${input.url.search}`,
        headers: { ...input.headers, 'Content-Length': String(input.body.length) },
        createConnection: () => {
          socket = input.connect(target);
          socket.on('data', quiet);
          return socket;
        },
      });
      req.on('error', (e: NodeJS.ErrnoException) => finish(null, 'connection_failed', `The connection failed (${e.code ?? e.message}).`));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return finish(status, 'delivered', `Answered ${status}.`, res);
        if (status >= 300 && status < 400) return finish(status, 'redirected', `Answered ${status}, a redirect; not followed.`);
        finish(status, 'refused', `Answered ${status}.`);
      });
      req.end(input.body);
    });
  });
}

/** Reads and discards at most `cap` bytes of a delivered answer, for at most `ms`, then closes. */
function drain(res: IncomingMessage, cap: number, ms: number): void {
  let read = 0;
  const stop = setTimeout(() => res.destroy(), ms);
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read >= cap) res.destroy();
  });
  res.on('close', () => clearTimeout(stop));
  res.on('error', () => {});
}
