import { createServer } from 'node:https';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCertificates } from './support/certs.js';
import { conform } from './support/run.js';

/** What a network error means at the start of a run, against a TLS port whose certificate openssl made; the other pipeline options are in pipeline-options.test.ts. */

describe('what a network error means, at the start of a run', () => {
  let dir: string;
  let tlsPort: number;
  let close: () => void;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-hints-'));
    const certs = makeTestCertificates(dir);
    const server = createServer({ cert: readFileSync(certs.cert), key: readFileSync(certs.key) }, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    tlsPort = (server.address() as AddressInfo).port;
    close = () => server.close();
  });
  afterAll(() => {
    close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('when plain http is sent to a TLS port, then the one-line error says to give https://', async () => {
    await expect(conform(['--base-url', `http://127.0.0.1:${tlsPort}`])).rejects.toThrow(/closed the connection without an answer, as a TLS port does to plain HTTP: if it serves HTTPS, give https:\/\/ in --base-url/);
  }, 30_000);
});
