// A tiny real HTTP server on 127.0.0.1, port 0, for answers the reference server never gives: an
// intermediary's HTML page, a stripped Retry-After, a connection cut mid-body, a request left hanging.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  at: number;
  /** Resolves when the client closed this request's connection before an answer. */
  closed: Promise<void>;
}

export interface TinyServer {
  base: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** `handler` gets each request with its index (0 for the first). Leaving `res` unanswered leaves the request hanging. */
export async function startTinyServer(handler: (req: IncomingMessage, res: ServerResponse, index: number) => void): Promise<TinyServer> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, at: Date.now(), closed });
    req.resume();
    req.on('end', () => handler(req, res, seen.length - 1));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A catalog body the client can return (its shape does not matter to these tests). */
export const EMPTY_CATALOG = { cards: [], logins: [], identity: { tokens: {}, missing: [] }, addresses: [] };
