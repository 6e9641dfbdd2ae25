import { connect, type Socket } from 'node:net';

/** Raw HTTP/1.1 over node:net, as a hostile client sends it: what no HTTP client library would send. */

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** Every byte the server sent before it closed the connection. */
  raw: string;
}

/** Writes `parts` (a number is a pause in ms) on a new connection and reads until the server closes it. */
export function exchange(base: string, parts: (string | Buffer | number)[]): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
    const next = (i: number) => {
      if (i >= parts.length || socket.destroyed) return;
      const part = parts[i]!;
      if (typeof part === 'number') setTimeout(() => next(i + 1), part);
      else socket.write(part, () => next(i + 1));
    };
    socket.on('connect', () => next(0));
  });
}

/** The answers in `raw`, one per HTTP message. */
export function answers(raw: string): RawAnswer[] {
  const out: RawAnswer[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    const text = Buffer.from(rest.slice(headEnd + 4), 'latin1').subarray(0, length).toString('utf8');
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: text ? JSON.parse(text) : undefined, raw: rest });
    rest = rest.slice(headEnd + 4 + Buffer.byteLength(text, 'latin1'));
  }
  return out;
}

