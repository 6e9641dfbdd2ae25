import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';
import { expectPasses } from './support/expect-run.js';

/**
 * Section 9 item 4: a deployment may change the 60 pre-approved signups a day. Told the setting
 * (`--limit`), the runner honours it in every case that files pre-approved signups, however few
 * it allows; not told, the case that counts the allowance fails, so the setting is real.
 */

const ALLOWANCE = 5;

describe('a deployment that declares its own pre-approved allowance', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReference({ VAULT_CLOCK: 'manual', VAULT_LIMITS: `preapproved-signups-per-account=${ALLOWANCE}` });
  });
  afterAll(() => server?.stop());

  const only = ['fileSignupRequest/preapproved-*', 'decideSignupApproval/scoped-list-fifty-added', 'fileSignupRequest/login-limit-at-500'].flatMap((o) => ['--only', o]);
  const run = (extra: string[]) => conform(['--base-url', server.base, '--admin-token', server.adminToken, '--judge', 'spec', '--spend', '--seed', '31', ...only, ...extra]);

  it(`when the runner is told of ${ALLOWANCE} pre-approved signups, then every case that files them passes`, async () => {
    const told = await run(['--limit', `preapproved-signups-per-account=${ALLOWANCE}`]);
    expectPasses(told);
    expect(told.passed, told.output).toEqual(expect.arrayContaining(['fileSignupRequest/preapproved-site-ceiling', 'fileSignupRequest/preapproved-account-ceiling', 'fileSignupRequest/preapproved-account-window']));
  }, 300_000);

  it('when the runner is not told, then the case that counts the allowance fails', async () => {
    const untold = await run([]);
    expect(untold.errors, untold.output).toEqual([]);
    expect(untold.failed, untold.output).toEqual(expect.arrayContaining(['fileSignupRequest/preapproved-account-ceiling']));
  }, 300_000);
});
