// A small real server on 127.0.0.1, port 0, that honours Idempotency-Key as the project's contract
// says the reference server does, for the client's tests until the reference server's support lands:
// keys scoped to the credential, method and path; the first final answer kept and replayed with
// `Idempotent-Replayed: true` for the same key and body; 422 `idempotency_key_reused` for another body
// or path; 409 `idempotency_key_in_use` with `Retry-After: 1` while the first is still being carried
// out; every answer to a keyed POST echoing the key. Its one write, filing, records what it wrote, so a
// test counts writes; `fail` breaks the connection of a request after the write, on cue.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { reset, startTinyServer, type Seen, type TinyServer } from './tiny-server.js';

export interface IdempotentServer extends TinyServer {
  /** The bodies written, in order: one per write actually carried out. */
  written: unknown[];
  /**
   * What happens to the next requests that carry out the write, in order: `reset` writes and then
   * resets the connection before the answer; `slow` writes, resets the connection at once and keeps
   * the key in use for `inUseMs` before the answer is kept.
   */
  fail: Array<'reset' | 'slow'>;
  /** Answer every POST with this Idempotency-Key instead of the one sent (a cache mixing answers up). */
  echoOverride: string | undefined;
}

interface Kept {
  bodyHash: string;
  path: string;
  answer?: { status: number; body: unknown };
}

export async function startIdempotentServer(options: { inUseMs?: number } = {}): Promise<IdempotentServer> {
  const kept = new Map<string, Kept>();
  let filed = 0;
  // The handler reads the test's settings from the server object it returns.
  let self: IdempotentServer | undefined;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string>) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const server = await startTinyServer((req, res, _i, seen: Seen) => {
    const key = req.headers['idempotency-key'];
    if (req.method !== 'POST' || typeof key !== 'string') return send(res, 400, { code: 'bad_request', error: 'this server takes keyed POSTs only' }, {});
    const echo = { 'idempotency-key': self!.echoOverride ?? key };
    const scope = `${req.headers.authorization ?? ''} POST ${key}`;
    const bodyHash = createHash('sha256').update(seen.body).digest('hex');
    const found = kept.get(scope);
    if (found) {
      if (found.bodyHash !== bodyHash || found.path !== req.url) {
        return send(res, 422, { code: 'idempotency_key_reused', error: 'This Idempotency-Key was used with another request.' }, echo);
      }
      if (!found.answer) return send(res, 409, { code: 'idempotency_key_in_use', error: 'A request with this Idempotency-Key is in progress.' }, { ...echo, 'retry-after': '1' });
      return send(res, found.answer.status, found.answer.body, { ...echo, 'idempotent-replayed': 'true' });
    }
    const entry: Kept = { bodyHash, path: req.url ?? '' };
    kept.set(scope, entry);
    // The write itself: a filing, kept with its answer.
    filed++;
    self!.written.push(JSON.parse(seen.body));
    const answer = { status: 202, body: { requestId: `sreq_${filed}`, status: 'pending', expiresAt: Date.now() + 86_400_000 } };
    const failure = self!.fail.shift();
    if (failure === 'slow') {
      reset(res);
      setTimeout(() => (entry.answer = answer), options.inUseMs ?? 1_500);
      return;
    }
    entry.answer = answer;
    if (failure === 'reset') return reset(res);
    send(res, answer.status, answer.body, echo);
  });
  self = Object.assign(server, { written: [], fail: [], echoOverride: undefined });
  return self;
}
