import { Server as NetServer } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { LINGERING } from './closing.js';

/** What the drain needs of the HTTP server (http/server.ts). */
export interface DrainHooks {
  server: Server;
  /** Every open connection. */
  sockets: ReadonlySet<Socket>;
  /** The last response of a connection: the answer of the last request it carried. */
  latest(socket: Socket): ServerResponse | undefined;
  /** Makes the answer say `Connection: close` if it is still the connection's last when written. */
  closeLast(res: ServerResponse): void;
  /** Refuses what a connection still sends (408), after the answers of the requests before it. */
  refuse(socket: Socket): void;
  drainMs: number;
  /** How many connections have been accepted so far. */
  accepted(): number;
}

/** How long without a new connection before the listener closes. */
export const ACCEPT_QUIET_MS = 100;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A graceful stop: no new connection is accepted, idle connections close, and every request
 * already received is answered, a write included. Each answer that is the last of its connection
 * says `Connection: close`, so a client sends nothing more on it. What is still arriving when
 * `drainMs` have passed is refused with a JSON 408 and the connection closes. Resolves once every
 * connection has closed, or, whatever a client does, once the closing stages are over too.
 */
export async function drain(hooks: DrainHooks): Promise<void> {
  const { server, sockets } = hooks;
  for (const socket of sockets) {
    const res = hooks.latest(socket);
    if (!res || res.writableFinished) continue;
    if (!res.headersSent) hooks.closeLast(res);
    else res.once('finish', () => hooks.latest(socket) === res && socket.destroySoon());
  }
  // A connection the kernel has completed but the server has not yet accepted would be reset when
  // the listener closes, its request unread. Under load the server takes such connections one per
  // turn of its loop, so the listener stays open until ACCEPT_QUIET_MS pass with none (at most the drain).
  const started = Date.now();
  for (let seen = -1; seen !== hooks.accepted() && Date.now() - started < hooks.drainMs; ) {
    seen = hooks.accepted();
    await new Promise((resolve) => setTimeout(resolve, ACCEPT_QUIET_MS));
  }
  let deadline: NodeJS.Timeout | undefined;
  const closed = new Promise<void>((resolve) => {
    const hardStop = setTimeout(resolve, Math.max(0, hooks.drainMs - (Date.now() - started)) + LINGERING.ms + 1_000);
    hardStop.unref();
    // The net server's close, not the HTTP server's: that one would also close every connection
    // that has not started a request yet, and a connection just accepted has not been read.
    NetServer.prototype.close.call(server, () => {
      clearTimeout(hardStop);
      clearTimeout(deadline);
      resolve();
    });
  });
  // What the new connections sent is read (and its requests begun) by now; the rest are idle.
  await nextTurn();
  await nextTurn();
  server.closeIdleConnections();
  deadline = setTimeout(() => {
    for (const socket of sockets) {
      const res = hooks.latest(socket);
      // A request that has all arrived is being answered: its answer goes out, then the close.
      if (res && res.req.complete && !res.writableFinished) continue;
      hooks.refuse(socket);
    }
  }, Math.max(0, hooks.drainMs - (Date.now() - started)));
  deadline.unref();
  return closed;
}
