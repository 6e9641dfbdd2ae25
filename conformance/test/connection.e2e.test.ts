import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Connection, DIRECT, type HttpRequest } from '../runner/http.js';
import { replayOf, shellBytes } from '../runner/report/replay.js';
import { scripted } from './support/scripted.js';

/** The replays a report prints, run as written in a shell (and curl): they send what the runner sent. */

function sh(command: string, input?: Buffer): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('sh', ['-c', command], { encoding: 'buffer', timeout: 20_000 }, (_e, stdout, stderr) => resolve({ stdout, stderr: stderr.toString() }));
    if (input) child.stdin!.end(input);
  });
}

describe('replays', () => {
  it('when bytes hold quotes, percent signs, backslashes, a leading dash, CRLF, NUL, invalid UTF-8 and a long run, then the shell writes them back exactly', async () => {
    const bytes = Buffer.concat([Buffer.from("-'%s\\n\"$HOME`x`\r\n\t\0é"), Buffer.from([0xff, 0xfe, 0x80]), Buffer.alloc(5000, 'a'), Buffer.from('-%% end')]);
    const command = shellBytes(bytes);
    expect(command.length).toBeLessThan(200);
    const { stdout } = await sh(command);
    expect(stdout.equals(bytes)).toBe(true);
  });

  it('when a request is replayed with curl, then the server gets the same method, target, headers and body, a body without Content-Type included', async () => {
    const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const c = new Connection({ ...DIRECT, headers: { 'X-Tenant': "o'brien" } }, [origin]);
      const body = Buffer.concat([Buffer.from('{"x":"'), Buffer.alloc(3000, ' '), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
      const requests: HttpRequest[] = [
        c.request({ method: 'PATCH', url: `${origin}/v1/logins/a%2Fb/username?x=[1]&y={2}`, headers: { accept: 'application/json', 'x-empty': '' }, body }),
        c.request({ method: 'POST', url: `${origin}/v1/logins/requests`, headers: { 'content-type': 'text/plain' }, body: Buffer.from('@not-a-file'), chunked: true }),
      ];
      for (const request of requests) {
        await c.send(request, 5000);
        const sent = seen.at(-1)!;
        const { stderr } = await sh(replayOf({ request, response: { status: 200, statusText: 'OK', headers: {}, body: Buffer.alloc(0), text: '', durationMs: 1 } }));
        const replayed = seen.at(-1)!;
        expect(replayed, stderr).not.toBe(sent);
        expect([replayed.method, replayed.url, replayed.body.equals(sent.body)]).toEqual([sent.method, sent.url, true]);
        const compared = (h: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).filter(([k]) => !['user-agent', 'host', 'connection'].includes(k)));
        // curl --compressed names the codings it has in its own words.
        expect({ ...compared(replayed.headers), 'accept-encoding': 'x' }).toEqual({ ...compared(sent.headers), 'accept-encoding': 'x' });
      }
      c.close();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('when a raw head over plain http is replayed, then the printed command writes it on a socket and prints the answer', async () => {
    const target = await scripted((_head, socket) => socket.end('HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}'));
    try {
      const c = new Connection(DIRECT, [target.origin]);
      const head = `GET /v1/tokens HTTP/1.1\r\nHost: ${new URL(target.origin).host}\r\nX-Padding: ${'a'.repeat(16384)}\r\nConnection: close\r\n\r\n`;
      const request = c.request({ method: 'GET', url: `${target.origin}/v1/tokens`, headers: {}, raw: Buffer.from(head) });
      const command = replayOf({ request, response: { status: 431, statusText: '', headers: {}, body: Buffer.alloc(0), text: '', durationMs: 1 } });
      expect(command).toMatch(/ \| node -e /);
      expect(command.length).toBeLessThan(400);
      const { stdout } = await sh(command);
      expect(stdout.toString()).toMatch(/^HTTP\/1\.1 431 /);
      expect(target.heads.at(-1)).toBe(request.raw!.toString('latin1'));
      c.close();
    } finally {
      await new Promise<void>((resolve) => target.server.close(() => resolve()));
    }
  });
});