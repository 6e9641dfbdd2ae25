import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, DIRECT, type HttpRequest } from '../runner/http.js';
import { parseAnswer, decodeBody } from '../runner/answer-decoding.js';
import { scripted } from './support/scripted.js';

/**
 * Every legal answer reaches the case as an answer, however little it holds: the transport and the
 * wire decoding never throw on an empty or unusual one, and `json` stays undefined without a body.
 * What a case makes of a missing body is the case's to judge.
 */

/** Each answer by the request target that asks for it; none closes its connection unless it says so. */
const ANSWERS: Record<string, string> = {
  '/no-content-typed': 'HTTP/1.1 204 No Content\r\nContent-Type: application/json\r\n\r\n',
  '/no-content-gzip': 'HTTP/1.1 204 No Content\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n\r\n',
  '/not-modified': 'HTTP/1.1 304 Not Modified\r\nETag: "a"\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n',
  '/early-hints': 'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
  '/unasked-continue': 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
  '/empty-length': 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n',
  '/empty-br': 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: br\r\nContent-Length: 0\r\n\r\n',
  '/empty-chunked': 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  '/no-reason': 'HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n',
  '/not-json': 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{"a":',
  '/head': 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 1234\r\n\r\n',
};

const CLOSING = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n';

describe('an answer with little or nothing in it', () => {
  let target: Awaited<ReturnType<typeof scripted>>;
  let c: Connection;
  beforeAll(async () => {
    target = await scripted((head, socket) => {
      const path = head.split(' ')[1]!;
      if (path === '/empty-until-close') socket.end(CLOSING);
      else if (path === '/switching') socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      else socket.write(ANSWERS[path]!);
    });
    c = new Connection(DIRECT, [target.origin]);
  });
  afterAll(async () => {
    c.close();
    await target.stop();
  });

  const send = (path: string, raw: boolean, method = path === '/head' ? 'HEAD' : 'GET') => {
    const request: HttpRequest = { method, url: `${target.origin}${path}`, headers: {} };
    if (raw) request.raw = Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    return c.send(c.request(request), 5000);
  };

  it.each([...Object.keys(ANSWERS), '/empty-until-close'].flatMap((path) => [[path, false], [path, true]] as const))('when %s is asked (raw: %s), then it is an answer, with no JSON where there is no body', async (path, raw) => {
    const answer = await send(path, raw);
    const hasBody = ['/early-hints', '/unasked-continue', '/not-json'].includes(path);
    expect(answer.status).toBe(path.startsWith('/no-content') ? 204 : path === '/not-modified' ? 304 : 200);
    expect(answer.body.length > 0).toBe(hasBody);
    expect(answer.json).toEqual(path === '/early-hints' || path === '/unasked-continue' ? {} : undefined);
    expect(answer.wire?.undecodable).toBeUndefined();
  });

  it('when a 101 comes to a request that asked for no upgrade, then it is the answer, with no body, parsed or raw', async () => {
    for (const raw of [false, true]) {
      const answer = await send('/switching', raw);
      expect([answer.status, answer.body.length, answer.json]).toEqual([101, 0, undefined]);
    }
  });

  it('when the wire decoding meets an empty body under any coding, a 1xx before the answer, or no body by its status, then it does not throw', () => {
    for (const coding of ['gzip', 'br', 'deflate', 'zstd', 'gzip, br', '']) expect(decodeBody(Buffer.alloc(0), { 'content-encoding': coding }).body.length).toBe(0);
    const hints = Buffer.from(ANSWERS['/early-hints']!);
    expect(parseAnswer(hints, false, 'GET')!.status).toBe(200);
    for (const path of ['/no-content-typed', '/not-modified', '/head']) expect(parseAnswer(Buffer.from(ANSWERS[path]!), false, path === '/head' ? 'HEAD' : 'GET')!.body.length).toBe(0);
  });
});
