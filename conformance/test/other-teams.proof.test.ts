import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { startTamperingProxy, type ProxyCounts, type TamperingProxy } from './support/tamper.js';
import { conform } from './support/run.js';
import { anotherTeam, thirdTeam } from './support/teams.js';
import type { Variant } from './support/variants.js';
import { expectDeviations, expectPasses, expectReferenceFails, type Run } from './support/expect-run.js';
import { PRECONDITION_REFUSED } from '../runner/context.js';

/**
 * Deployments written from the specification alone, without sight of the reference: each differs
 * from it wherever the specification leaves a choice, in every class of choice at once, and the
 * two differ from each other (teams.ts). Judged by the specification the whole catalogue passes
 * against each, with the team's driver writing its recipes; judged by the reference, each fails
 * where it departs. Every choice is shown to be real: the proxy counted it in the run, the server
 * behind runs with the team's settings, and a setting it declares fails the cases that read it
 * when the runner is not told.
 */

const DRIVER = fileURLToPath(new URL('./support/another-team-driver.ts', import.meta.url));

/** The status of a GET on a connection of its own: the deployment closes the connections it keeps in its own way. */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

interface Team {
  make: () => Variant;
  /** Counts of the variant, each of which the whole catalogue must meet (above 0). */
  met: string[];
  /**
   * Counts of the proxy the whole catalogue must meet: its connections closed, requests that met a
   * connection as it was being closed (never read, so the runner had to send them again), its
   * edge's refusals.
   */
  transport: (keyof ProxyCounts)[];
  /** Cases whose deviations show its departures from reference choices, judged by the specification. */
  deviates: string[];
  /** Cases that meet its departures, which fail judged by the reference. */
  departs: string[];
  /** Cases that read the settings it declares: told nothing, the runner expects the defaults, and they fail. */
  declared: string[];
  /** A link whose lifetime is "about" a figure: read through the deployment, open at `open` seconds and refused at `refused`. */
  lifetime: { link: 'cvv-requests' | 'challenge-requests'; reference: number; open: number; refused: number }[];
  /** Refusals proved against a control that its format makes hollow without one: not run when its samples are withheld. */
  hollow: string[];
  /** A request that, without its control, would be refused for the team's format and look like the rule's refusal. */
  hollowRequest: { body: string; contentType: string };
}

const TEAMS: Team[] = [
  {
    make: anotherTeam,
    met: [
      'counted', 'refused in a window', 'held back', 'refused format', 'recipes shown', 'translated', 'decided', 'blocked', 'gone', 'unknown link', 'own code', 'absent',
      'tokens', 'token lists', 'lists', 'listed', 'links', 'renamed', 'asked for a page', 'reworded', 'errors', 'envelopes', 'stamped', 'lengthened', 'reordered', 'widened',
      'problem+json',
    ],
    transport: ['closed', 'unread', 'edge'],
    deviates: ['getCvvRequest/single-use', 'getPurchaseApproval/unknown-token-not-found', 'fileSignupRequest/body-not-json-or-incomplete', 'setLoginUsername/invalid-username', 'getTokenCatalog/request-head-over-cap', 'decideSignupApproval/labels-exhausted-stay-pending', 'getTokenCatalog/window-resets-at-the-next-minute'],
    departs: [
      'getRecipeSubmission/unknown-id-not-found',
      'getTokenCatalog/whole-catalog-without-filter',
      'decidePurchaseApproval/approve-uses-the-link',
      'decideSignupApproval/labels-exhausted-stay-pending',
      'getTokenCatalog/window-resets-at-the-next-minute',
      'getCvvRequest/single-use',
      'fileSignupRequest/body-not-json-or-incomplete',
      'getTokenCatalog/request-head-over-cap',
      'submitRecipe/missing-kind',
    ],
    declared: ['fileSignupRequest/preapproved-account-ceiling'],
    lifetime: [{ link: 'cvv-requests', reference: 180, open: 185, refused: 195 }],
    hollow: ['submitRecipe/verification-without-note', 'submitRecipe/verification-with-empty-note', 'submitRecipe/not-json', 'submitRecipe/body-not-utf8'],
    hollowRequest: { body: JSON.stringify({ recipe: { key: 'example.com', kind: 'merchant', status: 'partial', platform: 'custom', steps: [] }, verificationRequested: true }), contentType: 'application/json' },
  },
  {
    make: thirdTeam,
    met: ['over a decimal cap', 'held back', 'refused format', 'recipes shown', 'translated', 'refused before parsing', 'decided', 'blocked', 'gone', 'unknown link', 'no such label', 'tokens', 'cards', 'keyed', 'stamped', 'vendor type'],
    transport: ['closed', 'unread'],
    deviates: ['getCvvRequest/single-use', 'decidePurchaseApproval/approve-uses-the-link', 'decideSignupApproval/labels-exhausted-stay-pending', 'submitRecipe/body-at-cap-accepted', 'rotateLoginPassword/invalid-rules'],
    departs: [
      'getRecipeSubmission/unknown-id-not-found',
      'getTokenCatalog/whole-catalog-without-filter',
      'decidePurchaseApproval/approve-uses-the-link',
      'decideSignupApproval/labels-exhausted-stay-pending',
      'submitRecipe/body-at-cap-accepted',
      'getCvvRequest/single-use',
      'submitRecipe/missing-kind',
    ],
    declared: ['rotateLoginPassword/credential-budget', 'submitRecipe/budget-per-account', 'setLoginUsername/change-window'],
    lifetime: [
      { link: 'cvv-requests', reference: 180, open: 165, refused: 175 },
      { link: 'challenge-requests', reference: 600, open: 645, refused: 655 },
    ],
    hollow: ['submitRecipe/not-json', 'submitRecipe/body-not-utf8', 'submitRecipe/verification-without-note'],
    hollowRequest: { body: '{"key": "example.com", "kind": "merchant",', contentType: 'application/json' },
  },
];

describe.each(TEAMS.map((team) => ({ team, name: team.make().name })))('$name', ({ team }) => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReference({ VAULT_CLOCK: 'manual', ...team.make().serverEnv });
  });
  afterAll(() => server?.stop());

  /** Runs `selection` against the team's deployment; `told: false` leaves out the settings it declares. */
  async function asTeam(judge: 'spec' | 'reference', samples: 'given' | 'withheld', selection: string[], told = true): Promise<{ run: Run; variant: Variant; proxy: TamperingProxy }> {
    const variant = team.make();
    variant.behind?.(server);
    const proxy = await startTamperingProxy(server.base, variant.options);
    proxy.fault = variant.fault;
    try {
      const runnerArgs = told ? (variant.runnerArgs ?? []) : (variant.runnerArgs ?? []).filter((a, i, all) => a !== '--limit' && all[i - 1] !== '--limit');
      const argv = ['--base-url', proxy.base, '--admin-token', server.adminToken, '--driver', DRIVER, '--driver-option', `samples=${samples}`, '--judge', judge, '--spend', '--jobs', '4', '--seed', '23', ...runnerArgs];
      return { run: await conform([...argv, ...selection]), variant, proxy };
    } finally {
      await proxy.stop();
    }
  }

  it('when its driver writes its recipes, then judged by the specification the whole catalogue passes, and every choice it made was met', async () => {
    const { run, variant, proxy } = await asTeam('spec', 'given', []);
    // No case is left out: even the cases that prove how the reference matches its own recipe
    // format run, and end `reference`; the driver offers everything the catalogue asks for.
    expectPasses(run);
    expect(run.results.length).toBe(run.passed.length + run.results.filter((r) => r.state === 'reference').length);
    const unmet = team.met.filter((what) => !((variant.counts[what] ?? 0) > 0));
    expect(unmet, JSON.stringify({ ...variant.counts })).toEqual([]);
    for (const what of team.transport) expect(proxy.counts[what], `${what}: ${JSON.stringify(proxy.counts)}`).toBeGreaterThan(0);
    expectDeviations(run, team.deviates);
    // The cases that build on a contribution in its own format ran on it, and proved their rules.
    const onContributions = ['submitRecipe/accepted-as-pending', 'submitRecipe/contribution-is-live', 'submitRecipe/note-published-verbatim', 'submitRecipe/budget-per-account', 'submitRecipe/verification-without-note', 'submitRecipe/not-json', 'submitRecipe/body-not-utf8'];
    expect(onContributions.filter((id) => !run.passed.includes(id)), run.output).toEqual([]);
  }, 900_000);

  it('when it is judged by the reference, then the cases that meet its departures fail', async () => {
    const { run } = await asTeam('reference', 'given', team.departs.flatMap((id) => ['--only', id]));
    expectReferenceFails(run, team.departs);
  }, 600_000);

  it('when the runner is not told the settings it declares, then the cases that read them fail: the settings are real, and met', async () => {
    const { run } = await asTeam('spec', 'given', team.declared.flatMap((id) => ['--only', id]), false);
    expect(run.errors, run.output).toEqual([]);
    expect(run.failed, run.output).toEqual([...team.declared].sort());
    // Told, they pass: the same cases ran in the whole catalogue above.
  }, 600_000);

  it('when its links of "about" a lifetime are read around it, then they live as long as the team chose, not as the reference figure', async () => {
    const proxy = await startTamperingProxy(server.base, team.make().options);
    const admin = { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' };
    const fixtures = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.base}/_fixtures${path}`, { method, headers: admin, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as Record<string, string>;
    };
    try {
      for (const { link, reference, open, refused } of team.lifetime) {
        expect(open > reference || refused < reference, `${link}: a lifetime the reference's figure tells apart`).toBe(true);
        const { accountId } = await fixtures('POST', '/accounts', { plan: 'Free' });
        const [first, second] = [await fixtures('POST', `/accounts/${accountId}/${link}`), await fixtures('POST', `/accounts/${accountId}/${link}`)];
        await fixtures('POST', '/clock/advance', { ms: open * 1000 });
        expect(await statusOf(`${proxy.base}/v1/${link}/${first!.token}`), `${link} at ${open} s`).toBe(200);
        await fixtures('POST', '/clock/advance', { ms: (refused - open) * 1000 });
        expect(await statusOf(`${proxy.base}/v1/${link}/${second!.token}`), `${link} at ${refused} s`).toBeGreaterThanOrEqual(400);
      }
    } finally {
      await proxy.stop();
    }
  }, 120_000);

  it('when its driver withholds its sample recipes, then the refusals proved against a control are not run, never passed, where its format would have refused them for it', async () => {
    // Without a control, each would pass for the wrong reason: the deployment refuses the
    // reference's format (or a body that is no JSON) for its format, with the rule's own 400.
    const variant = team.make();
    variant.behind?.(server);
    const proxy = await startTamperingProxy(server.base, variant.options);
    proxy.fault = variant.fault;
    const admin = { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' };
    try {
      const { accountId } = (await (await fetch(`${server.base}/_fixtures/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ plan: 'Free' }) })).json()) as { accountId: string };
      const issued = (await (await fetch(`${server.base}/_fixtures/accounts/${accountId}/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'hollow', signup: false, scope: 'all' }) })).json()) as { key: string };
      const refused = await fetch(`${proxy.base}/v1/recipes`, { method: 'POST', headers: { authorization: `Bearer ${issued.key}`, 'content-type': team.hollowRequest.contentType }, body: team.hollowRequest.body });
      const answered = (await refused.json()) as { code: string; errors?: unknown };
      expect([refused.status, answered.code]).toEqual([400, 'invalid_recipe']);
      expect(JSON.stringify(answered.errors)).toMatch(/format/);
    } finally {
      await proxy.stop();
    }

    const { run } = await asTeam('spec', 'withheld', ['submitRecipe/*', 'getRecipes/*', 'getRecipeSubmission/*'].flatMap((id) => ['--only', id]));
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    const notRun = run.results.filter((r) => r.state === 'not-run');
    expect(new Set(notRun.map((r) => `${r.notRun?.kind}: ${r.notRun?.label}`))).toEqual(new Set([`capability: ${PRECONDITION_REFUSED}`]));
    expect(notRun.map((r) => r.id)).toEqual(
      expect.arrayContaining([
        ...team.hollow,
        'submitRecipe/accepted-as-pending',
        'submitRecipe/contribution-is-live',
        'submitRecipe/dollar-names-removed',
        'submitRecipe/note-published-verbatim',
        'submitRecipe/budget-per-account',
        'submitRecipe/body-at-cap-accepted',
        'getRecipeSubmission/own-submission',
        'getRecipes/lookup-finds-the-registry',
      ]),
    );
    for (const r of notRun) expect(r.reason, r.id).toMatch(/To run it: .*(sampleRecipe|registryPages)/);
    expect(run.output).toContain(`${PRECONDITION_REFUSED} (${notRun.length})`);
    expect(run.exitCode, run.output).toBe(4);
  }, 600_000);
});
