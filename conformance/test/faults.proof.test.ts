import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { compress, editJson, startTamperingProxy, type Fault, type Passing, type TamperingProxy } from './support/tamper.js';
import { conform } from './support/run.js';
import { provesOnlyAChoice } from './support/expect-run.js';

/**
 * The runner catches broken deployments. A tampering proxy between the runner and the reference
 * server makes the deployment wrong in one known way at a time (a deployment setting moves a
 * limit for the last three); each time, exactly the cases that prove the broken rule fail and
 * every other selected case passes, whether the run judges by the specification or by the
 * reference's full document: each fault breaks a rule the specification states.
 */

const JUDGEMENTS = ['spec', 'reference'] as const;
type Run = Awaited<ReturnType<typeof conform>>;

let server: ReferenceServer;
let proxy: TamperingProxy;

beforeAll(async () => {
  server = await startReference({ VAULT_CLOCK: 'manual' });
  proxy = await startTamperingProxy(server.base);
});
afterAll(async () => {
  await proxy?.stop();
  await server?.stop();
});

/** Runs the selected cases through the fault, once judged by the specification and once by the reference; `check` asserts each run. */
async function runThrough(fault: Fault, only: string[], check: (run: Run) => void, extra: string[] = []): Promise<void> {
  proxy.fault = fault;
  try {
    // Every fault is in the answer to a whole request; the request-head cases (one waits out the
    // head timeout) would only add time.
    const skip = ['--skip', '*/request-head-over-cap', '--skip', '*/slow-request-head-408'];
    for (const judge of JUDGEMENTS) {
      const run = await conform(['--base-url', proxy.base, '--admin-token', server.adminToken, '--judge', judge, '--spend', '--jobs', '4', '--seed', '7', ...skip, ...only.flatMap((o) => ['--only', o]), ...extra]);
      expect(run.judgement).toBe(judge);
      check(run);
    }
  } finally {
    proxy.fault = {};
  }
}

function whenTo(path: RegExp, method: string, change: (p: Passing) => Passing): Fault {
  return { response: (p) => (p.method === method && path.test(p.path) ? change(p) : p) };
}

function withHeaders(p: Passing, change: Record<string, string | undefined>): Passing {
  const headers = { ...p.headers, ...change };
  for (const [name, value] of Object.entries(change)) if (value === undefined) delete headers[name];
  return { ...p, headers: headers as Record<string, string> };
}

/**
 * Asserts exactly `expected` failed (by id), nothing errored, and every other case passed, or, for
 * one that proves only a choice of the reference judged by the specification, ended `reference`.
 */
function expectOnly(run: Run, expected: string[]): void {
  expect(run.errors, run.output).toEqual([]);
  expect(run.notRun, run.output).toEqual([]);
  expect(run.failed, run.output).toEqual([...expected].sort());
  const neither = run.results.filter((r) => r.state !== 'passed' && r.state !== 'failed' && !(run.judgement === 'spec' && r.state === 'reference' && provesOnlyAChoice(r.id)));
  expect(neither.map((r) => `${r.id}: ${r.state}`), run.output).toEqual([]);
  expect(run.passed.length, 'some selected cases pass, so the fault is told apart from a broken run').toBeGreaterThan(0);
  expect(run.exitCode).toBe(1);
}

describe('the runner against a tampered deployment', () => {
  it('when invalid_api_key comes back as unauthorized, then exactly the unknown- and revoked-key cases fail', async () => {
    const fault: Fault = { response: (p) => (p.status === 401 ? editJson(p, (b) => b.code === 'invalid_api_key' && (b.code = 'unauthorized')) : p) };
    await runThrough(fault, ['*/auth-*'], (run) => {
      expectOnly(run, run.results.map((r) => r.id).filter((id) => /\/auth-(key-unknown|key-revoked|unknown-and-revoked-alike)$/.test(id)));
      expect(run.output).toContain('Expected  401 invalid_api_key');
    });
  }, 240_000);

  it('when a revoked key is told apart from an unknown one by its code, then exactly the revoked-key cases fail', async () => {
    // The proxy learns each key the driver issues and which of them it revokes.
    const issued = new Map<string, string>();
    const revoked = new Set<string>();
    const fault: Fault = {
      request(seen) {
        const m = /^\/_fixtures\/accounts\/[^/]+\/keys\/([^/]+)$/.exec(seen.path);
        const key = m && seen.method === 'DELETE' ? issued.get(decodeURIComponent(m[1]!)) : undefined;
        if (key) revoked.add(key);
      },
      response(p) {
        if (p.method === 'POST' && /^\/_fixtures\/accounts\/[^/]+\/keys$/.test(p.path) && p.status < 300) {
          const { keyId, key } = JSON.parse(p.body.toString('utf8')) as { keyId: string; key: string };
          issued.set(keyId, key);
        }
        const presented = /^Bearer (.+)$/.exec(p.requestHeaders.authorization ?? '')?.[1];
        return p.status === 401 && presented && revoked.has(presented) ? editJson(p, (b) => b.code === 'invalid_api_key' && (b.code = 'unauthorized')) : p;
      },
    };
    await runThrough(fault, ['*/auth-key-*', 'getTokenCatalog/auth-unknown-and-revoked-alike'], (run) => {
      expectOnly(run, run.results.map((r) => r.id).filter((id) => /\/auth-(key-revoked|unknown-and-revoked-alike)$/.test(id)));
      expect(run.passed.some((id) => id.endsWith('/auth-key-unknown'))).toBe(true);
      expect(run.output).toContain('Expected  401 invalid_api_key');
    });
    expect(revoked.size, 'keys the driver revoked').toBeGreaterThan(0);
  }, 240_000);

  it('when a per-URL recipe lookup loses Cache-Control, then the cases that look up fail', async () => {
    const fault = whenTo(/^\/v1\/recipes$/, 'GET', (p) => (p.query.has('url') ? withHeaders(p, { 'cache-control': undefined }) : p));
    // One case at a time: signup-slots contributes recipes, which would change the index between
    // the two reads of unlisted-query-parameters-ignored.
    await runThrough(fault, ['getRecipes/*'], (run) => {
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
    }, ['--jobs', '1']);
  }, 240_000);

  it('when the catalog is answered with Cache-Control lacking no-store, then the cases that read it fail', async () => {
    const fault = whenTo(/^\/v1\/tokens$/, 'GET', (p) => (p.status === 200 ? withHeaders(p, { 'cache-control': 'private, max-age=60' }) : p));
    await runThrough(fault, ['getTokenCatalog/whole-catalog-without-filter', 'getTokenCatalog/tokens-are-stable', 'getTokenCatalog/auth-*'], (run) => {
      expectOnly(run, ['getTokenCatalog/auth-scheme-any-case', 'getTokenCatalog/tokens-are-stable', 'getTokenCatalog/whole-catalog-without-filter']);
      expect(run.output).toMatch(/Expected {2}.*no-store[\s\S]*Received {2}.*private, max-age=60/);
    });
  }, 240_000);

  it('when Retry-After is stripped from the catalog limit, then the catalog limit cases fail', async () => {
    const fault = whenTo(/^\/v1\/tokens$/, 'GET', (p) => (p.status === 429 ? withHeaders(p, { 'retry-after': undefined }) : p));
    await runThrough(fault, ['getTokenCatalog/*'], (run) => {
      expectOnly(run, run.results.map((r) => r.id).filter((id) => /limit|refus|window/.test(id)));
      expect(run.output).toContain('Expected  Retry-After with rate_limited');
    });
  }, 360_000);

  it('when the login-write limit answers Retry-After: 1.5, then the login-write limit cases fail', async () => {
    const fault = whenTo(/^\/v1\/logins\/(requests|username|password)$/, 'POST', (p) =>
      p.status === 429 && p.body.includes('"rate_limited"') ? withHeaders(p, { 'retry-after': '1.5' }) : p,
    );
    await runThrough(fault, ['fileSignupRequest/login-writes-per-minute', 'setLoginUsername/login-writes-window-resets', 'setLoginUsername/recorded-once', 'fileSignupRequest/files-a-pending-request'], (run) => {
      expectOnly(run, ['fileSignupRequest/login-writes-per-minute', 'setLoginUsername/login-writes-window-resets']);
      expect(run.output).toContain('Received  Retry-After: 1.5');
    });
  }, 240_000);

  it('when the recipe budget answers with Retry-After, then the budget cases fail', async () => {
    const fault = whenTo(/^\/v1\/recipes$/, 'POST', (p) => (p.status === 429 ? withHeaders(p, { 'retry-after': '30' }) : p));
    await runThrough(fault, ['submitRecipe/*'], (run) => {
      expectOnly(run, ['submitRecipe/budget-per-account', 'submitRecipe/budget-window-is-rolling']);
      expect(run.output).toContain('Expected  no Retry-After with rate_limited');
    });
  }, 240_000);

  it('when a not-found submission carries an empty error, then the cases that meet it fail', async () => {
    const fault = whenTo(/^\/v1\/recipes\/submissions\//, 'GET', (p) => (p.status === 404 ? editJson(p, (b) => (b.error = '')) : p));
    await runThrough(fault, ['getRecipeSubmission/*'], (run) => {
      expectOnly(run, ['getRecipeSubmission/other-account-not-found', 'getRecipeSubmission/unknown-id-not-found']);
      expect(run.output).toContain('Received  error ""');
    });
  }, 240_000);

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
        return secrets.password ? withHeaders(leaked, { 'x-trace': Buffer.from(secrets.password).toString('base64') }) : leaked;
      },
    };
    const only = ['getTokenCatalog/url-narrows-to-the-page', 'getTokenCatalog/no-stored-secret-returned', 'getTokenCatalog/whole-catalog-without-filter', 'getTokenCatalog/auth-*'];
    await runThrough(fault, only, (run) => {
      expectOnly(run, ['getTokenCatalog/auth-scheme-any-case', 'getTokenCatalog/no-stored-secret-returned', 'getTokenCatalog/url-narrows-to-the-page', 'getTokenCatalog/whole-catalog-without-filter']);
      expect(run.output).toMatch(/Received {2}a (card number in the body \(as stored\)|password in the header x-trace \(base64\))/);
      expect(run.output).not.toContain(secrets.card!);
    });
  }, 240_000);

  it('when a gzip-compressed catalog carries a stored card number, then the cases that read it fail', async () => {
    const secrets: { card?: string } = {};
    let compressed = 0;
    const fault: Fault = {
      request(seen) {
        if (seen.method === 'POST' && /\/_fixtures\/accounts\/[^/]+\/cards$/.test(seen.path)) secrets.card = (JSON.parse(seen.body.toString('utf8')) as { number: string }).number;
      },
      response: (p) => {
        if (p.method !== 'GET' || p.path !== '/v1/tokens' || p.status !== 200 || !secrets.card) return p;
        const out = compress(editJson(p, (b) => (b.debug = `card ${secrets.card}`)), 'gzip');
        if (out.headers['content-encoding'] === 'gzip') compressed += 1;
        return out;
      },
    };
    const only = ['getTokenCatalog/url-narrows-to-the-page', 'getTokenCatalog/no-stored-secret-returned', 'getTokenCatalog/whole-catalog-without-filter', 'getTokenCatalog/auth-*'];
    await runThrough(fault, only, (run) => {
      expectOnly(run, ['getTokenCatalog/auth-scheme-any-case', 'getTokenCatalog/no-stored-secret-returned', 'getTokenCatalog/url-narrows-to-the-page', 'getTokenCatalog/whole-catalog-without-filter']);
      expect(run.output).toContain('Received  a card number in the body (as stored)');
      expect(run.output).not.toContain(secrets.card!);
    });
    // The leak was found in compressed answers, not in plain ones the runner happened to get.
    expect(compressed, 'catalog answers sent gzip-compressed').toBeGreaterThan(0);
  }, 240_000);

  it('when the recipe index breaks its schema, then the cases that read the index fail and the lookups pass', async () => {
    const fault = whenTo(/^\/v1\/recipes$/, 'GET', (p) =>
      p.query.has('url') ? p : editJson(p, (b) => (b.recipes as { status: string }[]).forEach((r) => (r.status = 'excellent'))),
    );
    await runThrough(fault, ['getRecipes/*'], (run) => {
      expectOnly(run, [
        'getRecipes/full-bundle-with-bodies',
        'getRecipes/full-other-than-one-is-the-index',
        'getRecipes/index-without-bodies',
        'getRecipes/lookup-finds-the-registry',
        'getRecipes/read-needs-no-key',
        'getRecipes/unlisted-query-parameters-ignored',
      ]);
      expect(run.output).toContain('Expected  a body valid against the documented schema');
    });
  }, 240_000);

  it('when a used, expired or unknown security-code link opens, then only its cases fail', async () => {
    // Section 4.11: the links are single-use and self-expiring. Refusing with another status (410) conforms; opening does not.
    const fault = whenTo(/^\/v1\/cvv-requests\//, 'GET', (p) =>
      p.status === 404 ? { ...p, status: 200, headers: { ...p.headers, 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from('{}') } : p,
    );
    await runThrough(fault, ['getCvvRequest/*', 'getChallengeRequest/*'], (run) => {
      expectOnly(run, ['getCvvRequest/expires', 'getCvvRequest/single-use', 'getCvvRequest/unknown-token-not-found']);
      expect(run.output).toMatch(/Expected {2}(a refusal \(a 4xx status\)|a body valid against the documented schema)/);
    });
  }, 240_000);

  it('when the failures are listed as known deviations, then they are reported as known and the run passes', async () => {
    const fault = whenTo(/^\/v1\/recipes$/, 'POST', (p) => (p.status === 429 ? withHeaders(p, { 'retry-after': '30' }) : p));
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
    await runThrough(fault, ['getTokenCatalog/*-filter', 'getTokenCatalog/url-*', 'getTokenCatalog/host-*', 'getTokenCatalog/unparseable-*'], (run) => {
      expectOnly(run, ['getTokenCatalog/whole-catalog-without-filter']);
      expect(run.output).toContain('Expected  no relatedLogins without a url filter');
    });
  }, 240_000);
});

describe('the runner against a deployment whose limits are off by one', () => {
  let moved: ReferenceServer;
  beforeAll(async () => {
    moved = await startReference({ VAULT_CLOCK: 'manual', VAULT_LIMITS: 'recipe-submissions-per-account=21,pending-signup-requests=6,login-writes-per-key=21' });
  });
  afterAll(() => moved?.stop());

  /** Runs the selected cases against the moved deployment under each judgement; `check` asserts each run. */
  async function eachJudgement(argv: string[], check: (run: Run) => void): Promise<void> {
    for (const judge of JUDGEMENTS) {
      const run = await conform(['--base-url', moved.base, '--admin-token', moved.adminToken, '--judge', judge, '--spend', '--seed', '8', ...argv]);
      expect(run.judgement).toBe(judge);
      check(run);
    }
  }

  it('when the recipe budget allows one more than the document, then the budget cases fail; told of the setting, they pass', async () => {
    const only = ['--only', 'submitRecipe/budget-*', '--only', 'submitRecipe/accepted-as-pending'];
    await eachJudgement(only, (wrong) => {
      expectOnly(wrong, ['submitRecipe/budget-per-account', 'submitRecipe/budget-window-is-rolling']);
      expect(wrong.output).toContain('Expected  429 rate_limited');
    });
    await eachJudgement([...only, '--limit', 'recipe-submissions-per-account=21'], (told) => {
      expect(told.failed, told.output).toEqual([]);
      expect(told.exitCode).toBe(0);
    });
  }, 240_000);

  it('when the pending ceiling allows a sixth request, then the ceiling case fails and the others pass', async () => {
    await eachJudgement(['--only', 'fileSignupRequest/too-many-pending', '--only', 'fileSignupRequest/files-a-pending-request'], (run) => {
      expectOnly(run, ['fileSignupRequest/too-many-pending']);
      expect(run.output).toContain('Expected  429 too_many_pending');
    });
  }, 240_000);

  it('when login writes allow a 21st in a minute, then the login-write limit cases fail and the others pass', async () => {
    const only = ['--only', 'fileSignupRequest/login-writes-per-minute', '--only', 'setLoginUsername/login-writes-window-resets', '--only', 'setLoginUsername/recorded-once'];
    await eachJudgement(only, (run) => {
      expectOnly(run, ['fileSignupRequest/login-writes-per-minute', 'setLoginUsername/login-writes-window-resets']);
      expect(run.output).toContain('Expected  429 rate_limited');
    });
  }, 240_000);
});
