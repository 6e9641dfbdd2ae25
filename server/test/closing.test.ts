import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { LINGERING } from '../http/closing.js';
import { givenAccount, startServer, type TestServer } from './support.js';

/**
 * Closing in stages (RFC 9112 section 9.6): after an answer that ends the connection, what the
 * client still sends is read and dropped, so that its writes do not meet a reset that would take
 * the answer with it. Raw sockets, so that the client writes when the test says, not when an
 * HTTP client would.
 */

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CAP = 4096;

interface Client {
  socket: Socket;
  /** Everything the server sent, as text. */
  received(): string;
  /** The error the socket met, if any (EPIPE, ECONNRESET). */
  error(): string | undefined;
  closed: Promise<void>;
}

/** A raw connection; half-open, it keeps its side open after the server's FIN, as a client that is slow to notice does. */
async function open(t: TestServer, options: { halfOpen?: boolean } = {}): Promise<Client> {
  const socket = connect({ port: Number(new URL(t.base).port), host: '127.0.0.1', allowHalfOpen: options.halfOpen ?? false });
  let received = '';
  let error: string | undefined;
  socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  await new Promise((r) => socket.once('connect', r));
  return { socket, received: () => received, error: () => error, closed };
}

function head(key: string, framing: string): string {
  return `POST /v1/logins/password HTTP/1.1\r\nHost: vault.test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;
}

const statuses = (raw: string) => [...raw.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));

describe('closing after a refused body', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer();
  });
  afterAll(() => t.close());

  it('when the rest of a body over the cap is sent after the 413, then the client still reads the whole answer', async () => {
    const { key } = await givenAccount(t, { signup: true });
    const body = JSON.stringify({ label: 'shop', pad: 'a'.repeat(CAP) });
    const client = await open(t);
    client.socket.write(head(key, `Content-Length: ${body.length}`));
    // The client reads nothing until it has sent its whole body, as a simple client does: the
    // answer waits in its buffer while the body goes out after the server has answered.
    client.socket.pause();
    await pause(100);
    client.socket.write(body.slice(0, 2_000));
    await pause(100);
    client.socket.write(body.slice(2_000));
    await pause(100);
    client.socket.resume();
    client.socket.end();
    await client.closed;
    expect(client.error()).toBeUndefined();
    expect(statuses(client.received())).toEqual([413]);
    expect(client.received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(client.received()).toMatch(/"code":"bad_request".*larger than 4096 bytes/);
  });

  it('when more chunks and a pipelined request follow a refused chunked body, then they are dropped unread as requests', async () => {
    const { key } = await givenAccount(t, { signup: true });
    const client = await open(t);
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    client.socket.write(head(key, 'Transfer-Encoding: chunked') + chunk(`{"label":"shop","pad":"${'a'.repeat(CAP)}"`));
    await pause(100);
    expect(statuses(client.received())).toEqual([413]);
    for (let i = 0; i < 3; i++) {
      client.socket.write(chunk('b'.repeat(1_000)));
      await pause(20);
    }
    client.socket.write('0\r\n\r\nGET /v1/recipes HTTP/1.1\r\nHost: vault.test\r\n\r\n');
    await pause(100);
    client.socket.end();
    await client.closed;
    expect(client.error()).toBeUndefined();
    expect(statuses(client.received())).toEqual([413]);
    // Not even handled unanswered: a request taken from the lingering bytes would show in the log.
    await pause(50);
    expect(t.logs.filter((l) => l.path === '/v1/recipes')).toEqual([]);
  });

  it('when the client goes on sending past the lingering bound, then the server closes the connection', async () => {
    const { key } = await givenAccount(t, { signup: true });
    const client = await open(t);
    client.socket.write(head(key, `Content-Length: ${10 * LINGERING.bytes}`));
    await pause(100);
    expect(statuses(client.received())).toEqual([413]);
    let sent = 0;
    const block = Buffer.alloc(64 * 1024, 'a');
    while (!client.socket.destroyed && sent < 10 * LINGERING.bytes) {
      sent += block.length;
      if (!client.socket.write(block)) await Promise.race([new Promise((r) => client.socket.once('drain', r)), client.closed]);
    }
    await client.closed;
    expect(sent).toBeLessThan(10 * LINGERING.bytes);
  });

  it('when the client trickles bytes and never closes, then they are dropped until the lingering time is up, and then the connection closes', async () => {
    const { key } = await givenAccount(t, { signup: true });
    const client = await open(t, { halfOpen: true });
    client.socket.write(head(key, `Content-Length: ${CAP + 1}`));
    const started = Date.now();
    await new Promise((r) => client.socket.once('end', r));
    expect(statuses(client.received())).toEqual([413]);
    // A write to a socket the server has closed draws a reset; until then, each byte is read and dropped.
    while (client.error() === undefined && !client.socket.destroyed) {
      client.socket.write('a');
      await pause(100);
    }
    await client.closed;
    expect(client.error()).toMatch(/^(ECONNRESET|EPIPE)$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LINGERING.ms - 100);
    expect(statuses(client.received())).toEqual([413]);
  });
});
