import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** A server that records each request head it reads and writes a scripted answer, byte for byte. */
export async function scripted(answer: (head: string, socket: Socket) => void): Promise<{ origin: string; heads: string[]; server: Server; stop(): Promise<void> }> {
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let data = '';
    socket.on('data', (c: Buffer) => {
      data += c.toString('latin1');
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = data.slice(0, end + 4);
      data = '';
      heads.push(head);
      answer(head, socket);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, heads, server, stop };
}

/** Blocks the event loop, as a runner busy checking answers does: what arrives meanwhile is read late, all at once. */
export function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
