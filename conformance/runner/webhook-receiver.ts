import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The runner's own webhook receiver (section 6), on 127.0.0.1 and a port of its own for one case:
 * it records every delivery as received, bytes and headers, and answers as the case asks. A
 * deployment on another machine cannot reach it; its driver then reports the endpoint refused, or
 * no delivery arrives.
 */
export type ReceiverAnswer =
  /** 200, at once. */
  | 'acknowledge'
  /** 307 to another path of the receiver, which records whether it was followed. */
  | 'redirect'
  /** Reads the delivery and never answers, until the receiver closes. */
  | 'silent';

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The first delivery to arrive (or one already received), or undefined after `timeoutMs`. */
  next(timeoutMs: number): Promise<ReceivedDelivery | undefined>;
  close(): Promise<void>;
}

export const REDIRECT_TARGET = '/redirected-here';

export async function startReceiver(answer: ReceiverAnswer): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const waiting: ((d: ReceivedDelivery) => void)[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const delivery = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(delivery);
      for (const w of waiting.splice(0)) w(delivery);
      if (answer === 'acknowledge' || delivery.path === REDIRECT_TARGET) res.writeHead(200).end();
      else if (answer === 'redirect') res.writeHead(307, { location: REDIRECT_TARGET }).end();
      else held.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
    received,
    next(timeoutMs) {
      if (received.length > 0) return Promise.resolve(received[0]);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(undefined), timeoutMs);
        waiting.push((d) => {
          clearTimeout(timer);
          resolve(d);
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
