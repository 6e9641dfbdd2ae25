import type { Socket } from 'node:net';

/**
 * How long, and for how many bytes, a closing connection goes on reading what the client still
 * sends after the last answer.
 */
export const LINGERING = { ms: 2_000, bytes: 1 << 20 };

/**
 * Makes the socket close in stages (RFC 9112 section 9.6) wherever the server ends a connection
 * after an answer (`Connection: close`, a refused body, an answer of the HTTP layer). Closed at
 * once while the client is still sending (the rest of a refused body, a pipelined request), the
 * socket's late bytes draw a TCP reset, and the client's next write fails before it has read the
 * answer waiting for it. So the answer goes out with a FIN, then what still arrives is read and
 * dropped, never parsed, until the client closes its side, LINGERING.ms pass or LINGERING.bytes
 * arrive.
 */
export function closeInStages(socket: Socket): void {
  socket.destroySoon = function closeAfterLingering(this: Socket) {
    if (this.destroyed) return;
    if (this.writable) this.end();
    if (this.readableEnded) return void this.destroy();
    let dropped = 0;
    const close = () => this.destroy();
    const timer = setTimeout(close, LINGERING.ms);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.once('end', close);
    // The HTTP parser lets go of the socket once its own listener is gone and another is added:
    // nothing read from here on is taken for a request.
    this.removeAllListeners('data');
    this.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGERING.bytes) close();
    });
    this.resume();
  };
}
