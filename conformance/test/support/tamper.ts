import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A response on its way back to the runner, which a fault may change. */
export interface Passing {
  method: string;
  path: string;
  query: URLSearchParams;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The request's body as it was sent (as far as it had arrived). */
  seen: string;
}

/** What a fault sees of requests, to learn a stored secret from the account holder's side. */
export interface Seen {
  method: string;
  path: string;
  body: Buffer;
}

export interface Fault {
  /** Sees every request (the driver's included) before it is forwarded. */
  request?(seen: Seen): void;
  /** Changes a response; returns it (changed or not). */
  response?(passing: Passing): Passing;
}

/**
 * A tampering HTTP proxy between the runner and a deployment, standing in for a deployment that
 * is wrong in one known way. Requests stream through unchanged (a chunked body stays chunked);
 * responses are read whole, passed through the current fault, and sent on. No fault lives in the
 * server itself.
 */
export async function startTamperingProxy(upstream: string): Promise<{ base: string; fault: Fault; stop(): Promise<void> }> {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const state = { fault: {} as Fault };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', upstream);
    const chunks: Buffer[] = [];
    const headers = { ...req.headers, host: target.host };
    const out = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (up) => {
      const body: Buffer[] = [];
      up.on('data', (c: Buffer) => body.push(c));
      up.on('end', () => {
        let passing: Passing = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          status: up.statusCode ?? 502,
          headers: Object.fromEntries(Object.entries(up.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
          body: Buffer.concat(body),
          seen: Buffer.concat(chunks).toString('utf8'),
        };
        passing = state.fault.response?.(passing) ?? passing;
        const sent: Record<string, string> = { ...passing.headers, 'content-length': String(passing.body.length) };
        delete sent['transfer-encoding'];
        res.writeHead(passing.status, sent);
        res.end(passing.body);
      });
    });
    out.on('error', () => res.destroy());
    req.on('data', (c: Buffer) => {
      chunks.push(c);
      out.write(c);
    });
    req.on('end', () => {
      state.fault.request?.({ method: req.method ?? 'GET', path: url.pathname, body: Buffer.concat(chunks) });
      out.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get fault() {
      return state.fault;
    },
    set fault(f: Fault) {
      state.fault = f;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON body changed by `edit`; other bodies pass unchanged. */
export function editJson(passing: Passing, edit: (body: Record<string, unknown>) => void): Passing {
  try {
    const body = JSON.parse(passing.body.toString('utf8')) as Record<string, unknown>;
    edit(body);
    return { ...passing, body: Buffer.from(JSON.stringify(body)) };
  } catch {
    return passing;
  }
}
