// A tiny real HTTP server on 127.0.0.1, port 0, for answers the reference server never gives: an
// intermediary's HTML page, a stripped Retry-After, a request left hanging, and the network failing on
// cue: a connection reset or closed after the request arrived, an answer cut mid-body, and the port
// refusing connections for a while (`refuse`, then `accept` on the same port). In front of the
// reference server (`forward`), it lets a test break the network of a real exchange.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
  /** Resolves when the client closed this request's connection before an answer. */
  closed: Promise<void>;
}

export interface TinyServer {
  base: string;
  seen: Seen[];
  /** Stops listening and drops every open connection: connections to the port are refused until `accept`. */
  refuse(): Promise<void>;
  /** Listens again, on the same port. */
  accept(): Promise<void>;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, index: number, seen: Seen) => void;

/** `handler` gets each request, its body read, with its index (0 for the first). Leaving `res` unanswered leaves the request hanging. */
export async function startTinyServer(handler: Handler): Promise<TinyServer> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
    const entry: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '', at: Date.now(), closed };
    seen.push(entry);
    const index = seen.length - 1;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (entry.body += chunk));
    req.on('end', () => handler(req, res, index, entry));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  let listening = true;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    refuse: async () => {
      listening = false;
      await stop();
    },
    accept: async () => {
      listening = true;
      await listen(port);
    },
    close: async () => {
      if (listening) await stop();
      listening = false;
    },
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Resets the request's connection (a TCP RST): the client reads ECONNRESET. */
export function reset(res: ServerResponse): void {
  res.socket?.resetAndDestroy();
}

/** Closes the request's connection without an answer. */
export function drop(res: ServerResponse): void {
  res.socket?.destroy();
}

/** Sends the status line, the headers and half the body, then resets the connection. */
export function cut(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(text.length) });
  res.write(text.slice(0, text.length >> 1), () => setTimeout(() => reset(res), 20));
}

/** Passes the request on to `upstream` and its answer back, as a reverse proxy would. */
export function forward(upstream: string, req: IncomingMessage, res: ServerResponse, seen: Seen): void {
  const out = httpRequest(new URL(req.url ?? '/', upstream), { method: req.method, headers: { ...req.headers, host: new URL(upstream).host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => reset(res));
  out.end(seen.body);
}

/** A catalog body the client can return (its shape does not matter to these tests). */
export const EMPTY_CATALOG = { cards: [], logins: [], identity: { tokens: {}, missing: [] }, addresses: [] };

/**
 * A test file's servers, each closed after the test that started it, last started first, with
 * whatever else a test registers with `closeAfterTest`. Called once, at the top of a file;
 * `beforeClosing` runs first (real timers back, for a file that fakes them).
 */
export function closedAfterEachTest(beforeClosing?: () => void) {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    beforeClosing?.();
    while (closers.length > 0) await closers.pop()!();
  });
  return {
    closeAfterTest(close: () => Promise<void>): void {
      closers.push(close);
    },
    async tiny(handler: Handler): Promise<TinyServer> {
      const server = await startTinyServer(handler);
      closers.push(() => server.close());
      return server;
    },
  };
}
