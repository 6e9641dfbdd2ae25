import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startReference, type ReferenceServer } from './support/processes.js';

/**
 * The runner as QA install it: `npm pack` of the workspace, installed from the tarball into an
 * empty folder outside the repository, run there with no compiler and none of the server's
 * dependencies.
 */

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the packed conformance runner', () => {
  let server: ReferenceServer;
  let work: string;
  let tarball: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'vault-conformance-package-'));
    const packed = execFileSync(NPM, ['pack', '--silent', '--pack-destination', work], { cwd: join(ROOT, 'conformance'), encoding: 'utf8' }).trim().split('\n').at(-1)!;
    tarball = join(work, packed);
    const project = join(work, 'qa');
    execFileSync(NPM, ['init', '-y'], { cwd: (mkdirp(project), project), stdio: 'ignore' });
    execFileSync(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdio: 'pipe' });
    server = await startReference();
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  function runner(args: string[]) {
    const project = join(work, 'qa');
    return spawnSync(join(project, 'node_modules', '.bin', 'vault-conformance'), args, { cwd: project, encoding: 'utf8', timeout: 120_000, env: { ...process.env, VAULT_DATA_DIR: join(project, 'data') } });
  }

  it('when installed from its tarball, then it brings its document and none of the server, mock or compiler', () => {
    const modules = readdirSync(join(work, 'qa', 'node_modules'));
    for (const absent of ['better-sqlite3', 'express', 'express-openapi-validator', '@stoplight', 'typescript', 'tsx']) expect(modules).not.toContain(absent);
    expect(existsSync(join(work, 'qa', 'node_modules', '@credential-vault', 'conformance', 'dist', 'openapi.json'))).toBe(true);
  });

  it('when run with --help and --version, then it answers from the installed package', () => {
    const help = runner(['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: vault-conformance');
    const version = runner(['--version']);
    expect(version.stdout).toMatch(/^vault-conformance \d+\.\d+\.\d+, document \d+\.\d+\.\d+/);
  });

  it('when pointed at a deployment with the fixtures driver, then its cases run and pass', () => {
    const run = runner(['--base-url', server.base, '--admin-token', server.adminToken, '--only', 'getTokenCatalog/url-*', '--only', 'getRecipes/*', '--only', '*/auth-key-*']);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/PASS +getTokenCatalog\/url-narrows-to-the-page/);
    expect(run.stdout).toMatch(/NOT RUN +getRecipes\/signup-slots: spends .*; run with --spend/);
  });

  it('when given a driver module of its own, then it loads it', () => {
    const project = join(work, 'qa');
    // A deployment's own driver: here it forwards to the fixture surface, as a team's driver would call its back office.
    writeFileSync(
      join(project, 'my-driver.mjs'),
      `import create from '@credential-vault/conformance/driver-fixtures';\nexport default (context) => create({ ...context, options: { 'admin-token': context.options.token } });\n`,
    );
    const run = runner(['--base-url', server.base, '--driver', './my-driver.mjs', '--driver-option', `token=${server.adminToken}`, '--only', 'getTokenCatalog/url-narrows-to-the-page']);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('driver');
    expect(run.stdout).toMatch(/PASS +getTokenCatalog\/url-narrows-to-the-page/);
  });
});

function mkdirp(dir: string): void {
  execFileSync('mkdir', ['-p', dir]);
  writeFileSync(join(dir, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
}
