// Idempotent writes end to end against the reference server (support/sandbox.ts): the client talks to
// it through a relay that resets the connection once the server has carried the write out and begun
// to answer, so the only way the write is not made twice is the key the client sends again.
import { describe, expect, it } from 'vitest';
import { responseOf, VaultConnectionError, VaultWriteOutcomeUnknownError, type RetryEvent } from '../index.js';
import { clientFor } from './support/clients.js';
import { startCuttingProxy, type CuttingProxy } from './support/cutting-proxy.js';
import { startSandbox, type Sandbox } from './support/sandbox.js';
import { closedAfterEachTest } from './support/tiny-server.js';

const { closeAfterTest } = closedAfterEachTest();
const quick = { baseDelayMs: 20, maxDelayMs: 40, retryAfterJitterMs: 0 };
const filing = (website: string) => ({ website, email: 'jane@example.com' });

async function reference(): Promise<{ sandbox: Sandbox; proxy: CuttingProxy; accountId: string; key: string }> {
  const sandbox = await startSandbox();
  closeAfterTest(() => sandbox.close());
  const proxy = await startCuttingProxy(sandbox.base);
  closeAfterTest(() => proxy.close());
  const { accountId, key } = await sandbox.holder.account({ signup: true });
  return { sandbox, proxy, accountId, key };
}

/** The signup requests the server filed for the account: one signup link each. */
async function filed(sandbox: Sandbox, accountId: string): Promise<string[]> {
  return (await sandbox.holder.links(accountId)).filter((l) => l.kind === 'signup').map((l) => l.requestId!);
}

/** The answers the server sent to fileSignupRequest, in order, from its request log. */
const fileAnswers = (sandbox: Sandbox) => sandbox.server.logs.filter((l) => l.operation === 'fileSignupRequest').map((l) => l.status);

describe('fileSignupRequest cut off after the reference server filed it', () => {
  it('when the deployment echoed a key before, then the client sends the write again with its key and it is filed once', async () => {
    const { sandbox, proxy, accountId, key } = await reference();
    const retries: RetryEvent[] = [];
    const vault = clientFor(proxy, key, { retry: quick, onRetry: (e) => retries.push(e) });
    const first = await vault.fileSignupRequest(filing('example.com'));
    expect(responseOf(first)).toMatchObject({ status: 202, replayed: false, attempts: 1 });

    proxy.cuts = 1;
    const second = await vault.fileSignupRequest(filing('example.org'));
    expect(proxy.cut).toBe(1);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.reason).toBeInstanceOf(VaultConnectionError);
    expect(retries[0]!.reason).toMatchObject({ sent: true });
    // The answer of the attempt that was cut off, replayed by the server.
    expect(responseOf(second)).toMatchObject({ status: 202, replayed: true, attempts: 2 });
    expect(responseOf(second)!.idempotencyKey).not.toBe(responseOf(first)!.idempotencyKey);
    expect(fileAnswers(sandbox)).toEqual([202, 202, 202]);
    expect(await filed(sandbox, accountId)).toEqual(expect.arrayContaining([first.requestId, second.requestId]));
    expect(await filed(sandbox, accountId)).toHaveLength(2);
    expect(await vault.getSignupRequest({ id: second.requestId })).toMatchObject({ status: 'pending' });
  });

  it('when idempotentWrites is set, then a fresh client sends the cut-off write again at once and it is filed once', async () => {
    const { sandbox, proxy, accountId, key } = await reference();
    proxy.cuts = 1;
    const answer = await clientFor(proxy, key, { retry: quick, idempotentWrites: true }).fileSignupRequest(filing('example.com'));
    expect(proxy.cut).toBe(1);
    expect(responseOf(answer)).toMatchObject({ status: 202, replayed: true, attempts: 2 });
    expect(await filed(sandbox, accountId)).toEqual([answer.requestId]);
  });

  it('when the deployment is not yet known to honour keys, then the cut-off write is write_outcome_unknown; sent again with its key, it is answered as first filed', async () => {
    const { sandbox, proxy, accountId, key } = await reference();
    const vault = clientFor(proxy, key, { retry: quick });
    proxy.cuts = 1;
    const error = await vault.fileSignupRequest(filing('example.com')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultWriteOutcomeUnknownError);
    const { idempotencyKey } = error as VaultWriteOutcomeUnknownError;
    const [requestId] = await filed(sandbox, accountId);
    expect(requestId).toBeDefined();

    const again = await vault.fileSignupRequest(filing('example.com'), { idempotencyKey });
    expect(again.requestId).toBe(requestId);
    expect(responseOf(again)).toMatchObject({ replayed: true, idempotencyKey });
    expect(await filed(sandbox, accountId)).toEqual([requestId]);
  });
});
