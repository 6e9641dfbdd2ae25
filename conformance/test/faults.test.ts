import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { editJson, startTamperingProxy, type Fault, type Passing } from './support/tamper.js';
import { conform } from './support/run.js';

/**
 * The runner catches broken deployments. A tampering proxy between the runner and the reference
 * server makes the deployment wrong in one known way at a time (a deployment setting moves a
 * limit for the last two); each time, exactly the cases that prove the broken rule fail and every
 * other selected case passes.
 */

let server: ReferenceServer;
let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;

beforeAll(async () => {
  server = await startReference({ VAULT_CLOCK: 'manual' });
  proxy = await startTamperingProxy(server.base);
});
afterAll(async () => {
  await proxy?.stop();
  await server?.stop();
});

async function runThrough(fault: Fault, only: string[]) {
  proxy.fault = fault;
  try {
    // The proxy's own HTTP layer answers an oversized or stalled head itself: those cases test the server, not it.
    const skip = ['--skip', '*/request-head-over-cap', '--skip', '*/slow-request-head-408'];
    return await conform(['--base-url', proxy.base, '--admin-token', server.adminToken, '--spend', '--jobs', '4', '--seed', '7', ...skip, ...only.flatMap((o) => ['--only', o])]);
  } finally {
    proxy.fault = {};
  }
}

function whenTo(path: RegExp, method: string, change: (p: Passing) => Passing): Fault {
  return { response: (p) => (p.method === method && path.test(p.path) ? change(p) : p) };
}

/** Asserts exactly `expected` failed (by id), nothing errored, and every other case passed. */
function expectOnly(run: Awaited<ReturnType<typeof runThrough>>, expected: string[]): void {
  expect(run.errors, run.output).toEqual([]);
  expect(run.notRun, run.output).toEqual([]);
  expect(run.failed, run.output).toEqual([...expected].sort());
  expect(run.passed.length + run.failed.length).toBe(run.results.length);
  expect(run.passed.length, 'some selected cases pass, so the fault is told apart from a broken run').toBeGreaterThan(0);
  expect(run.exitCode).toBe(1);
}

describe('the runner against a tampered deployment', () => {
  it('when invalid_api_key comes back as unauthorized, then exactly the unknown- and revoked-key cases fail', async () => {
    const fault: Fault = { response: (p) => (p.status === 401 ? editJson(p, (b) => b.code === 'invalid_api_key' && (b.code = 'unauthorized')) : p) };
    const run = await runThrough(fault, ['*/auth-*']);
    expectOnly(run, run.results.map((r) => r.id).filter((id) => /\/auth-(key-unknown|key-revoked|unknown-and-revoked-alike)$/.test(id)));
    expect(run.output).toContain('Expected  401 invalid_api_key');
  }, 120_000);

  it('when a per-URL recipe lookup loses Cache-Control, then the cases that look up fail', async () => {
    const fault = whenTo(/^\/v1\/recipes$/, 'GET', (p) => {
      if (!p.query.has('url')) return p;
      const { 'cache-control': _, ...headers } = p.headers;
      return { ...p, headers };
    });
    const run = await runThrough(fault, ['getRecipes/*']);
    expectOnly(run, [
      'getRecipes/full-ignored-with-url',
      'getRecipes/lookup-finds-the-registry',
      'getRecipes/lookup-has-four-slots',
      'getRecipes/platform-slot-follows-the-merchant',
      'getRecipes/registrable-domain-host-covers-subdomains',
      'getRecipes/repeated-url-reads-empty',
      'getRecipes/signup-slots',
      'getRecipes/unparseable-url-four-nulls',
    ]);
    expect(run.output).toContain('Expected  a Cache-Control header');
  }, 120_000);

  it('when Retry-After is stripped from the catalog limit, then the catalog limit cases fail', async () => {
    const fault = whenTo(/^\/v1\/tokens$/, 'GET', (p) => {
      if (p.status !== 429) return p;
      const { 'retry-after': _, ...headers } = p.headers;
      return { ...p, headers };
    });
    const run = await runThrough(fault, ['getTokenCatalog/*']);
    expectOnly(run, run.results.map((r) => r.id).filter((id) => /limit|refus|window/.test(id)));
    expect(run.output).toContain('Expected  Retry-After with rate_limited');
  }, 180_000);

  it('when the recipe budget answers with Retry-After, then the budget cases fail', async () => {
    const fault = whenTo(/^\/v1\/recipes$/, 'POST', (p) => (p.status === 429 ? { ...p, headers: { ...p.headers, 'retry-after': '30' } } : p));
    const run = await runThrough(fault, ['submitRecipe/*']);
    expectOnly(run, ['submitRecipe/budget-per-account', 'submitRecipe/budget-window-is-rolling']);
    expect(run.output).toContain('Expected  no Retry-After with rate_limited');
  }, 120_000);

  it('when a stored card number and an encoded password leak, then the cases that read them fail', async () => {
    const secrets: { card?: string; password?: string } = {};
    const fault: Fault = {
      request(seen) {
        if (seen.method !== 'POST') return;
        const body = JSON.parse(seen.body.toString('utf8') || '{}') as { number?: string; password?: string };
        if (/\/_fixtures\/accounts\/[^/]+\/cards$/.test(seen.path)) secrets.card = body.number;
        if (/\/_fixtures\/accounts\/[^/]+\/logins$/.test(seen.path)) secrets.password = body.password;
      },
      response: (p) => {
        if (p.method !== 'GET' || p.path !== '/v1/tokens' || p.status !== 200) return p;
        const leaked = editJson(p, (b) => secrets.card && (b.debug = `card ${secrets.card}`));
        return secrets.password ? { ...leaked, headers: { ...leaked.headers, 'x-trace': Buffer.from(secrets.password).toString('base64') } } : leaked;
      },
    };
    const run = await runThrough(fault, ['getTokenCatalog/url-narrows-to-the-page', 'getTokenCatalog/no-stored-secret-returned', 'getTokenCatalog/whole-catalog-without-filter', 'getTokenCatalog/auth-*']);
    expectOnly(run, ['getTokenCatalog/auth-scheme-any-case', 'getTokenCatalog/no-stored-secret-returned', 'getTokenCatalog/url-narrows-to-the-page', 'getTokenCatalog/whole-catalog-without-filter']);
    expect(run.output).toMatch(/Received {2}a (card number in the body \(as stored\)|password in the header x-trace \(base64\))/);
    expect(run.output).not.toContain(secrets.card!);
  }, 120_000);

  it('when the recipe index breaks its schema, then the cases that read the index fail and the lookups pass', async () => {
    const fault = whenTo(/^\/v1\/recipes$/, 'GET', (p) =>
      p.query.has('url') ? p : editJson(p, (b) => (b.recipes as { status: string }[]).forEach((r) => (r.status = 'excellent'))),
    );
    const run = await runThrough(fault, ['getRecipes/*']);
    expectOnly(run, [
      'getRecipes/full-bundle-with-bodies',
      'getRecipes/full-other-than-one-is-the-index',
      'getRecipes/index-without-bodies',
      'getRecipes/lookup-finds-the-registry',
      'getRecipes/read-needs-no-key',
      'getRecipes/unlisted-query-parameters-ignored',
    ]);
    expect(run.output).toContain('Expected  a body valid against the documented schema');
  }, 120_000);

  it('when an unknown security-code link answers an undocumented status, then only its cases fail', async () => {
    const fault = whenTo(/^\/v1\/cvv-requests\//, 'GET', (p) => (p.status === 404 ? { ...p, status: 410 } : p));
    const run = await runThrough(fault, ['getCvvRequest/*', 'getChallengeRequest/*']);
    expectOnly(run, ['getCvvRequest/expires', 'getCvvRequest/single-use', 'getCvvRequest/unknown-token-not-found']);
    expect(run.output).toContain('Expected  a status the document gives getCvvRequest: 200, 404');
  }, 120_000);

  it('when the failures are listed as known deviations, then they are reported as known and the run passes', async () => {
    const fault = whenTo(/^\/v1\/recipes$/, 'POST', (p) => (p.status === 429 ? { ...p, headers: { ...p.headers, 'retry-after': '30' } } : p));
    const dir = mkdtempSync(join(tmpdir(), 'conformance-known-'));
    const known = join(dir, 'known.json');
    writeFileSync(known, JSON.stringify({ 'submitRecipe/budget-*': 'this deployment sends Retry-After with the recipe budget' }));
    proxy.fault = fault;
    try {
      const run = await conform(['--base-url', proxy.base, '--admin-token', server.adminToken, '--spend', '--seed', '9', '--only', 'submitRecipe/budget-*', '--only', 'submitRecipe/accepted-as-pending', '--expect-fail', known]);
      expect(run.exitCode, run.output).toBe(0);
      expect(run.output).toMatch(/KNOWN +submitRecipe\/budget-per-account \(known: this deployment sends Retry-After/);
      expect(run.results.filter((r) => r.known).map((r) => r.id).sort()).toEqual(['submitRecipe/budget-per-account', 'submitRecipe/budget-window-is-rolling']);
    } finally {
      proxy.fault = {};
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('when the unfiltered catalog carries relatedLogins, then the case that reads it unfiltered fails', async () => {
    const fault = whenTo(/^\/v1\/tokens$/, 'GET', (p) => (p.status === 200 && !p.query.has('url') && !p.query.has('host') ? editJson(p, (b) => (b.relatedLogins = [])) : p));
    const run = await runThrough(fault, ['getTokenCatalog/*-filter', 'getTokenCatalog/url-*', 'getTokenCatalog/host-*', 'getTokenCatalog/unparseable-*']);
    expectOnly(run, ['getTokenCatalog/whole-catalog-without-filter']);
    expect(run.output).toContain('Expected  no relatedLogins without a url filter');
  }, 120_000);
});

describe('the runner against a deployment whose limits are off by one', () => {
  let moved: ReferenceServer;
  beforeAll(async () => {
    moved = await startReference({ VAULT_CLOCK: 'manual', VAULT_LIMITS: 'recipe-submissions-per-account=21,pending-signup-requests=6,login-writes-per-key=21' });
  });
  afterAll(() => moved?.stop());

  it('when the recipe budget allows one more than the document, then the budget cases fail; told of the setting, they pass', async () => {
    const argv = ['--base-url', moved.base, '--admin-token', moved.adminToken, '--spend', '--seed', '8', '--only', 'submitRecipe/budget-*', '--only', 'submitRecipe/accepted-as-pending'];
    const wrong = await conform(argv);
    expectOnly(wrong, ['submitRecipe/budget-per-account', 'submitRecipe/budget-window-is-rolling']);
    expect(wrong.output).toContain('Expected  429 rate_limited');
    const told = await conform([...argv, '--limit', 'recipe-submissions-per-account=21']);
    expect(told.failed, told.output).toEqual([]);
    expect(told.exitCode).toBe(0);
  }, 120_000);

  it('when the pending ceiling allows a sixth request, then the ceiling case fails and the others pass', async () => {
    const run = await conform(['--base-url', moved.base, '--admin-token', moved.adminToken, '--spend', '--seed', '8', '--only', 'fileSignupRequest/too-many-pending', '--only', 'fileSignupRequest/files-a-pending-request']);
    expectOnly(run, ['fileSignupRequest/too-many-pending']);
    expect(run.output).toContain('Expected  429 too_many_pending');
  }, 120_000);

  it('when login writes allow a 21st in a minute, then the login-write limit cases fail and the others pass', async () => {
    const run = await conform([
      '--base-url', moved.base, '--admin-token', moved.adminToken, '--spend', '--seed', '8',
      '--only', 'fileSignupRequest/login-writes-per-minute', '--only', 'setLoginUsername/login-writes-window-resets', '--only', 'setLoginUsername/recorded-once',
    ]);
    expectOnly(run, ['fileSignupRequest/login-writes-per-minute', 'setLoginUsername/login-writes-window-resets']);
    expect(run.output).toContain('Expected  429 rate_limited');
  }, 120_000);
});
