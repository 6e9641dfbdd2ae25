import http from 'node:http';
import https from 'node:https';
import { connect as netConnect } from 'node:net';
import { RunnerError } from './errors.js';

/**
 * One HTTP request exactly as the case wrote it: the runner must be able to send what a generic
 * client would not (a body without Content-Length, a wrong Content-Type, bytes that are not UTF-8),
 * so it speaks node:http directly rather than through fetch.
 */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body chunked (`Transfer-Encoding: chunked`, no `Content-Length`). */
  chunked?: boolean;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  /** Header names in lowercase; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /** The parsed body when it is JSON. */
  json?: unknown;
  durationMs: number;
}

const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 32 }), https: new https.Agent({ keepAlive: true, maxSockets: 32 }) };

export function closeAgents(): void {
  agents.http.destroy();
  agents.https.destroy();
}

export function send(request: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
  const url = new URL(request.url);
  const lib = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { ...request.headers };
  if (request.body && !request.chunked) headers['content-length'] = String(request.body.length);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (kind: RunnerError['kind'], message: string) => {
      if (settled) return;
      settled = true;
      reject(new RunnerError(kind, message));
    };
    const req = lib.request(
      url,
      { method: request.method, headers, agent: url.protocol === 'https:' ? agents.https : agents.http, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => fail('network', `the response to ${request.method} ${url.pathname} broke off: ${e.message}`));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          const out: HttpResponse = {
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
            body,
            text,
            durationMs: performance.now() - started,
          };
          if (text !== '') {
            try {
              out.json = JSON.parse(text);
            } catch {
              // Not JSON: the checks say so where the document promises JSON.
            }
          }
          resolve(out);
        });
      },
    );
    req.on('timeout', () => {
      req.destroy();
      fail('timeout', `no answer to ${request.method} ${url.pathname} within ${timeoutMs} ms`);
    });
    // A server may answer (413) and close before the whole body is written; the answer still counts.
    req.on('error', (e: NodeJS.ErrnoException) => {
      const hint = e.code === 'ECONNREFUSED' ? ` (is the deployment running at ${url.origin}?)` : '';
      fail('network', `${request.method} ${url.pathname} failed: ${e.code ?? e.message}${hint}`);
    });
    if (request.body && request.chunked) {
      // Two chunks, so the body really arrives in pieces.
      const half = Math.floor(request.body.length / 2);
      req.write(request.body.subarray(0, half));
      req.end(request.body.subarray(half));
    } else {
      req.end(request.body);
    }
  });
}

/**
 * Writes raw bytes on a new connection and reads the answer until the server closes it: for what
 * an HTTP client library will not send (a head that never ends, an oversized head). The answer is
 * parsed enough for the checks: status line, headers, and the body by Content-Length.
 */
export function sendRaw(origin: string, raw: Buffer, timeoutMs: number): Promise<HttpResponse> {
  const url = new URL(origin);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) return reject(err);
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      if (split < 0) return reject(new RunnerError('network', `the connection closed without an HTTP answer (${all.length} bytes)`));
      const [statusLine, ...headerLines] = all.subarray(0, split).toString('latin1').split('\r\n');
      const m = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine ?? '');
      if (!m) return reject(new RunnerError('network', `not an HTTP answer: ${JSON.stringify(statusLine)}`));
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(':');
        if (i > 0) {
          const name = line.slice(0, i).trim().toLowerCase();
          headers[name] = headers[name] ? `${headers[name]}, ${line.slice(i + 1).trim()}` : line.slice(i + 1).trim();
        }
      }
      const length = Number(headers['content-length'] ?? NaN);
      const body = all.subarray(split + 4, Number.isFinite(length) ? split + 4 + length : undefined);
      const text = body.toString('utf8');
      const out: HttpResponse = { status: Number(m[1]), statusText: m[2] ?? '', headers, body, text, durationMs: performance.now() - started };
      try {
        if (text !== '') out.json = JSON.parse(text);
      } catch {
        // Not JSON: the checks say so.
      }
      resolve(out);
    };
    const timer = setTimeout(() => finish(new RunnerError('timeout', `no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('connect', () => socket.write(raw));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (e: NodeJS.ErrnoException) => (chunks.length > 0 ? finish() : finish(new RunnerError('network', `raw request failed: ${e.code ?? e.message}`))));
  });
}
