// Answers the document does not describe (an intermediary's HTML page, an unlisted code, a body cut
// mid-way, no server at all) still end in a typed error, and a missing API key fails before any request.
// The reference server never answers these ways, so a tiny real server on port 0 does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CLIENT_ERROR_CODES,
  CLIENT_ERROR_MEANINGS,
  isClientErrorCode,
  isVaultApiError,
  isVaultError,
  SERVICE_ANSWERS,
  VaultApiError,
  VaultConnectionError,
  VaultError,
  VaultSettingsError,
  VaultTimeoutError,
  VaultWebhookError,
  VaultWriteOutcomeUnknownError,
} from '../index.js';
import { apiError, clientFor } from './support/clients.js';
import { startTinyServer, type TinyServer, json, EMPTY_CATALOG } from './support/tiny-server.js';

const servers: TinyServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});
async function tiny(handler: Parameters<typeof startTinyServer>[0]): Promise<TinyServer> {
  const server = await startTinyServer(handler);
  servers.push(server);
  return server;
}
const PROXY_PAGE = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>';

describe('an answer the document does not describe', () => {
  it('when a proxy answers a read with an HTML 502, then it is a VaultApiError with status 502, no code and the page', async () => {
    const server = await tiny((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(PROXY_PAGE);
    });
    const error = await apiError(clientFor(server, 'vk_test').getTokenCatalog());
    expect(error).toBeInstanceOf(VaultError);
    expect(error).toMatchObject({ status: 502, code: null, operationId: 'getTokenCatalog', body: PROXY_PAGE });
    expect(error.error).toContain('text/html');
    expect(server.seen).toHaveLength(1);
  });

  it('when a proxy answers a write with an HTML 502, then it is the same typed error and the write is not repeated', async () => {
    const server = await tiny((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(PROXY_PAGE);
    });
    const error = await apiError(clientFor(server, 'vk_test').fileSignupRequest({ website: 'example.com', email: 'jane@example.com' }));
    expect(error).toMatchObject({ status: 502, code: null, operationId: 'fileSignupRequest' });
    expect(server.seen).toHaveLength(1);
  });

  it('when a JSON error carries a code the operation does not document for that status, then code is null and the body is kept', async () => {
    const server = await tiny((_req, res) => json(res, 400, { code: 'invalid_recipe', error: 'Not this operation.' }));
    const error = await apiError(clientFor(server, 'vk_test').getTokenCatalog());
    expect(error).toMatchObject({ status: 400, code: null });
    expect(error.body).toContain('invalid_recipe');
  });

  it('when a 200 carries an HTML page, then it is a VaultApiError, not a parse failure', async () => {
    const server = await tiny((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>captive portal</html>');
    });
    const error = await apiError(clientFor(server, 'vk_test').getTokenCatalog());
    expect(error).toMatchObject({ status: 200, code: null, body: '<html>captive portal</html>' });
  });

  it('when the connection is reset in the middle of the body, then it is a VaultConnectionError that knows the status', async () => {
    const server = await tiny((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write(JSON.stringify(EMPTY_CATALOG).slice(0, 20));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const error = await clientFor(server, 'vk_test', { retry: false }).getTokenCatalog().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultConnectionError);
    expect(error).toMatchObject({ status: 200, code: null, operationId: 'getTokenCatalog' });
    expect(server.seen).toHaveLength(1);
  });

  it('when nothing listens at the base URL, then it is a VaultConnectionError without a status', async () => {
    const server = await startTinyServer(() => undefined);
    await server.close();
    const error = await clientFor(server, 'vk_test', { retry: false }).getTokenCatalog().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultConnectionError);
    expect(error).toMatchObject({ status: undefined, code: null, sent: false });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });
});

describe('the API key', () => {
  it('when no key is set, then an authenticated call throws VaultSettingsError before any request, and a public one is sent', async () => {
    const server = await tiny((_req, res) => json(res, 200, { recipes: [] }));
    const vault = clientFor(server);
    const error = await vault.getTokenCatalog().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultSettingsError);
    expect(error).toMatchObject({ variable: 'VAULT_API_KEY' });
    expect((error as Error).message).toMatch(/getTokenCatalog needs an API key: set VAULT_API_KEY, or pass apiKey to createVaultClient or to the call/);
    expect(server.seen).toHaveLength(0);
    expect(await vault.getRecipes()).toEqual({ recipes: [] });
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('when the key comes from the environment, a client option and a call option, then the nearest wins and is sent as a Bearer token', async () => {
    const server = await tiny((_req, res) => json(res, 200, EMPTY_CATALOG));
    await clientFor(server, undefined, { env: { VAULT_API_KEY: 'vk_from_env' } }).getTokenCatalog();
    const vault = clientFor(server, 'vk_from_option', { env: { VAULT_API_KEY: 'vk_from_env' } });
    await vault.getTokenCatalog();
    await vault.getTokenCatalog(undefined, { apiKey: 'vk_from_call' });
    expect(server.seen.map((s) => s.headers.authorization)).toEqual(['Bearer vk_from_env', 'Bearer vk_from_option', 'Bearer vk_from_call']);
    await clientFor(server).getTokenCatalog(undefined, { apiKey: 'vk_call_only' });
    expect(server.seen.at(-1)!.headers.authorization).toBe('Bearer vk_call_only');
  });
});

describe('isVaultApiError', () => {
  it('when given an operationId, then it matches only errors of that operation', async () => {
    const server = await tiny((_req, res) => json(res, 429, { code: 'too_many_pending', error: 'Five requests await a decision.' }));
    const error = await apiError(clientFor(server, 'vk_test').fileSignupRequest({ website: 'example.com', email: 'jane@example.com' }));
    expect(isVaultApiError(error, 'fileSignupRequest') && error.code === 'too_many_pending').toBe(true);
    expect(isVaultApiError(error, 'getTokenCatalog')).toBe(false);
    expect(isVaultApiError(new Error('x'))).toBe(false);
    expect(error).toBeInstanceOf(VaultApiError);
  });

  it('when the status is not one the document gives the operation (a proxy 502), then only the forms without an operation match it', async () => {
    const server = await tiny((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>502 Bad Gateway</html>');
    });
    const error = await apiError(clientFor(server, 'vk_test').fileSignupRequest({ website: 'example.com', email: 'jane@example.com' }));
    expect(error).toMatchObject({ status: 502, code: null });
    expect(isVaultApiError(error)).toBe(true);
    expect(isVaultApiError(error, 'fileSignupRequest')).toBe(false);
  });

  it('when the status is documented but the body is not (an HTML 429), then the operation form matches it, with code null', async () => {
    const server = await tiny((_req, res) => {
      res.writeHead(429, { 'content-type': 'text/html' });
      res.end('<html>slow down</html>');
    });
    const error = await apiError(clientFor(server, 'vk_test').fileSignupRequest({ website: 'example.com', email: 'jane@example.com' }));
    expect(isVaultApiError(error, 'fileSignupRequest') && error.status === 429 && error.code === null).toBe(true);
    expect(isVaultApiError(error, 'fileSignupRequest', 429)).toBe(true);
  });
});

describe('the union of the errors the client throws', () => {
  it('when each class is made, then isVaultError matches it, its name is its own, and nothing else matches', () => {
    const cause = new Error('x');
    const api = new VaultApiError({ operationId: 'getRecipes', status: 502, code: null, error: 'a proxy page' });
    const connection = new VaultConnectionError('getRecipes', undefined, cause);
    const errors = [
      api,
      connection,
      new VaultTimeoutError('getRecipes', 1_000, 1),
      new VaultWriteOutcomeUnknownError('submitRecipe', connection, undefined, { idempotencyKey: 'k' }),
      new VaultSettingsError('VAULT_API_URL', 'not a URL'),
      new VaultWebhookError('mismatch', 'no signature matches'),
    ];
    expect(errors.map((e) => (isVaultError(e) ? e.name : 'not'))).toEqual([
      'VaultApiError',
      'VaultConnectionError',
      'VaultTimeoutError',
      'VaultWriteOutcomeUnknownError',
      'VaultSettingsError',
      'VaultWebhookError',
    ]);
    for (const e of errors) expect(e).toBeInstanceOf(VaultError);
    expect(isVaultError(cause)).toBe(false);
    expect(isVaultError({ name: 'VaultApiError' })).toBe(false);
  });

  it('when an answer carries a code of the reference server that the operation does not list, then code is that code and isVaultApiError for the operation does not match it', async () => {
    const server = await tiny((_req, res) => json(res, 409, { code: 'idempotency_key_in_use', error: 'Busy.' }, { 'retry-after': '1' }));
    const error = await apiError(clientFor(server, 'vk_test', { retry: false }).getTokenCatalog());
    expect(error).toMatchObject({ status: 409, code: 'idempotency_key_in_use' });
    expect(isVaultApiError(error)).toBe(true);
    expect(isVaultApiError(error, 'getTokenCatalog')).toBe(false);
    expect(SERVICE_ANSWERS).toEqual({ idempotency_key_in_use: 409, idempotency_key_reused: 422 });
  });

  it('when a write is refused with 503 storage_full, which the document lists for it, then isVaultApiError matches the operation and its 503', async () => {
    const server = await tiny((_req, res) => json(res, 503, { code: 'storage_full', error: 'Full.' }, { 'retry-after': '1' }));
    const error = await apiError(clientFor(server, 'vk_test', { retry: false }).setLoginUsername({ label: 'acme', username: 'shopper.jane' }));
    expect(error).toMatchObject({ status: 503, code: 'storage_full', retryAfter: 1 });
    expect(isVaultApiError(error, 'setLoginUsername', 503)).toBe(true);
  });

  it('when storage_full comes from an operation that does not list it, then it is an undescribed answer, code null', async () => {
    const server = await tiny((_req, res) => json(res, 503, { code: 'storage_full', error: 'Full.' }, { 'retry-after': '1' }));
    expect(await apiError(clientFor(server, 'vk_test', { retry: false }).getSignupRequest({ id: 'sreq_1' }))).toMatchObject({ status: 503, code: null });
  });

  it('when a service code comes with another status than its own, then it is an undescribed answer, code null', async () => {
    const server = await tiny((_req, res) => json(res, 500, { code: 'idempotency_key_in_use', error: 'Busy.' }));
    expect(await apiError(clientFor(server, 'vk_test', { retry: false }).getTokenCatalog())).toMatchObject({ status: 500, code: null });
  });
});

describe('the client and proxy codes of section 7.2', () => {
  const bundle = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'dist', 'openapi.json'), 'utf8'));
  const schema = bundle.components.schemas.ClientErrorCode;

  it('when compared with the document, then the exported list is its ClientErrorCode enum, in order', () => {
    expect([...CLIENT_ERROR_CODES]).toEqual(schema.enum);
    expect(isClientErrorCode('token_not_found')).toBe(true);
    expect(isClientErrorCode('rate_limited')).toBe(false);
  });

  it('when compared with the document, then every meaning exported is the one the document gives for that code', () => {
    const documented: Record<string, string> = schema['x-enumDescriptions'] ?? {};
    expect(Object.keys(CLIENT_ERROR_MEANINGS).sort()).toEqual(Object.keys(documented).sort());
    for (const [code, meaning] of Object.entries(CLIENT_ERROR_MEANINGS)) expect(meaning).toBe(documented[code]!.trim().replace(/\s+/g, ' '));
  });
});
