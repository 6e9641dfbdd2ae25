// A TCP relay on 127.0.0.1, port 0, in front of a real server: it passes bytes both ways, and on cue
// resets the caller's connection at the first byte of an answer, so the request reached the server
// and was carried out there, but its answer never reaches the caller.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface CuttingProxy {
  base: string;
  /** How many of the next answers, in order, are cut off instead of passed on. */
  cuts: number;
  /** How many answers were cut off so far. */
  cut: number;
  close(): Promise<void>;
}

export async function startCuttingProxy(target: string): Promise<CuttingProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = createServer((caller) => {
    track(caller);
    const upstream = connect(Number(port), hostname);
    track(upstream);
    caller.on('data', (chunk) => upstream.write(chunk));
    caller.on('close', () => upstream.destroy());
    upstream.on('close', () => caller.destroy());
    upstream.on('data', (chunk) => {
      if (proxy.cuts > 0) {
        proxy.cuts--;
        proxy.cut++;
        caller.resetAndDestroy();
        upstream.destroy();
        return;
      }
      caller.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: CuttingProxy = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cuts: 0,
    cut: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
