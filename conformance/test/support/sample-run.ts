import { join } from 'node:path';
import { defineCase, type Case } from '../../runner/case.js';
import { ApiDocument } from '../../runner/document.js';
import { reference, spec } from '../../runner/basis.js';
import type { Exchange } from '../../runner/exchange.js';
import { CaseFailure, RunnerError, type CaseResult } from '../../runner/outcome.js';
import { parseArgs } from '../../runner/options.js';
import { resolveSettings } from '../../runner/settings.js';
import { Secrets } from '../../runner/secrets.js';
import type { CaseDetail } from '../../runner/run.js';
import { contractCoverage } from '../../runner/report/coverage.js';
import { tally } from '../../runner/report/tally.js';
import type { ExitCode, ReportInput } from '../../runner/report/input.js';
import { ROOT } from './processes.js';
import type { RequirementId } from '../../requirements/index.js';

/**
 * A run made by hand, for the reports' tests: one case of each outcome (passed, failed, known,
 * error, not run for a missing capability, not run by choice, stopped), a deviation on a passing
 * case, and a key in the failing request that every report must mask.
 */

export const SECRET_KEY = 'vk_sampleSecretKey0123456789';
export const BASE = 'https://vault.staging.example.com';

function exchange(operationId: string, method: string, path: string, status: number, body: unknown, headers: Record<string, string> = {}): Exchange {
  const text = JSON.stringify(body);
  return {
    operationId,
    request: { method, url: `${BASE}${path}`, headers: { accept: 'application/json', authorization: `Bearer ${SECRET_KEY}` } },
    response: { status, statusText: status === 200 ? 'OK' : 'Unauthorized', headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }, body: Buffer.from(text), text, json: body, durationMs: 4 },
  };
}

export function sampleRun(options: { exitCode?: ExitCode; argv?: string[] } = {}): ReportInput & { byId: Map<string, Case> } {
  const doc = ApiDocument.load(join(ROOT, 'dist', 'openapi.json'));
  const c = (id: string, requirements: [RequirementId, ...RequirementId[]], title: string) => defineCase({ id, title, requirements, needs: {}, costs: {}, run: async () => undefined });
  const cases = [
    c('getTokenCatalog/auth-header-missing', ['auth-missing-or-not-bearer'], 'Refuses a request without a key'),
    c('getTokenCatalog/auth-key-revoked', ['auth-unknown-or-revoked', 'tokens-need-a-key'], 'Refuses a revoked key with invalid_api_key'),
    c('getRecipes/index-without-bodies', ['recipes-index'], 'Lists recipes without their bodies'),
    c('fileSignupRequest/too-many-pending', ['pending-five', 'too-many-pending'], 'Refuses the sixth pending request'),
    c('getSignupRequest/unknown-id-not-found', ['poll-unknown-request'], 'Answers 404 for an unknown request id'),
    c('getTokenCatalog/url-narrows-to-the-page', ['tokens-url-narrows'], 'Narrows the catalog to a page'),
    c('submitRecipe/contribution-public', ['claim-leaves-recipe-live'], 'Publishes a contribution'),
    c('getTokenCatalog/per-key-limit-free', ['catalog-per-key-per-minute'], 'Refuses the 61st catalog read of a minute'),
  ];
  const ok = exchange('getTokenCatalog', 'GET', '/v1/tokens', 401, { code: 'unauthorized', error: 'Unauthorized' });
  const wrong = exchange('getTokenCatalog', 'GET', '/v1/tokens', 401, { code: 'unauthorized', error: 'no key' });
  const recipes = exchange('getRecipes', 'GET', '/v1/recipes', 200, { recipes: [] }, { 'cache-control': 'public, max-age=300' });
  const base = { attempts: { passed: 1, total: 1 }, durationMs: 120, requests: 1, deviations: [], requirements: { held: [], broken: [] } };
  const results: CaseResult[] = [
    { id: 'getTokenCatalog/auth-header-missing', state: 'passed', ...base, observed: ['getTokenCatalog 401 unauthorized'] },
    {
      id: 'getTokenCatalog/auth-key-revoked',
      state: 'failed',
      failure: new CaseFailure('401 with code invalid_api_key', '401 with code unauthorized', { ...spec('auth-unknown-or-revoked'), pointer: '#/paths/~1v1~1tokens/get/responses/401' }, wrong),
      ...base,
      observed: ['getTokenCatalog 401 unauthorized'],
    },
    {
      id: 'getRecipes/index-without-bodies',
      state: 'passed',
      ...base,
      observed: ['getRecipes 200'],
      deviations: [{ expected: 'Cache-Control: public, max-age=300 (the reference\'s order)', received: 'Cache-Control: max-age=300, public', where: { ...reference('section 4.2 names the directives, not their order'), pointer: '#/paths/~1v1~1recipes/get/responses/200/headers/Cache-Control' }, exchange: recipes }],
    },
    { id: 'fileSignupRequest/too-many-pending', state: 'failed', known: 'pending requests are capped at ten here', failure: new CaseFailure('429', '202', spec('pending-five')), ...base, observed: ['fileSignupRequest 202'] },
    { id: 'getSignupRequest/unknown-id-not-found', state: 'error', error: new RunnerError('network', 'GET /v1/logins/requests/x failed: ECONNRESET'), reason: 'GET /v1/logins/requests/x failed: ECONNRESET', ...base, observed: [] },
    { id: 'getTokenCatalog/url-narrows-to-the-page', state: 'not-run', reason: 'needs the account-holder driver', notRun: { kind: 'capability', label: 'needs the account-holder driver' }, ...base, attempts: { passed: 0, total: 0 }, durationMs: 0, requests: 0, observed: [] },
    { id: 'submitRecipe/contribution-public', state: 'not-run', reason: 'creates data the runner cannot remove (a public recipe); run with --spend', notRun: { kind: 'choice', label: 'no --spend' }, ...base, attempts: { passed: 0, total: 0 }, durationMs: 0, requests: 0, observed: [] },
    { id: 'getTokenCatalog/per-key-limit-free', state: 'not-run', reason: 'stopped after 2 failed or errored cases (--max-failures 2)', notRun: { kind: 'stopped', label: '--max-failures 2' }, ...base, attempts: { passed: 0, total: 0 }, durationMs: 0, requests: 0, observed: [] },
  ];
  const details = new Map<string, CaseDetail>([
    ['getTokenCatalog/auth-key-revoked', { steps: ['issued a key and revoked it'], lastExchange: wrong }],
    ['getTokenCatalog/auth-header-missing', { steps: [], lastExchange: ok }],
  ]);
  const settings = resolveSettings(parseArgs(['--base-url', BASE, '--key', SECRET_KEY, '--seed', '7', ...(options.argv ?? [])]), ROOT, {});
  const secrets = new Secrets();
  secrets.add(SECRET_KEY, 'API key given as key');
  const coverage = contractCoverage(doc, cases, results, {});
  return {
    settings,
    doc,
    cases,
    byId: new Map(cases.map((x) => [x.id, x])),
    results,
    details,
    coverage,
    tally: tally(results, { catalogue: cases.length + 4, selectedBy: ['--only'] }),
    exitCode: options.exitCode ?? 1,
    startedAt: new Date('2025-01-02T03:04:05Z'),
    durationMs: 1234,
    manualClock: false,
    secrets,
    version: '1.0.0',
  };
}
