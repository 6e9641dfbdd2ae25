// What the client sends about itself and what it keeps of each request: a User-Agent naming the
// package and its version, an X-Request-Id per attempt, and on every error the id to quote, which the
// reference server logged under the same id.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { responseOf, USER_AGENT, VaultConnectionError, VaultTimeoutError } from '../index.js';
import { apiError, clientFor } from './support/clients.js';
import { startSandbox, type Sandbox } from './support/sandbox.js';
import { closedAfterEachTest, EMPTY_CATALOG, json } from './support/tiny-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const { tiny, closeAfterTest } = closedAfterEachTest();
async function sandbox(): Promise<Sandbox> {
  const s = await startSandbox();
  closeAfterTest(() => s.close());
  return s;
}

describe('what the client sends', () => {
  it('when any call is sent, then its User-Agent is credential-vault-client/<the package version> and it has a new request id', async () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(USER_AGENT).toBe(`credential-vault-client/${version}`);
    const server = await tiny((_req, res) => json(res, 200, EMPTY_CATALOG));
    const vault = clientFor(server, 'vk_test');
    await vault.getTokenCatalog();
    await vault.getTokenCatalog();
    await vault.getRecipes().catch(() => undefined);
    expect(server.seen.map((s) => s.headers['user-agent'])).toEqual([USER_AGENT, USER_AGENT, USER_AGENT]);
    const ids = server.seen.map((s) => s.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
  });
});

describe('the request id of an error', () => {
  it('when the reference server refuses a call, then the error carries the id the server answered and logged, and shows it', async () => {
    const s = await sandbox();
    const error = await apiError(clientFor(s, 'vk_unknown').getTokenCatalog());
    expect(error.requestId).toMatch(UUID);
    expect(error.message).toBe(`getTokenCatalog: 401 invalid_api_key: ${error.error} (request id ${error.requestId})`);
    expect(s.server.logs.filter((l) => l.requestId === error.requestId)).toEqual([expect.objectContaining({ status: 401, operation: 'getTokenCatalog' })]);
  });

  it('when the answer carries its own X-Request-Id, then that is the one kept', async () => {
    const server = await tiny((_req, res) => json(res, 404, { code: 'not_found', error: 'No such submission.' }, { 'x-request-id': 'edge-7f3a' }));
    const error = await apiError(clientFor(server, 'vk_test').getRecipeSubmission({ id: 'sub_1' }));
    expect(error.requestId).toBe('edge-7f3a');
    expect(error.message).toContain('(request id edge-7f3a)');
  });

  it('when an intermediary answers without an id, then the error carries the id the client sent', async () => {
    const server = await tiny((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>502 Bad Gateway</html>');
    });
    const error = await apiError(clientFor(server, 'vk_test').getTokenCatalog());
    expect(error.requestId).toBe(server.seen[0]!.headers['x-request-id']);
  });

  it('when no answer comes, or none in time, then the connection or timeout error carries the id of the last attempt', async () => {
    const cut = await tiny((_req, res) => res.socket?.destroy());
    const connection = await clientFor(cut, 'vk_test', { retry: { baseDelayMs: 10 } }).getTokenCatalog().catch((e: unknown) => e);
    expect(connection).toBeInstanceOf(VaultConnectionError);
    expect(cut.seen).toHaveLength(3);
    expect(connection).toMatchObject({ requestId: cut.seen[2]!.headers['x-request-id'] });
    expect((connection as Error).message).toContain(`(request id ${cut.seen[2]!.headers['x-request-id']})`);

    const hanging = await tiny(() => undefined);
    const timeout = await clientFor(hanging, 'vk_test', { requestTimeoutMs: 200 }).getTokenCatalog().catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(VaultTimeoutError);
    expect(timeout).toMatchObject({ requestId: hanging.seen[0]!.headers['x-request-id'] });
  });
});

describe('the request id of a success', () => {
  it('when the reference server answers a call, then responseOf(result) gives the id it answered and logged, without a middleware', async () => {
    const s = await sandbox();
    const { key } = await s.holder.account({ signup: true });
    const vault = clientFor(s, key);
    const catalog = await vault.getTokenCatalog();
    const read = responseOf(catalog)!;
    expect(read).toEqual({ operationId: 'getTokenCatalog', status: 200, requestId: expect.stringMatching(UUID), attempts: 1, idempotencyKey: undefined, replayed: false });
    expect(s.server.logs.filter((l) => l.requestId === read.requestId)).toEqual([expect.objectContaining({ status: 200, operation: 'getTokenCatalog' })]);
    const filed = await vault.fileSignupRequest({ website: 'example.com', email: 'jane@example.com' });
    expect(responseOf(filed)).toMatchObject({ operationId: 'fileSignupRequest', status: 202, attempts: 1, idempotencyKey: expect.stringMatching(UUID), replayed: false });
    // The body itself is the document's, untouched.
    expect(Object.keys(filed).sort()).toEqual(['expiresAt', 'requestId', 'status']);
    expect(responseOf({ ...catalog })).toBeUndefined();
  });
});
