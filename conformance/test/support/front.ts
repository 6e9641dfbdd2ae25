import http from 'node:http';
import https from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { createBrotliCompress, createDeflate, createGzip } from 'node:zlib';
import type { Transform } from 'node:stream';

/**
 * What stands in front of a deployment in staging, made small for tests: a front (TLS with a test
 * CA, a client certificate asked for, a base path, a gateway header, compressed answers) that
 * forwards to the reference server, and an HTTP proxy (CONNECT tunnels and plain forwarding).
 */

export interface FrontOptions {
  /** The reference server's base URL. */
  target: string;
  tls?: { cert: string; key: string; ca?: string; requireClientCert?: boolean };
  /** Serve the API under this path (`/vault`); anything else is 404. */
  basePath?: string;
  /** Refuse (403) a request without this header and value. */
  requireHeader?: [string, string];
  /**
   * How to encode the answer to a path (without the base path): gzip with Content-Length, br or
   * deflate chunked, identity chunked; undefined passes the answer on as it is. A deployment keeps
   * to one way for a path, so that two answers to one cause stay alike.
   */
  compress?: (path: string) => Encoding | undefined;
  /** Change the headers of every answer. */
  tamper?: (headers: http.OutgoingHttpHeaders) => void;
}

export interface SeenRequest {
  method: string;
  /** The request target as it arrived, before the base path is taken off. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** How the answer was encoded, when the front compresses. */
  encoding?: string;
}

export interface Front {
  base: string;
  seen: SeenRequest[];
  refused: number;
  stop(): Promise<void>;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'te', 'trailer'];
export type Encoding = 'gzip' | 'br' | 'deflate' | 'identity';

function compressor(encoding: string): Transform {
  return encoding === 'gzip' ? createGzip() : encoding === 'br' ? createBrotliCompress() : createDeflate();
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function closer(server: http.Server, sockets: Set<Socket>): () => Promise<void> {
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

export async function startFront(options: FrontOptions): Promise<Front> {
  const target = new URL(options.target);
  const seen: SeenRequest[] = [];
  const front: Front = { base: '', seen, refused: 0, stop: async () => undefined };
  // Heads over the API's own bound pass through, so that the deployment behind answers them.
  const serverOptions = { maxHeaderSize: 256 * 1024 };
  const server = options.tls
    ? https.createServer({
        ...serverOptions,
        cert: readFileSync(options.tls.cert),
        key: readFileSync(options.tls.key),
        ...(options.tls.ca ? { ca: readFileSync(options.tls.ca) } : {}),
        requestCert: options.tls.requireClientCert === true,
        rejectUnauthorized: options.tls.requireClientCert === true,
      })
    : http.createServer(serverOptions);
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const record: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
    seen.push(record);
    let path = req.url ?? '/';
    const refuse = (status: number, text: string) => {
      front.refused++;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(text);
    };
    if (options.basePath) {
      if (!path.startsWith(`${options.basePath}/`)) return refuse(404, `not under ${options.basePath}`);
      path = path.slice(options.basePath.length);
    }
    if (options.requireHeader && req.headers[options.requireHeader[0].toLowerCase()] !== options.requireHeader[1]) return refuse(403, 'the gateway wants its header');
    const headers: http.IncomingHttpHeaders = { ...req.headers, host: target.host };
    for (const h of HOP_BY_HOP) delete headers[h];
    const upstream = http.request(`${target.origin}${path}`, { method: req.method, headers, agent: false }, (up) => {
      const out: http.OutgoingHttpHeaders = { ...up.headers };
      for (const h of HOP_BY_HOP) delete out[h];
      options.tamper?.(out);
      const bodiless = req.method === 'HEAD' || up.statusCode === 204 || up.statusCode === 304;
      const encoding = options.compress && !bodiless ? options.compress(path) : undefined;
      record.encoding = encoding;
      if (!encoding) {
        res.writeHead(up.statusCode ?? 502, out);
        up.pipe(res);
        return;
      }
      delete out['content-length'];
      if (encoding === 'identity') {
        // No Content-Length: node sends the body chunked.
        res.writeHead(up.statusCode ?? 502, out);
        up.pipe(res);
        return;
      }
      out['content-encoding'] = encoding;
      const stream = compressor(encoding);
      if (encoding !== 'gzip') {
        res.writeHead(up.statusCode ?? 502, out);
        up.pipe(stream).pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      up.pipe(stream);
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const body = Buffer.concat(chunks);
        res.writeHead(up.statusCode ?? 502, { ...out, 'content-length': body.length });
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const port = await listen(server);
  front.base = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}${options.basePath ?? ''}`;
  front.stop = closer(server, new Set());
  return front;
}

export interface Proxy {
  url: string;
  /** The authorities of the CONNECT tunnels opened. */
  tunnels: string[];
  /** The absolute request targets forwarded (plain http). */
  forwarded: string[];
  stop(): Promise<void>;
}

/** An HTTP proxy: CONNECT tunnels for https, absolute-form forwarding for http. */
export async function startProxy(): Promise<Proxy> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer({ maxHeaderSize: 256 * 1024 }, (req, res) => {
    forwarded.push(req.url ?? '');
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    const upstream = http.request(req.url ?? '', { method: req.method, headers, agent: false }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    sockets.add(client);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, tunnels, forwarded, stop: closer(server, sockets) };
}
