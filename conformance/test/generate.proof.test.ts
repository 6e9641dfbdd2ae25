import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { editJson, startTamperingProxy, type Fault } from './support/tamper.js';
import { conform } from './support/run.js';

/**
 * Generated inputs (`--generate`): against the reference server, thousands of requests and no
 * false positive; against planted faults, each found within a bounded count.
 */

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReference({ VAULT_CLOCK: 'manual' });
});
afterAll(() => server?.stop());

describe('generated inputs against the reference server', () => {
  it('when 2,000 requests are generated with a fixed seed, then none fails', async () => {
    const run = await conform(['--generate', '2000', '--generate-only', '--seed', '20261123', '--jobs', '4'], { VAULT_DATA_DIR: server.dataDir });
    const generation = run.generation!;
    console.log(`generated ${generation.requests} requests in ${(generation.durationMs / 1000).toFixed(1)} s (${(generation.requests / (generation.durationMs / 1000)).toFixed(0)} a second)`);
    expect(generation.outcomes.filter((o) => o.state !== 'passed').map((o) => `${o.id}: ${o.state} ${o.reason ?? o.failure?.failure.message ?? ''}`), run.output).toEqual([]);
    expect(generation.requests).toBeGreaterThanOrEqual(2000);
    const operations = new Set(generation.outcomes.filter((o) => o.requests > 0).map((o) => o.operationId));
    expect(operations.size, 'operations with generated requests').toBeGreaterThanOrEqual(14);
    expect(run.exitCode).toBe(0);
  }, 300_000);
});

describe('generated inputs against planted faults', () => {
  let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
  beforeAll(async () => {
    proxy = await startTamperingProxy(server.base);
  });
  afterAll(() => proxy?.stop());

  async function find(fault: Fault, only: string[], count = 400) {
    proxy.fault = fault;
    try {
      const run = await conform(['--base-url', proxy.base, '--admin-token', server.adminToken, '--generate', String(count), '--generate-only', '--seed', '42', ...only.flatMap((o) => ['--only', o])]);
      expect(run.exitCode, run.output).toBe(1);
      return { run, failed: run.generation!.outcomes.filter((o) => o.state === 'failed') };
    } finally {
      proxy.fault = {};
    }
  }

  it('when the server accepts a body that breaks a rule, then the generator finds it', async () => {
    const fault: Fault = {
      response: (p) =>
        p.path === '/v1/logins/requests' && p.status === 400 && p.body.includes('"invalid_email"')
          ? { ...p, status: 202, body: Buffer.from(JSON.stringify({ requestId: 'sreq_planted', status: 'pending', expiresAt: 1767700800000 })) }
          : p,
    };
    const { run, failed } = await find(fault, ['fileSignupRequest/generated-one-rule-broken']);
    expect(failed.map((o) => o.id)).toEqual(['fileSignupRequest/generated-one-rule-broken']);
    expect(failed[0]!.failure!.failure.expected).toContain('400 invalid_email');
    expect(run.output).toMatch(/Replay +curl .*\/v1\/logins\/requests/);
  }, 180_000);

  it('when the server answers bad_request where the document names invalid_email, then the generator finds it', async () => {
    const fault: Fault = { response: (p) => (p.status === 400 ? editJson(p, (b) => b.code === 'invalid_email' && (b.code = 'bad_request')) : p) };
    const { failed } = await find(fault, ['fileSignupRequest/generated-one-rule-broken']);
    expect(failed[0]!.failure!.failure.expected).toContain('400 invalid_email');
    expect(failed[0]!.failure!.failure.received).toBe('400 bad_request');
  }, 180_000);

  it('when the server answers 500 to a rare input, then the generator finds it and shrinks it', async () => {
    // Rare: a website with an internationalised label.
    const fault: Fault = {
      response: (p) =>
        p.path === '/v1/logins/requests' && p.status === 202 && p.seen && /"website":"[^"]*[^\x00-\x7f]/.test(p.seen)
          ? { ...p, status: 500, body: Buffer.from(JSON.stringify({ code: 'internal_error', error: 'Internal error.' })) }
          : p,
    };
    const { run, failed } = await find(fault, ['fileSignupRequest/generated-valid']);
    expect(failed.map((o) => o.id)).toEqual(['fileSignupRequest/generated-valid']);
    expect(failed[0]!.failure!.failure.received).toMatch(/^500 /);
    expect(failed[0]!.failure!.shrinks).toBeGreaterThan(0);
    expect(run.output).toContain('the same inputs again: --generate 400 --seed 42');
  }, 180_000);

  it('when a poll leaks a password member, then a generated walk finds it', async () => {
    const fault: Fault = {
      response: (p) => (p.method === 'GET' && p.path.startsWith('/v1/logins/requests/') && p.status === 200 ? editJson(p, (b) => b.status === 'approved' && (b.password = 'Leaked-Password-1')) : p),
    };
    const { failed } = await find(fault, ['fileSignupRequest/generated-sequences'], 600);
    expect(failed.map((o) => o.id)).toEqual(['fileSignupRequest/generated-sequences']);
    expect(failed[0]!.failure!.failure.expected).toContain('no password in a poll');
  }, 240_000);
});
