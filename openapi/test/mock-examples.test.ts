import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_PAGE, renderMockExamples, withBlock } from '../../scripts/mock-examples.js';
import { startServer, type TestServer } from '../../server/test/support.js';
import { loadBundle } from './bundle.js';

/**
 * The mock's page's list of its answers (openapi/guides/mock.md, written by scripts/mock-examples.ts) names the HTTP
 * layer's 408 and 431 by the example `Prefer` selects and by the `code` the answer carries, which is
 * the code the reference server sends.
 */


/** The one answer to a request whose headers are over the server's cap. */
function oversizeHeaders(base: string): Promise<{ status: number; code: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET /v1/recipes HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`));
    let raw = '';
    socket.on('data', (c: Buffer) => (raw += c.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
    socket.on('close', () => resolve({ status: Number(raw.split(' ')[1]), code: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).code }));
  });
}

describe("the mock page's answers of the HTTP layer", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('when the mock page is read, then its generated list is fresh and names each answer by example and by code', () => {
    const page = readFileSync(MOCK_PAGE, 'utf8');
    expect(withBlock(page, renderMockExamples(loadBundle()))).toBe(page);
    expect(page).toContain(
      "Every operation also documents the answers of the server's HTTP layer: 408 (example `request_timeout`, code `bad_request`) and 431 (example `headers_too_large`, code `bad_request`).",
    );
  });

  it('when the reference server refuses headers over its cap, then its code is the one the mock page names for 431', async () => {
    expect(await oversizeHeaders(server.base)).toEqual({ status: 431, code: 'bad_request' });
  });
});
