import type { Socket } from 'node:net';
import { late, overCap, Received } from './bounds.js';
import { RunnerError } from './errors.js';
import { parseAnswer, type RawAnswer } from './answer-decoding.js';

/**
 * Raw requests: bytes written as they are on a connection of their own, for what no client
 * library sends (a head over the size bound, a head that never ends), and their answers read by
 * their framing. A raw request is never sent again: as far as anyone knows, it is a write.
 */

export function connected(socket: Socket, event: 'connect' | 'secureConnect'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once(event, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Writes `raw` on the connection `open` makes (handing its socket to `opened` at once, to be
 * closed if the exchange ends first) and reads the answer as its framing says (chunks,
 * Content-Length, or until the server closes), so a server that keeps the connection open is not
 * waited out. It ends within `timeoutMs`, with at most the cap read. `failed` words a socket's error.
 */
export function exchangeRaw(
  what: string,
  method: string,
  raw: Buffer,
  timeoutMs: number,
  open: (opened: (s: Socket) => void) => Promise<Socket>,
  failed: (e: NodeJS.ErrnoException) => string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const received = new Received();
    const sockets: Socket[] = [];
    let done = false;
    const finish = (outcome: RunnerError | RawAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      for (const s of sockets) s.destroy();
      if (outcome instanceof RunnerError) reject(outcome);
      else resolve(outcome);
    };
    const read = (ended: boolean) => {
      try {
        const parsed = parseAnswer(received.bytes(), ended, method);
        if (parsed) finish(parsed);
      } catch (e) {
        finish(e instanceof RunnerError ? e : new RunnerError('network', `the answer to ${what} could not be read: ${(e as Error).message}`));
      }
    };
    const fail = (e: NodeJS.ErrnoException) => finish(e instanceof RunnerError ? e : new RunnerError('network', failed(e)));
    const timer = setTimeout(() => finish(late(what, timeoutMs, received.length > 0 ? received.length : undefined)), timeoutMs);
    const opened = (s: Socket) => {
      sockets.push(s);
      if (done) s.destroy();
    };
    open(opened).then((s) => {
      if (done) return;
      s.on('data', (c: Buffer) => {
        if (!received.add(c)) finish(overCap(`the answer to ${what}`));
        else read(false);
      });
      s.on('end', () => read(true));
      s.on('close', () => read(true));
      // A server may answer a head over its bound and reset the connection while the rest is written.
      s.on('error', (e: NodeJS.ErrnoException) => (received.length > 0 ? read(true) : fail(e)));
      s.write(raw);
    }, fail);
  });
}

/**
 * The raw head with `added` headers after its request line, each unless the head has it, and
 * through an http proxy the whole URL in the request line, as a parsed request would have.
 */
export function rawHead(raw: Buffer, url: URL, added: [string, string][], proxy: URL | undefined): Buffer {
  const lineEnd = raw.indexOf('\r\n');
  if (lineEnd < 0) return raw;
  const headEnd = raw.indexOf('\r\n\r\n');
  const fields = raw.subarray(lineEnd + 2, headEnd < 0 ? raw.length : headEnd).toString('latin1').split('\r\n');
  const present = new Set(fields.map((f) => f.split(':')[0]!.trim().toLowerCase()));
  const lines: string[] = [];
  for (const [name, value] of added) {
    if (present.has(name.toLowerCase())) continue;
    present.add(name.toLowerCase());
    lines.push(`${name}: ${value}\r\n`);
  }
  let requestLine = raw.subarray(0, lineEnd).toString('latin1');
  if (proxy && url.protocol === 'http:') requestLine = requestLine.replace(/^(\S+) (\/\S*)/, (_m, method: string, target: string) => `${method} ${url.origin}${target}`);
  return Buffer.concat([Buffer.from(`${requestLine}\r\n${lines.join('')}`, 'latin1'), raw.subarray(lineEnd + 2)]);
}
