import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';

/**
 * `--har FILE`: every exchange of a run as HAR 1.2, each entry tagged with its case, so a passing
 * run can be inspected afterwards; the keys, the catalog's tokens and the links' tokens never in it.
 */

const CASES = ['getTokenCatalog/url-narrows-to-the-page', 'decidePurchaseApproval/approve-uses-the-link', 'getTokenCatalog/auth-key-revoked'];

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReference();
  dir = mkdtempSync(join(tmpdir(), 'conformance-har-'));
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Har {
  log: {
    version: string;
    creator: { name: string; version: string };
    entries: {
      startedDateTime: string;
      time: number;
      request: { method: string; url: string; httpVersion: string; cookies: unknown[]; headers: { name: string; value: string }[]; queryString: unknown[]; headersSize: number; bodySize: number; postData?: { mimeType: string; text: string } };
      response: { status: number; statusText: string; httpVersion: string; cookies: unknown[]; headers: unknown[]; content: { size: number; mimeType: string; text?: string }; redirectURL: string; headersSize: number; bodySize: number };
      cache: object;
      timings: { send: number; wait: number; receive: number };
      _caseId?: string;
      _operationId?: string;
      comment?: string;
    }[];
  };
}

let har: Har;
let text: string;
let run: Awaited<ReturnType<typeof conform>>;

describe('the HAR file of a run', () => {
  beforeAll(async () => {
    const file = join(dir, 'run.har');
    run = await conform(['--base-url', server.base, '--admin-token', server.adminToken, '-H', 'X-Tenant: qa-nightly', '--har', file, ...CASES.flatMap((id) => ['--only', id])]);
    text = readFileSync(file, 'utf8');
    har = JSON.parse(text) as Har;
  }, 120_000);

  it('when written, then it is HAR 1.2 with every member the format requires', () => {
    expect(run.exitCode, run.output).toBe(0);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('vault-conformance');
    expect(har.log.entries.length).toBeGreaterThan(10);
    for (const e of har.log.entries) {
      expect(Number.isNaN(Date.parse(e.startedDateTime))).toBe(false);
      expect(e.time).toBeGreaterThanOrEqual(0);
      expect(e.request).toMatchObject({ method: expect.any(String), url: expect.stringMatching(/^http:\/\//), httpVersion: 'HTTP/1.1', cookies: [], headers: expect.any(Array), queryString: expect.any(Array), headersSize: expect.any(Number), bodySize: expect.any(Number) });
      expect(e.response).toMatchObject({ status: expect.any(Number), statusText: expect.any(String), httpVersion: 'HTTP/1.1', cookies: [], headers: expect.any(Array), content: { size: expect.any(Number), mimeType: expect.any(String) }, redirectURL: expect.any(String), headersSize: expect.any(Number), bodySize: expect.any(Number) });
      expect(e.cache).toEqual({});
      expect(e.timings).toMatchObject({ send: expect.any(Number), wait: expect.any(Number), receive: expect.any(Number) });
    }
  });

  it('when read, then every exchange of a case carries its id, the driver\'s included, and the start-up probe says it belongs to none', () => {
    const tagged = new Set(har.log.entries.map((e) => e._caseId).filter(Boolean));
    expect([...tagged].sort()).toEqual([...CASES].sort());
    const first = har.log.entries[0]!;
    expect(first._caseId).toBeUndefined();
    expect(first.request.url).toBe(`${server.base}/v1/recipes`);
    expect(first.comment).toContain('outside any case');
    // The fixtures driver's calls go the run's way, so they are on record with their case.
    expect(har.log.entries.some((e) => e._caseId === 'getTokenCatalog/url-narrows-to-the-page' && e.request.url.includes('/_fixtures/'))).toBe(true);
    // A passing case can be inspected: its catalog read is there, with its operation.
    expect(har.log.entries.some((e) => e._caseId === 'getTokenCatalog/url-narrows-to-the-page' && e._operationId === 'getTokenCatalog' && e.response.status === 200)).toBe(true);
  });

  it('when read, then no key, admin token, catalog token, link token or header value is in it', () => {
    expect(text).not.toContain(server.adminToken);
    expect(text).not.toContain('qa-nightly');
    expect(text).toContain('<admin token>');
    expect(text).toMatch(/<API key[^>]*>/);
    expect(text).toContain('%3Clink%20token%3E');
    const tenant = har.log.entries[0]!.request.headers.find((h) => h.name === 'X-Tenant');
    expect(tenant?.value).toBe('<header X-Tenant>');
    const catalog = har.log.entries.find((e) => e._operationId === 'getTokenCatalog' && e.response.status === 200 && e.response.content.text?.includes('"logins"'))!;
    const body = JSON.parse(catalog.response.content.text!) as { cards: Record<string, unknown>[]; logins: { label: string; tokens: Record<string, string> }[] };
    expect(body.logins.length).toBeGreaterThan(0);
    for (const login of body.logins) {
      expect(login.label).toMatch(/^[a-z0-9]+$/);
      expect(Object.values(login.tokens).every((t) => t === '<token>')).toBe(true);
    }
    for (const card of body.cards) for (const [name, value] of Object.entries(card)) if (typeof value === 'string') expect(value, name).toBe('<token>');
  });
});

/** The HAR 1.2 schema as har-validator checks a file with it (har-schema), URLs by the `uri` format. */
function harValidator() {
  // Both are CommonJS: required, as runner/schemas.ts requires ajv.
  const require = createRequire(import.meta.url);
  const Ajv = require('ajv') as typeof import('ajv').default;
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  const folder = dirname(require.resolve('har-schema/lib/har.json'));
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.json'))) ajv.addSchema(JSON.parse(readFileSync(join(folder, file), 'utf8')));
  return ajv.getSchema('har.json#')!;
}

describe('the HAR file against the HAR schema, with the values the runner stored', () => {
  it('when validated as har-validator does, then every entry is valid, a masked link token included, and no stored value is in clear', () => {
    const validate = harValidator();
    const ok = validate(har);
    expect(validate.errors?.slice(0, 5) ?? [], 'schema errors').toEqual([]);
    expect(ok).toBe(true);
    // A link token in a path is masked with a stand-in a URI may carry.
    const link = har.log.entries.find((e) => e.request.url.includes('/v1/approvals/'))!;
    expect(link.request.url).toMatch(/\/v1\/approvals\/%3Clink%20token%3E/);
    // What the driver stored (a login's password, a card's number) is masked in the requests to the back office.
    const stored = har.log.entries.filter((e) => e.request.method === 'POST' && /\/_fixtures\/accounts\/[^/]+\/(logins|cards)$/.test(e.request.url));
    expect(stored.length).toBeGreaterThan(0);
    for (const e of stored) {
      const body = JSON.parse(e.request.postData!.text) as { password?: string; number?: string };
      if (e.request.url.endsWith('/logins')) expect(body.password).toBe('<password>');
      else expect(body.number).toBe('<card number>');
    }
  });
});
