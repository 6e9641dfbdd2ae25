import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { startTamperingProxy, type TamperingProxy } from './support/tamper.js';
import { makeTestCertificates, type TestCertificates } from './support/certs.js';
import { conform } from './support/run.js';
import * as variants from './support/variants.js';
import type { Variant } from './support/variants.js';
import { linkDecisions, ownRecipeFormat } from './support/team-choices.js';
import { OWN_RECIPE_FORMAT } from './support/recipe-format.js';
import { expectDeviations, expectPasses, expectReferenceFails, type Run } from './support/expect-run.js';

/**
 * The runner judges a deployment by the specification: deployments that differ from the
 * reference server only where the specification leaves the choice open all pass. Each variant is
 * a proxy in front of the reference server, and each is shown to be real: judged by the
 * reference's full document, it fails; or, where the document says nothing of what it changes
 * (framing, content coding, base path, TLS), the proxy counted the change in the same run.
 */

let server: ReferenceServer;
let certDir: string;
let certificates: TestCertificates;

beforeAll(async () => {
  server = await startReference({ VAULT_CLOCK: 'manual' });
  certDir = mkdtempSync(join(tmpdir(), 'conformance-certs-'));
  certificates = makeTestCertificates(certDir);
});
afterAll(async () => {
  await server?.stop();
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

/** A broad sample: every operation's common path, the driver's steps, a chunked request body. */
const SAMPLE = [
  'getRecipes/index-without-bodies',
  'getRecipes/lookup-finds-the-registry',
  'getTokenCatalog/url-narrows-to-the-page',
  'getTokenCatalog/auth-header-missing',
  'getTokenCatalog/auth-unknown-and-revoked-alike',
  'submitRecipe/accepted-as-pending',
  'getRecipeSubmission/unknown-id-not-found',
  'fileSignupRequest/files-a-pending-request',
  'getSignupRequest/approved-carries-the-login',
  'setLoginUsername/recorded-once',
  'rotateLoginPassword/not-rotatable',
  'createLogin/gone-whatever-is-sent',
  'decidePurchaseApproval/approve-uses-the-link',
  'getCvvRequest/single-use',
  'getProxyHealth/ok',
  'fileSignupRequest/write-body-cap',
];

/** The answers written on a raw connection: the oversized head (every operation) and the stalled one. */
const RAW_HEADS = ['*/request-head-over-cap'];
const STALLED_HEAD = ['getTokenCatalog/slow-request-head-408'];

/** The catalog's reads, without its rate-limit cases. */
const CATALOG = [
  'getTokenCatalog/*-filter',
  'getTokenCatalog/url-*',
  'getTokenCatalog/host-*',
  'getTokenCatalog/unparseable-*',
  'getTokenCatalog/extra-website-*',
  'getTokenCatalog/scoped-key-*',
  'getTokenCatalog/tokens-are-stable',
  'getTokenCatalog/no-stored-secret-returned',
];

/** Runs the selected cases through a proxy that makes the deployment `variant`; the proxy is stopped after. */
async function through(variant: Variant, judge: 'spec' | 'reference', only: string[], extra: string[] = []): Promise<{ run: Run; proxy: TamperingProxy }> {
  const proxy = await startTamperingProxy(server.base, variant.options);
  proxy.fault = variant.fault;
  try {
    const argv = ['--base-url', proxy.base, '--admin-token', server.adminToken, '--judge', judge, '--spend', '--jobs', '4', '--seed', '19', ...extra];
    return { run: await conform([...argv, ...[...SAMPLE, ...only].flatMap((o) => ['--only', o])]), proxy };
  } finally {
    await proxy.stop();
  }
}

interface Departing {
  make: () => Variant;
  only: string[];
  /** Cases that meet the departure from the reference's choices. */
  departs: string[];
  /** The variant's own count of what it changed, which must be above 0 in the run. */
  counted: string[];
}

const DEPARTING: Departing[] = [
  {
    make: variants.wording,
    only: ['*/auth-key-unknown', 'getSignupRequest/unknown-id-not-found', 'submitRecipe/missing-kind', 'setLoginUsername/invalid-username', '*/unknown-token-not-found', 'getTokenCatalog/window-resets-at-the-next-minute', ...RAW_HEADS],
    departs: ['getRecipeSubmission/unknown-id-not-found', 'createLogin/gone-whatever-is-sent'],
    counted: ['reworded'],
  },
  {
    make: variants.headers,
    only: ['*/unknown-token-not-found', 'getSignupApproval/page-for-a-browser', 'getPurchaseApproval/page-for-a-browser', 'getTokenCatalog/auth-key-revoked'],
    departs: ['getCvvRequest/single-use', 'getPurchaseApproval/unknown-token-not-found'],
    counted: ['reordered'],
  },
  {
    make: variants.cacheControl,
    // Not getRecipes/unlisted-query-parameters-ignored: it reads the index twice, and the sample contributes recipes meanwhile.
    only: ['getRecipes/index-*', 'getRecipes/full-*', 'getRecipes/lookup-*', 'getRecipes/read-needs-no-key', 'getRecipes/unparseable-*', 'getRecipes/repeated-*', '*/auth-header-missing', '*/unknown-token-not-found'],
    // The same directives in another order are the same value; `private` beside `no-store` is one directive more.
    departs: ['getTokenCatalog/auth-header-missing', 'getRecipes/lookup-has-four-slots'],
    counted: ['reordered', 'widened'],
  },
  {
    make: variants.openObjects,
    only: ['*/auth-key-unknown', 'submitRecipe/missing-kind', 'fileSignupRequest/website-not-registrable', 'getSignupRequest/unknown-id-not-found'],
    departs: ['submitRecipe/accepted-as-pending', 'fileSignupRequest/files-a-pending-request'],
    counted: ['errors', 'envelopes'],
  },
  {
    make: variants.laterRetryAfter,
    only: ['getTokenCatalog/window-*', 'fileSignupRequest/login-writes-per-minute', 'setLoginUsername/login-writes-window-resets'],
    departs: ['getTokenCatalog/window-resets-at-the-next-minute'],
    counted: ['lengthened'],
  },
  {
    make: variants.cardTokenNames,
    only: CATALOG,
    departs: ['getTokenCatalog/whole-catalog-without-filter', 'getTokenCatalog/tokens-are-stable'],
    counted: ['cards'],
  },
  {
    make: variants.recipeProblemsAsText,
    only: ['submitRecipe/missing-kind', 'submitRecipe/not-json', 'submitRecipe/platform-kind-names-a-platform', 'submitRecipe/signup-kind-without-prefix', 'submitRecipe/verification-*'],
    departs: ['submitRecipe/missing-kind'],
    counted: ['listed'],
  },
  {
    make: variants.relatedLoginsOtherwise,
    only: CATALOG,
    departs: ['getTokenCatalog/url-narrows-to-the-page'],
    counted: ['lists'],
  },
  {
    make: variants.linksJsonOnly,
    only: [
      'getPurchaseApproval/*',
      'decidePurchaseApproval/approve-*',
      'decidePurchaseApproval/de*',
      'decidePurchaseApproval/amount-*',
      'getSignupApproval/page-for-a-browser',
      'decideSignupApproval/form-from-the-page',
      'getCvvRequest/*',
      'getChallengeRequest/*',
      '*/unknown-token-not-found',
    ],
    departs: ['getSignupApproval/page-for-a-browser', 'decidePurchaseApproval/deny', 'fileSignupRequest/files-a-pending-request'],
    counted: ['renamed', 'asked for a page'],
  },
  // Section 3 leaves open how an approval that cannot complete is shown to the account holder.
  {
    make: () => linkDecisions(204, 409),
    only: ['decideSignupApproval/labels-exhausted-stay-pending', 'decidePurchaseApproval/deny'],
    departs: ['decideSignupApproval/labels-exhausted-stay-pending', 'decidePurchaseApproval/approve-uses-the-link'],
    counted: ['decided', 'blocked'],
  },
  {
    make: () => linkDecisions(201, 202),
    only: ['decideSignupApproval/scoped-list-over-200-full', 'decidePurchaseApproval/deny'],
    departs: ['decideSignupApproval/scoped-list-over-200-full', 'decidePurchaseApproval/approve-uses-the-link'],
    counted: ['decided', 'blocked'],
  },
];

describe('deployments that depart from the reference only where the specification allows', () => {
  for (const trial of DEPARTING) {
    const name = trial.make().name;
    it(`when the deployment differs in ${name}, then judged by the specification it passes with deviations; judged by the reference it fails`, async () => {
      const variant = trial.make();
      const { run } = await through(variant, 'spec', trial.only);
      expectPasses(run);
      for (const what of trial.counted) expect(variant.counts[what] ?? 0, `${what}: ${JSON.stringify(variant.counts)}`).toBeGreaterThan(0);
      expectDeviations(run, trial.departs);
      const { run: strict } = await through(trial.make(), 'reference', trial.only);
      expectReferenceFails(strict, trial.departs);
    }, 300_000);
  }
});

describe('deployments that differ where the reference\'s document says nothing', () => {
  it('when every answer is chunked in several pieces, then judged by the specification it passes', async () => {
    const variant = variants.chunked();
    const { run } = await through(variant, 'spec', [...RAW_HEADS, ...STALLED_HEAD, 'submitRecipe/body-over-cap-refused']);
    expectPasses(run);
    expect(variant.counts['chunked in several pieces'] ?? 0, JSON.stringify(variant.counts)).toBeGreaterThan(0);
  }, 300_000);

  for (const coding of ['gzip', 'br'] as const) {
    it(`when answers are ${coding}-compressed as the request allows, then judged by the specification it passes`, async () => {
      const variant = variants.encoded(coding);
      const { run } = await through(variant, 'spec', [...RAW_HEADS, 'getTokenCatalog/no-stored-secret-returned', 'getRecipes/full-bundle-with-bodies']);
      expectPasses(run);
      expect(variant.counts.compressed ?? 0, `answers ${coding}-compressed: ${JSON.stringify(variant.counts)}`).toBeGreaterThan(0);
    }, 300_000);
  }

  it('when the API and its back office are served under /vault, then judged by the specification it passes', async () => {
    const variant = variants.basePath();
    const { run, proxy } = await through(variant, 'spec', [...RAW_HEADS, ...STALLED_HEAD, 'getPurchaseApproval/page-for-a-browser']);
    expectPasses(run);
    expect(proxy.counts.requests).toBeGreaterThan(0);
    expect(proxy.counts.outside, 'requests that left the base path').toBe(0);
  }, 300_000);

  it('when the deployment is served over HTTPS with a test CA, then judged by the specification it passes, and only when the CA is given', async () => {
    const variant = variants.tls(certificates);
    const { run, proxy } = await through(variant, 'spec', [...RAW_HEADS, ...STALLED_HEAD], ['--ca-cert', certificates.ca]);
    expectPasses(run);
    expect(proxy.counts.requests, 'requests over TLS').toBeGreaterThan(0);
    // Without the CA, the certificate is not trusted: the run cannot pass.
    const untrusted = await through(variants.tls(certificates), 'spec', []).then(
      ({ run }) => run.exitCode,
      (e: Error) => e.message,
    );
    expect(untrusted).not.toBe(0);
  }, 300_000);
});

describe('a registry that reads only a recipe format of its own', () => {
  const DRIVER = fileURLToPath(new URL('./support/another-team-driver.ts', import.meta.url));

  it('when its driver writes samples in that format, then the refusals of a submission are proved on them, the body rules included', async () => {
    // Section 2.2 does not show a recipe's structure: each control is the driver's sample, never the
    // document's example in the reference's format, which this registry refuses.
    const variant = ownRecipeFormat(OWN_RECIPE_FORMAT, false);
    const proxy = await startTamperingProxy(server.base);
    proxy.fault = variant.fault;
    try {
      const only = ['submitRecipe/body-*', 'submitRecipe/not-json', 'submitRecipe/verification-*', 'submitRecipe/wrapper-without-recipe'];
      const run = await conform(['--base-url', proxy.base, '--admin-token', server.adminToken, '--driver', DRIVER, '--judge', 'spec', '--spend', '--seed', '29', ...only.flatMap((o) => ['--only', o])]);
      expectPasses(run);
      expect(run.passed, run.output).toEqual(expect.arrayContaining(['submitRecipe/body-not-utf8', 'submitRecipe/not-json', 'submitRecipe/verification-without-note']));
      expect(variant.counts.translated ?? 0, JSON.stringify(variant.counts)).toBeGreaterThan(0);
    } finally {
      await proxy.stop();
    }
  }, 300_000);
});
