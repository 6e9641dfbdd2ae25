import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conform } from './support/run.js';

/**
 * Outside the cases that test limits, the runner waits as Retry-After says instead of failing. A
 * small scripted deployment answers the second catalog read with 429 and Retry-After: 1, then 200.
 */

const CATALOG = { cards: [], logins: [], identity: { tokens: { phone: 't1', phone_country: 't2', phone_national: 't3', phone_area: 't4', phone_prefix: 't5', phone_line: 't6' }, missing: [] }, addresses: [] };

describe('a deployment that paces the runner', () => {
  let server: http.Server;
  let base = '';
  const seen: { path: string; at: number }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      // A key it never issued is refused, as section 5 item 3 says (the runner checks its keys so).
      if (path !== '/v1/recipes' && req.headers.authorization !== 'Bearer scripted-key') {
        return send(401, { code: 'invalid_api_key', error: 'Unknown API key.' }, { 'cache-control': 'no-store' });
      }
      seen.push({ path, at: Date.now() });
      if (path === '/v1/recipes') return send(200, { recipes: [] }, { 'cache-control': 'public, max-age=300' });
      const reads = seen.filter((s) => s.path === '/v1/tokens').length;
      if (reads === 2) return send(429, { code: 'rate_limited', error: 'Too many catalog requests.' }, { 'cache-control': 'no-store', 'retry-after': '1' });
      send(200, CATALOG, { 'cache-control': 'no-store' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('when a read is refused with Retry-After, then the runner waits that long, reads again, and the case completes', async () => {
    // The case proves a choice of the reference server, so it ends as matched rather than passed.
    const run = await conform(['--base-url', base, '--key', 'scripted-key', '--only', 'getTokenCatalog/unlisted-query-parameters-ignored']);
    expect(run.matched, run.output).toEqual(['getTokenCatalog/unlisted-query-parameters-ignored']);
    expect(run.failed, run.output).toEqual([]);
    const reads = seen.filter((s) => s.path === '/v1/tokens');
    expect(reads).toHaveLength(4);
    expect(reads[2]!.at - reads[1]!.at).toBeGreaterThanOrEqual(950);
  });
});
