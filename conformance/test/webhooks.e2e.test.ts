import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';

/**
 * The webhook cases (section 6) against the reference server as `npm start` runs it, whose demo lets
 * the runner's receiver on 127.0.0.1 take deliveries; and the ways they end `not run`: a deployment
 * that will not deliver to the runner's machine, and a driver without the webhook methods.
 */
const WEBHOOK_CASES = ['--only', 'deliverAgentCardEvent/*'];

describe('the webhook cases against the reference server', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReference();
  });
  afterAll(() => server?.stop());

  it('when its demo takes deliveries on this machine, then every webhook case passes', async () => {
    const run = await conform([...WEBHOOK_CASES, '--seed', '3'], { VAULT_DATA_DIR: server.dataDir });
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.notRun, run.output).toEqual([]);
    expect(run.passed).toEqual([
      'deliverAgentCardEvent/free-plan-cannot-register',
      'deliverAgentCardEvent/redirect-counts-as-failed',
      'deliverAgentCardEvent/slow-receiver-counts-as-failed',
      'deliverAgentCardEvent/test-delivery-arrives-signed',
    ]);
  }, 120_000);

  it('when judged by the specification alone, then the cases pass with no deviation from the reference', async () => {
    const run = await conform([...WEBHOOK_CASES, '--skip', '*/slow-receiver-*', '--judge', 'spec', '--seed', '5'], { VAULT_DATA_DIR: server.dataDir });
    expect(run.judgement).toBe('spec');
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.passed).toHaveLength(3);
    expect(run.results.flatMap((r) => r.deviations ?? []), run.output).toEqual([]);
  }, 120_000);

  it('when the driver has no webhook methods, then the cases are not run, and the run is incomplete', async () => {
    // The example driver reads its token from the environment when it is made.
    process.env.BACK_OFFICE_TOKEN = server.adminToken;
    const run = await conform(
      [...WEBHOOK_CASES, '--base-url', server.base, '--driver', join(ROOT, 'conformance', 'examples', 'driver.mjs'), '--driver-option', `back-office=${server.base}/_fixtures`, '--spend'],
      {},
    ).finally(() => delete process.env.BACK_OFFICE_TOKEN);
    expect(run.notRun).toHaveLength(4);
    // Every webhook case proves a delivery (or its absence), so each needs all three methods.
    expect(new Set(run.results.map((r) => r.reason))).toEqual(new Set(['the driver cannot registerWebhook, sendTestWebhook, webhookDeliveries']));
    expect(run.exitCode).toBe(4);
  }, 60_000);
});

describe('the webhook cases against a deployment that delivers only to public HTTPS', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReference({ VAULT_WEBHOOKS_ALLOW_LOOPBACK: '0' });
  });
  afterAll(() => server?.stop());

  it("when it refuses the runner's receiver, then the cases are not run, never failed", async () => {
    const run = await conform([...WEBHOOK_CASES, '--seed', '4'], { VAULT_DATA_DIR: server.dataDir });
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.notRun).toHaveLength(4);
    for (const r of run.results) {
      expect(r.reason).toMatch(/^the deployment would not register the runner's webhook receiver http:\/\/127\.0\.0\.1:\d+\/r[0-9a-f]+\/webhook on Plus: bad_request: A webhook endpoint must be public: 127\.0\.0\.1 is a loopback address\. To run it: /);
      // One cause, whatever the receiver's port: the summary counts the cases under it together.
      expect(r.notRun?.label).toBe("the deployment would not register the runner's webhook receiver");
    }
    expect(run.output).toMatch(/^ +4 +the deployment would not register the runner's webhook receiver \(for a missing capability\)$/m);
  }, 120_000);
});
