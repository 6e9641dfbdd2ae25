import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';
import { documentLimit } from './support/tamper.js';

/**
 * Section 8.1 item 4 ("a refused request records nothing") and section 8.3 ("filing a request
 * counts") allow two readings of whether a refused filing spends a login write. The reference
 * takes the first (reference.test.ts runs the catalogue against it); here the reference server
 * takes the other, through its deployment setting VAULT_COUNT_REFUSED_REQUESTS=1, and every case
 * of the login-write operations must pass against it too: no case may assume either reading.
 */

const LOGIN_WRITE_CASES = ['fileSignupRequest/*', 'setLoginUsername/*', 'rotateLoginPassword/*', 'getSignupRequest/*'];

describe('the login-write cases against a deployment that counts refused filings', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReference({ VAULT_CLOCK: 'manual', VAULT_COUNT_REFUSED_REQUESTS: '1' });
  });
  afterAll(() => server?.stop());

  it('when a minute\'s login writes are spent on refused filings, then the next valid one is rate_limited: this deployment takes the other reading', async () => {
    const file = (website: string) =>
      fetch(`${server.base}/v1/logins/requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.keys.signup}`, 'content-type': 'application/json' },
        body: JSON.stringify({ website, email: 'agent@example.com' }),
      });
    for (let i = 0; i < documentLimit('login-writes-per-key'); i++) expect((await file('not a site')).status).toBe(400);
    const refused = await file('example.com');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('rate_limited');
  });

  it('when the login-write cases run, then every one passes', async () => {
    const run = await conform([...LOGIN_WRITE_CASES.flatMap((id) => ['--only', id]), '--jobs', '4', '--seed', '3'], { VAULT_DATA_DIR: server.dataDir });
    console.log(`other reading, manual clock: ${run.results.length} cases in ${(run.durationMs / 1000).toFixed(1)} s`);
    expect(run.results.length).toBeGreaterThan(30);
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.notRun, run.output).toEqual([]);
    expect(run.exitCode).toBe(0);
  }, 600_000);
});
