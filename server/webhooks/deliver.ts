import { request, type IncomingMessage } from 'node:http';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { lookup } from 'node:dns/promises';
import type { AttemptOutcome } from '../store/webhooks.js';
import { addressVerdict, deliverable, isLoopbackName } from './addresses.js';

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
  /** Aborted when the server stops: the attempt ends at once as `interrupted`. */
  signal?: AbortSignal;
}

export interface AttemptResult {
  statusCode: number | null;
  outcome: AttemptOutcome;
  detail: string;
}

/** The sentence an attempt cut off by a stop records (here and for one found unfinished after a restart). */
export const INTERRUPTED_DETAIL = 'The server stopped before the attempt was over; the delivery was not sent again.';

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
 * One attempt (section 6 item 2): a complete 2xx answer in time delivers; a redirect is never
 * followed; nothing from the endpoint for `noDataTimeoutMs`, or no complete answer within
 * `totalTimeoutMs` of the start, times out. An answer is complete when its body has ended, or
 * when `responseBodyCap` bytes of it have come: the body is not used, and no more of it is read,
 * so an endpoint cannot keep the sender reading.
 */
export function attemptDelivery(input: AttemptInput): Promise<AttemptResult> {
  return new Promise((settle) => {
    let done = false;
    let socket: Socket | undefined;
    let noData: NodeJS.Timeout | undefined;
    let answered: number | null = null;
    const seconds = (ms: number) => `${ms / 1000} s`;
    const total = setTimeout(
      () =>
        answered === null
          ? finish('timed_out', `No answer within ${seconds(input.totalTimeoutMs)}.`)
          : finish('timed_out', `Answered ${answered}, but the answer was not complete within ${seconds(input.totalTimeoutMs)}.`),
      input.totalTimeoutMs,
    );
    const quiet = () => {
      clearTimeout(noData);
      noData = setTimeout(
        () =>
          finish(
            'timed_out',
            answered === null ? `Nothing from the endpoint for ${seconds(input.noDataTimeoutMs)}.` : `Answered ${answered}, then nothing for ${seconds(input.noDataTimeoutMs)}.`,
          ),
        input.noDataTimeoutMs,
      );
    };
    const onAbort = () => finish('interrupted', INTERRUPTED_DETAIL);
    const finish = (outcome: AttemptOutcome, detail: string) => {
      if (done) return;
      done = true;
      clearTimeout(total);
      clearTimeout(noData);
      input.signal?.removeEventListener('abort', onAbort);
      settle({ statusCode: answered, outcome, detail });
      socket?.destroy();
    };
    if (input.signal?.aborted) return onAbort();
    input.signal?.addEventListener('abort', onAbort, { once: true });
    quiet();
    void dialTarget(input.url, input.allowLoopback, input.resolve).then((target) => {
      if (done) return;
      if (typeof target === 'string') return finish('connection_failed', target);
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
      req.on('error', (e: NodeJS.ErrnoException) => finish('connection_failed', `The connection failed (${e.code ?? 'no answer'}).`));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        answered = status;
        if (status >= 200 && status < 300) return readToCompletion(res, input.responseBodyCap, () => finish('delivered', `Answered ${status}.`), () =>
          finish('connection_failed', `Answered ${status}, but the connection closed before the answer was complete.`),
        );
        res.resume();
        if (status >= 300 && status < 400) return finish('redirected', `Answered ${status}, a redirect; not followed.`);
        finish('refused', `Answered ${status}.`);
      });
      req.end(input.body);
    });
  });
}

/** Reads and discards the answer's body: `complete` at its end or at `cap` bytes, `cut` if the connection ends first. */
function readToCompletion(res: IncomingMessage, cap: number, complete: () => void, cut: () => void): void {
  let read = 0;
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read >= cap) complete();
  });
  res.on('end', complete);
  res.on('aborted', cut);
  res.on('error', cut);
  res.on('close', () => (res.complete ? complete() : cut()));
}
