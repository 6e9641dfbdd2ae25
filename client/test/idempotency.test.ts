// Idempotent writes against a real server on 127.0.0.1 that honours Idempotency-Key (the project's
// contract, support/idempotent-server.ts): every write carries a key, every attempt of it the same
// one; a write cut off after it was carried out is sent again with that key once the deployment is
// known to honour keys, and written once; until then it is write_outcome_unknown with its key, which
// the caller sends again.
import { describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  isVaultApiError,
  responseOf,
  VaultApiError,
  VaultConnectionError,
  VaultSettingsError,
  VaultWriteOutcomeUnknownError,
  type RetryEvent,
} from '../index.js';
import { clientFor } from './support/clients.js';
import { startIdempotentServer, type IdempotentServer } from './support/idempotent-server.js';
import { closedAfterEachTest, EMPTY_CATALOG, json } from './support/tiny-server.js';

const { tiny, closeAfterTest } = closedAfterEachTest();
const quick = { baseDelayMs: 20, maxDelayMs: 40, retryAfterJitterMs: 0 };
const filing = (website: string) => ({ website, email: 'jane@example.com' });

async function honouring(options: { inUseMs?: number } = {}): Promise<IdempotentServer> {
  const server = await startIdempotentServer(options);
  closeAfterTest(() => server.close());
  return server;
}
const keyOf = (server: IdempotentServer, i: number) => server.seen[i]!.headers['idempotency-key'];

describe('the key a write carries', () => {
  it('when writes are sent, then each carries a new key, every attempt of one write the same, and a read none', async () => {
    const server = await tiny((_req, res, i) =>
      _req.method === 'GET' ? json(res, 200, EMPTY_CATALOG) : i === 0 ? json(res, 429, { code: 'rate_limited', error: 'Slow down.' }, { 'retry-after': '1' }) : json(res, 202, { requestId: `sreq_${i}`, status: 'pending', expiresAt: 1 }),
    );
    const vault = clientFor(server, 'vk_test', { retry: quick });
    await vault.fileSignupRequest(filing('example.com'));
    await vault.fileSignupRequest(filing('example.org'));
    await vault.getTokenCatalog();
    const keys = server.seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[3]).toBeUndefined();
    expect(IDEMPOTENCY_KEY_HEADER).toBe('Idempotency-Key');
  });

  it("when a caller gives its own key, then it is sent; a call's headers do not replace it; one the server would refuse is refused before any request", async () => {
    const server = await honouring();
    const vault = clientFor(server, 'vk_test');
    await vault.fileSignupRequest(filing('example.com'), { idempotencyKey: 'order-7781/filing', headers: { 'Idempotency-Key': 'from-headers' } });
    expect(keyOf(server, 0)).toBe('order-7781/filing');
    for (const bad of ['', 'with space', 'x'.repeat(256), 'é']) {
      const error = await vault.fileSignupRequest(filing('example.com'), { idempotencyKey: bad }).catch((e: unknown) => e);
      expect(error, JSON.stringify(bad)).toBeInstanceOf(VaultSettingsError);
      expect(error).toMatchObject({ variable: 'idempotencyKey' });
    }
    expect(server.seen).toHaveLength(1);
  });
});

describe('a write that got no answer, to a deployment that honours keys', () => {
  it('when the deployment echoed a key before and a write is cut off after it was written, then it is sent again with the same key and written once', async () => {
    const server = await honouring();
    const retries: RetryEvent[] = [];
    const vault = clientFor(server, 'vk_test', { retry: quick, onRetry: (e) => retries.push(e) });
    const first = await vault.fileSignupRequest(filing('example.com'));
    expect(responseOf(first)).toMatchObject({ status: 202, replayed: false, attempts: 1, idempotencyKey: keyOf(server, 0) });

    server.fail.push('reset');
    const filed = await vault.fileSignupRequest(filing('example.org'));
    expect(server.written).toEqual([filing('example.com'), filing('example.org')]);
    expect(server.seen).toHaveLength(3);
    expect(keyOf(server, 2)).toBe(keyOf(server, 1));
    expect(retries).toHaveLength(1);
    expect(retries[0]!.reason).toBeInstanceOf(VaultConnectionError);
    expect(retries[0]!.reason).toMatchObject({ sent: true });
    // The answer is the one the first attempt's write made, replayed.
    expect(filed).toEqual({ requestId: 'sreq_2', status: 'pending', expiresAt: expect.any(Number) });
    expect(responseOf(filed)).toMatchObject({ status: 202, replayed: true, attempts: 2, idempotencyKey: keyOf(server, 1) });
  });

  it('when idempotentWrites is set, then a fresh client sends a cut-off write again at once, and it is written once', async () => {
    const server = await honouring();
    server.fail.push('reset');
    const filed = await clientFor(server, 'vk_test', { retry: quick, idempotentWrites: true }).fileSignupRequest(filing('example.com'));
    expect(filed).toMatchObject({ requestId: 'sreq_1', status: 'pending' });
    expect(server.written).toHaveLength(1);
    expect(server.seen.map((s) => s.headers['idempotency-key'])).toEqual([keyOf(server, 0), keyOf(server, 0)]);
  });

  it('when the first attempt is still being carried out, then 409 idempotency_key_in_use is waited out after Retry-After and the first answer comes back', async () => {
    // In use for longer than the first retry's backoff, and less than its Retry-After.
    const server = await honouring({ inUseMs: 600 });
    server.fail.push('slow');
    const retries: RetryEvent[] = [];
    const filed = await clientFor(server, 'vk_test', { retry: quick, idempotentWrites: true, onRetry: (e) => retries.push(e) }).fileSignupRequest(filing('example.com'));
    expect(filed).toMatchObject({ requestId: 'sreq_1' });
    expect(server.written).toHaveLength(1);
    expect(retries.map((r) => [r.reason.constructor, r.reason.code])).toEqual([
      [VaultConnectionError, null],
      [VaultApiError, 'idempotency_key_in_use'],
    ]);
    // Retry-After: 1, jitter off.
    expect(retries[1]!.waitMs).toBe(1_000);
    expect(new Set(server.seen.map((s) => s.headers['idempotency-key'])).size).toBe(1);
  });

  it('when idempotentWrites is false, then a write is not sent again even after the deployment echoed keys', async () => {
    const server = await honouring();
    const vault = clientFor(server, 'vk_test', { retry: quick, idempotentWrites: false });
    await vault.fileSignupRequest(filing('example.com'));
    server.fail.push('reset');
    await expect(vault.fileSignupRequest(filing('example.org'))).rejects.toBeInstanceOf(VaultWriteOutcomeUnknownError);
    expect(server.seen).toHaveLength(2);
  });

  it('when no attempt gets a final answer, then it ends write_outcome_unknown, saying how often it was sent and with which key', async () => {
    const server = await honouring({ inUseMs: 5_000 });
    server.fail.push('slow');
    const vault = clientFor(server, 'vk_test', { retry: { ...quick, maxRetries: 1 }, idempotentWrites: true });
    // The first attempt is cut off, the second refused as in use (a 409 is not a final answer), and the retries end there.
    const error = await vault.fileSignupRequest(filing('example.com'), { idempotencyKey: 'k-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultWriteOutcomeUnknownError);
    expect(error).toMatchObject({ idempotencyKey: 'k-1', attempts: 2 });
    expect((error as Error).message).toContain('it was sent 2 times with Idempotency-Key k-1 and no attempt got a final answer');
  });
});

describe('a write that got no answer, to a deployment not known to honour keys', () => {
  it('when a write is cut off, then it is write_outcome_unknown with its key; sent again with that key, it is answered as it was first and written once', async () => {
    const server = await honouring();
    server.fail.push('reset');
    const vault = clientFor(server, 'vk_test', { retry: quick });
    const error = await vault.fileSignupRequest(filing('example.com')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultWriteOutcomeUnknownError);
    const { idempotencyKey } = error as VaultWriteOutcomeUnknownError;
    expect(idempotencyKey).toBe(keyOf(server, 0));
    expect(server.seen).toHaveLength(1);

    // The recovery the client guide gives (openapi/guides/client.md): the same write, with the key of the error.
    const filed = await vault.fileSignupRequest(filing('example.com'), { idempotencyKey });
    expect(filed).toMatchObject({ requestId: 'sreq_1', status: 'pending' });
    expect(responseOf(filed)).toMatchObject({ replayed: true, idempotencyKey });
    expect(server.written).toEqual([filing('example.com')]);
  });

  it('when a key is sent again with another body, then it is 422 idempotency_key_reused, a code every write that takes a key lists', async () => {
    const server = await honouring();
    const vault = clientFor(server, 'vk_test', { retry: quick });
    await vault.fileSignupRequest(filing('example.com'), { idempotencyKey: 'k-2' });
    const error = await vault.fileSignupRequest(filing('example.org'), { idempotencyKey: 'k-2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultApiError);
    expect(error).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(isVaultApiError(error, 'fileSignupRequest', 422)).toBe(true);
    expect(server.written).toHaveLength(1);
  });
});

describe('an answer that is not this write’s', () => {
  it('when the answer echoes another key, then the call never resolves with it: the write is write_outcome_unknown', async () => {
    const server = await honouring();
    server.echoOverride = 'someone-elses-key';
    const error = await clientFor(server, 'vk_test', { retry: quick })
      .fileSignupRequest(filing('example.com'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultWriteOutcomeUnknownError);
    expect((error as VaultWriteOutcomeUnknownError).cause).toBeInstanceOf(VaultApiError);
    expect((error as Error).message).toContain('carries the Idempotency-Key "someone-elses-key", not this write\'s');
  });
});
