import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { startTamperingProxy, type TamperingProxy } from './support/tamper.js';
import { otherSignature } from './support/variants.js';
import { conform } from './support/run.js';

/**
 * The webhook cases against a deployment that is not on the runner's machine, as far as one test
 * machine can stand for that: the receiver listens where it is told and is announced by a public
 * URL; a receiver the deployment cannot connect to makes the cases not run, never failed; and a
 * deployment that signs in a header and a time format of its own (section 6 item 6) passes,
 * found by search or as declared, and fails when it does not sign as it declares.
 */

const SIGNED = 'deliverAgentCardEvent/test-delivery-arrives-signed';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReference();
});
afterAll(() => server?.stop());

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the receiver where the options put it', () => {
  it('when told a port to listen on, then the cases take their deliveries there', async () => {
    const port = await closedPort();
    const run = await conform(['--only', SIGNED, '--only', 'deliverAgentCardEvent/redirect-counts-as-failed', '--webhook-listen', `127.0.0.1:${port}`, '--seed', '8'], { VAULT_DATA_DIR: server.dataDir });
    expect(run.failed, run.output).toEqual([]);
    expect(run.passed).toHaveLength(2);
  }, 120_000);

  it('when the URL announced leads nowhere, then the delivery log shows why and the cases are not run, under one cause', async () => {
    const nowhere = await closedPort();
    const run = await conform(['--only', SIGNED, '--only', 'deliverAgentCardEvent/redirect-counts-as-failed', '--webhook-url', `http://127.0.0.1:${nowhere}/hooks`, '--seed', '9'], { VAULT_DATA_DIR: server.dataDir });
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.notRun).toHaveLength(2);
    for (const r of run.results) {
      expect(r.reason).toMatch(new RegExp(`^the deployment could not connect to the runner's webhook receiver at http://127\\.0\\.0\\.1:${nowhere}/hooks/r[0-9a-f]+/webhook: .*ECONNREFUSED.*To run it: `));
      expect(r.notRun?.label).toBe("the deployment could not connect to the runner's webhook receiver");
    }
    expect(run.exitCode).toBe(4);
  }, 120_000);

  it('when --webhook-listen is not HOST:PORT, then it is a usage error', async () => {
    await expect(conform(['--only', SIGNED, '--webhook-listen', 'somewhere'], { VAULT_DATA_DIR: server.dataDir })).rejects.toThrow('--webhook-listen needs HOST:PORT');
  });
});

describe('a deployment that signs its own way', () => {
  let proxy: TamperingProxy;
  let variant: ReturnType<typeof otherSignature>;
  beforeAll(async () => {
    variant = otherSignature();
    proxy = await startTamperingProxy(server.base);
    proxy.fault = variant.fault;
  });
  afterAll(async () => {
    await proxy?.stop();
    await variant?.close();
  });

  const against = (extra: string[]) => conform(['--base-url', proxy.base, '--admin-token', server.adminToken, '--judge', 'spec', '--only', SIGNED, '--seed', '10', ...extra]);

  it('when nothing is declared, then the signature is found in its header with t in another, and the case passes', async () => {
    const before = variant.counts.resigned!;
    const run = await against([]);
    expect(run.failed, run.output).toEqual([]);
    expect(run.passed).toEqual([SIGNED]);
    expect(variant.counts.resigned).toBeGreaterThan(before);
    // The reference's own header is a choice of the reference: its absence is a deviation, never a failure.
    expect(run.results[0]!.deviations.map((d) => d.expected)).toEqual([expect.stringContaining('vault-signature')]);
  }, 120_000);

  it('when the header and the format are declared, then the case passes as declared, and fails when the deployment does not sign as declared', async () => {
    const declared = await against(['--webhook-signature-header', 'X-Acme-Signature', '--webhook-timestamp-header', 'X-Acme-Timestamp', '--webhook-timestamp', 'iso-8601']);
    expect(declared.failed, declared.output).toEqual([]);
    expect(declared.passed).toEqual([SIGNED]);
    const wrong = await against(['--webhook-signature-header', 'X-Acme-Signature', '--webhook-timestamp', 'unix-seconds']);
    expect(wrong.failed, wrong.output).toEqual([SIGNED]);
    expect(wrong.output).toContain("an HMAC of t, a period and the raw body under the card's secret in X-Acme-Signature, with t as unix-seconds");
  }, 120_000);
});
