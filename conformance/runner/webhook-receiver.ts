import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * The runner's own webhook receiver (section 6): one HTTP server for the run, listening where
 * `--webhook-listen` says (127.0.0.1 and a free port by default), with a path of its own for each
 * case, so that cases running at once share one port, as a tunnel or an ingress in front of it
 * needs. The deployment is given the URL `--webhook-url` announces (the tunnel's or the
 * ingress's), with the case's path after it, or the listening address when none is announced. Each
 * receiver records every delivery as received, bytes and headers, and answers as its case asks.
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

/** Where the receiver listens, and the URL the deployment is given for it. */
export interface ReceiverSettings {
  host: string;
  port: number;
  /** `--webhook-url`: the public URL that reaches the listening address (a tunnel's, an ingress's). */
  publicUrl?: string;
}

export const DEFAULT_RECEIVER: ReceiverSettings = { host: '127.0.0.1', port: 0 };

export const REDIRECT_TARGET = 'redirected-here';

interface Route {
  answer: ReceiverAnswer;
  received: ReceivedDelivery[];
  waiting: ((d: ReceivedDelivery) => void)[];
  held: ServerResponse[];
}

/** The run's receiver: started with the first case that needs it, closed with the run. */
export class WebhookHub {
  private server?: Promise<Server>;
  private readonly routes = new Map<string, Route>();

  constructor(readonly settings: ReceiverSettings = DEFAULT_RECEIVER) {}

  private start(): Promise<Server> {
    this.server ??= new Promise((resolve, reject) => {
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => this.receive(req.url ?? '', req.headers, Buffer.concat(chunks), res));
      });
      server.once('error', (e: NodeJS.ErrnoException) => reject(new Error(`the webhook receiver cannot listen on ${this.settings.host}:${this.settings.port} (${e.code ?? e.message}); give --webhook-listen another address or port`)));
      // The cases' own waits keep the run alive; the receiver alone never holds its exit.
      server.unref();
      server.listen(this.settings.port, this.settings.host, () => resolve(server));
    });
    return this.server;
  }

  /** The route a path names: the first of its segments that is a receiver's id, wherever a tunnel or an ingress put it. */
  private receive(path: string, headers: IncomingHttpHeaders, body: Buffer, res: ServerResponse): void {
    const segments = path.split('?')[0]!.split('/');
    const index = segments.findIndex((s) => this.routes.has(s));
    const route = index >= 0 ? this.routes.get(segments[index]!) : undefined;
    if (!route) return void res.writeHead(404).end();
    const delivery = { path, headers, body };
    route.received.push(delivery);
    for (const w of route.waiting.splice(0)) w(delivery);
    const redirected = segments[index + 1] === REDIRECT_TARGET;
    if (route.answer === 'acknowledge' || redirected) res.writeHead(200).end();
    else if (route.answer === 'redirect') res.writeHead(307, { location: `${segments.slice(0, index + 1).join('/')}/${REDIRECT_TARGET}` }).end();
    else route.held.push(res);
  }

  private async base(): Promise<string> {
    const server = await this.start();
    if (this.settings.publicUrl) return this.settings.publicUrl.replace(/\/+$/, '');
    const { port } = server.address() as AddressInfo;
    const host = ['0.0.0.0', '::'].includes(this.settings.host) ? '127.0.0.1' : this.settings.host.includes(':') ? `[${this.settings.host}]` : this.settings.host;
    return `http://${host}:${port}`;
  }

  /** A receiver of its own for one case, answering as asked. */
  async open(answer: ReceiverAnswer): Promise<WebhookReceiver> {
    const id = `r${randomBytes(8).toString('hex')}`;
    const route: Route = { answer, received: [], waiting: [], held: [] };
    const base = await this.base();
    this.routes.set(id, route);
    return {
      url: `${base}/${id}/webhook`,
      received: route.received,
      next(timeoutMs) {
        if (route.received.length > 0) return Promise.resolve(route.received[0]);
        return new Promise((resolve) => {
          const timer = setTimeout(() => resolve(undefined), timeoutMs);
          route.waiting.push((d) => {
            clearTimeout(timer);
            resolve(d);
          });
        });
      },
      close: async () => {
        for (const res of route.held) res.destroy();
        this.routes.delete(id);
      },
    };
  }

  async close(): Promise<void> {
    if (!this.server) return;
    const server = await this.server.catch(() => undefined);
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Whether a delivery reached the path a redirect sent it to. */
export function followedRedirect(d: ReceivedDelivery): boolean {
  return d.path.split('?')[0]!.split('/').includes(REDIRECT_TARGET);
}
