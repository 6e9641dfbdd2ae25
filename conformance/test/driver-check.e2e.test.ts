import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';

/**
 * Every driver is checked before the first case, as the built-in one is: a back office that is
 * down is one line and exit 2. Accounts a driver could not delete are listed at the end, with how
 * to delete them, and `--delete-accounts` deletes them.
 */

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReference();
  dir = mkdtempSync(join(tmpdir(), 'conformance-driver-check-'));
  // The fixtures driver, whose deleteAccount fails while its `fail-delete` option says so.
  writeFileSync(
    join(dir, 'driver.mjs'),
    `import { createBackOfficeDriver } from ${JSON.stringify(join(ROOT, 'conformance', 'drivers', 'back-office.ts'))};
export default async function createDriver(context) {
  const inner = await createBackOfficeDriver(context);
  const failing = context.options['fail-delete'] === 'yes';
  let deletes = 0;
  return {
    ...inner,
    async deleteAccount(accountId) {
      // The driver check's own account is deleted, so the run starts; the cases' are not.
      if (failing && deletes++ > 0) throw new Error('the back office answered 503');
      return inner.deleteAccount(accountId);
    },
  };
}
`,
  );
});
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'conformance', 'bin.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, VAULT_DATA_DIR: join(dir, 'no-data'), ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('the driver check before the first case', () => {
  it('when a driver of your own has a back office that is down, then the run stops in one line with exit 2', () => {
    const run = cli(
      ['--base-url', server.base, '--driver', join(ROOT, 'conformance', 'examples', 'driver.mjs'), '--driver-option', 'back-office=http://127.0.0.1:9/_fixtures', '--only', 'getTokenCatalog/*'],
      { BACK_OFFICE_TOKEN: server.adminToken },
    );
    expect(run.code, run.out + run.err).toBe(2);
    expect(run.err.trim().split('\n')).toHaveLength(1);
    expect(run.err).toMatch(/^vault-conformance: the driver does not work: its openAccount failed before any case: /);
    expect(run.out).not.toMatch(/^(ERROR|FAILED) /m);
  }, 60_000);
});

describe('accounts a driver could not delete', () => {
  it('when deleting fails, then the accounts are listed at the end and in the JSON report, and --delete-accounts deletes them', async () => {
    const json = join(dir, 'results.json');
    const drive = ['--base-url', server.base, '--driver', join(dir, 'driver.mjs'), '--driver-option', `admin-token=${server.adminToken}`];
    const run = await conform([...drive, '--driver-option', 'fail-delete=yes', '--only', 'getTokenCatalog/auth-key-revoked', '--json', json]);
    expect(run.exitCode, run.output).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { accountsLeftBehind: { accountId: string; why: string }[] };
    expect(report.accountsLeftBehind.length).toBeGreaterThan(0);
    for (const a of report.accountsLeftBehind) expect(a.why).toContain('the back office answered 503');
    const ids = report.accountsLeftBehind.map((a) => a.accountId);
    expect(run.output).toContain(`accounts left behind on the deployment (${ids.length}): the driver could not delete them`);
    expect(run.output).toContain('--driver-option admin-token=… --driver-option fail-delete=…');
    expect(run.output).toContain(`--delete-accounts ${ids.join(',')}`);
    expect(run.output).not.toContain(server.adminToken);

    const cleaned = cli([...drive, '--delete-accounts', ids.join(',')]);
    expect(cleaned.code, cleaned.out + cleaned.err).toBe(0);
    for (const id of ids) expect(cleaned.out).toContain(`deleted ${id}`);
  }, 120_000);
});
