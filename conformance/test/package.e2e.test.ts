import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startReference, type ReferenceServer } from './support/processes.js';

/**
 * The runner as QA meet it. The tarball is packed as on a fresh clone: the repository's files
 * without anything built or bundled (dist/ is ignored, so a clone has none), beside the installed
 * dependencies `npm ci` would bring; `npm pack -w` must build everything itself. It is installed
 * into an empty `npm init -y` project outside the repository and run there, with the driver the
 * README shows, with no compiler and none of the server's dependencies.
 */

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

let server: ReferenceServer;
let work: string;
let tarball: string;
let project: string;
let installed: string;

/** The working tree as a clone of it would be: tracked and new files, nothing ignored (no dist/, no data/). */
function freshClone(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(ROOT, file), join(to, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(to, 'node_modules'), 'dir');
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'vault-conformance-package-'));
  const clone = join(work, 'clone');
  freshClone(clone);
  if (existsSync(join(clone, 'dist')) || existsSync(join(clone, 'conformance', 'dist'))) throw new Error('the scratch clone has build outputs');
  const packed = execFileSync(NPM, ['pack', '-w', '@credential-vault/conformance', '--silent', '--pack-destination', work], { cwd: clone, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  tarball = join(work, packed.trim().split('\n').at(-1)!);
  project = join(work, 'qa');
  mkdirSync(project);
  writeFileSync(join(project, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
  execFileSync(NPM, ['init', '-y'], { cwd: project, stdio: 'ignore' });
  execFileSync(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', tarball], { cwd: project, stdio: 'pipe' });
  installed = join(project, 'node_modules', '@credential-vault', 'conformance');
  server = await startReference();
}, 300_000);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function runner(args: string[], env: Record<string, string> = {}) {
  return spawnSync(join(project, 'node_modules', '.bin', 'vault-conformance'), args, {
    cwd: project,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, VAULT_DATA_DIR: join(project, 'data'), ...env },
  });
}

/** The README's driver, as a user copies it: the code block that follows the example's marker. */
function readmeDriver(): string {
  const readme = readFileSync(join(installed, 'README.md'), 'utf8');
  const m = /<!-- the driver example[^>]*-->\n```js\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error('the README shows no driver example');
  return m[1]!;
}

describe('the packed conformance runner', () => {
  it('when packed from a fresh clone, then the tarball holds the built runner, its document, the driver example and types, and the CI recipe', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const file of ['dist/bin.js', 'dist/openapi.json', 'dist/back-office.json', 'dist/workflows/signup.arazzo.yaml', 'dist/workflows/agent.arazzo.yaml', 'dist/drivers/driver.d.ts', 'drivers/driver.ts', 'examples/driver.mjs', 'docs/ci.md', 'README.md', 'CASES.md']) {
      expect(files, file).toContain(`package/${file}`);
    }
    expect(files.filter((f) => f.startsWith('package/test/') || f.endsWith('.test.js'))).toEqual([]);
  });

  it('when installed from its tarball, then it brings its document and none of the server, mock or compiler', () => {
    const modules = readdirSync(join(project, 'node_modules'));
    for (const absent of ['better-sqlite3', 'express', 'express-openapi-validator', '@stoplight', 'typescript', 'tsx']) expect(modules).not.toContain(absent);
    expect(existsSync(join(installed, 'dist', 'openapi.json'))).toBe(true);
  });

  it('when its README links a file, then the package has that file', () => {
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/i.test(l) && !l.startsWith('#'));
    expect(links).toEqual(expect.arrayContaining(['drivers/driver.ts', 'examples/driver.mjs', 'docs/ci.md', 'CASES.md']));
    for (const link of links) expect(existsSync(join(installed, link.replace(/#.*$/, ''))), link).toBe(true);
  });

  it('when the README shows the driver, then it is the example the package ships, and it checks against the shipped types', () => {
    const driver = readmeDriver();
    expect(driver).toBe(readFileSync(join(installed, 'examples', 'driver.mjs'), 'utf8'));
    writeFileSync(join(project, 'driver.mjs'), driver);
    const check = (file: string) =>
      spawnSync(process.execPath, [TSC, '--noEmit', '--allowJs', '--checkJs', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2023,dom', '--skipLibCheck', '--typeRoots', join(ROOT, 'node_modules', '@types'), '--types', 'node', file], { cwd: project, encoding: 'utf8' });
    const good = check('driver.mjs');
    expect(good.status, good.stdout + good.stderr).toBe(0);
    // The types reach the file: a method that returns the wrong shape is refused.
    writeFileSync(join(project, 'wrong-driver.mjs'), driver.replace('return { label };', 'return { name: label };'));
    const wrong = check('wrong-driver.mjs');
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toContain("Property 'label' is missing");
  });

  it('when run with --help and --version, then it answers from the installed package', () => {
    const help = runner(['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: vault-conformance');
    const version = runner(['--version']);
    expect(version.stdout).toMatch(/^vault-conformance \d+\.\d+\.\d+, document \d+\.\d+\.\d+/);
  });

  it('when pointed at a deployment with the fixtures driver, then its cases run and pass', () => {
    const run = runner(['--base-url', server.base, '--admin-token', server.adminToken, '--only', 'getTokenCatalog/url-*', '--only', 'getRecipes/*', '--only', '*/auth-key-*', '--verbose']);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/PASS +getTokenCatalog\/url-narrows-to-the-page/);
    expect(run.stdout).toMatch(/NOT RUN +getRecipes\/signup-slots: spends .*; run with --spend/);
  });

  it('when asked for the workflows, then they run from the installed package alone, with the keys from the environment', () => {
    const run = runner(['workflows', '--base-url', server.base, '--workflow', 'checkoutLookup', '--workflow', 'signupApproved', '--junit', 'out/workflows.xml'], { VAULT_CONFORMANCE_KEY: server.keys.agent, VAULT_ADMIN_TOKEN: server.adminToken });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^PASS +checkoutLookup /m);
    expect(run.stdout).toMatch(/^PASS +signupApproved /m);
    expect(run.stdout + run.stderr).not.toContain(server.adminToken);
    expect(readFileSync(join(project, 'out', 'workflows.xml'), 'utf8')).toContain('name="signupApproved"');
  });

  it('when given the README\'s driver, then the cases it can serve pass, and the others make the run incomplete until accepted', () => {
    writeFileSync(join(project, 'driver.mjs'), readmeDriver());
    const env = { BACK_OFFICE_TOKEN: server.adminToken };
    const drive = ['--base-url', server.base, '--driver', './driver.mjs', '--driver-option', `back-office=${server.base}/_fixtures`];
    const served = runner([...drive, '--only', 'getTokenCatalog/auth-key-*'], env);
    expect(served.status, served.stdout + served.stderr).toBe(0);
    expect(served.stdout).toContain('driver ');
    expect(served.stdout).toMatch(/PASS +getTokenCatalog\/auth-key-revoked/);
    // This case needs optional methods the example leaves out.
    const unserved = runner([...drive, '--only', 'getTokenCatalog/url-narrows-to-the-page', '--verbose'], env);
    expect(unserved.status, unserved.stdout + unserved.stderr).toBe(4);
    expect(unserved.stdout).toMatch(/NOT RUN +getTokenCatalog\/url-narrows-to-the-page: the driver cannot setIdentity, saveAddress/);
    const accepted = runner([...drive, '--only', 'getTokenCatalog/url-narrows-to-the-page', '--accept-incomplete'], env);
    expect(accepted.status, accepted.stdout + accepted.stderr).toBe(0);
    const tokenless = runner(drive, {});
    expect(tokenless.status).toBe(2);
    expect(tokenless.stderr.trim()).toBe('vault-conformance: set BACK_OFFICE_TOKEN to a token of the back office');
  });
});

/**
 * Cancelling a job, through every form the docs show of starting the runner: the signal goes to
 * the process the job started (npx, `npm exec`, a shell wrapper, coreutils' timeout), never to the
 * whole group. Each time the runner stops within seconds, writes its reports marked interrupted,
 * and leaves no process behind.
 */
describe('the packed runner stopped through each form the docs show', () => {
  const HANG = `import { createBackOfficeDriver } from '@credential-vault/conformance/driver-back-office';
export default async function createDriver(context) {
  const inner = await createBackOfficeDriver(context);
  return { ...inner, saveCard() { process.stderr.write('driver: saveCard never answers\\n'); return new Promise(() => {}); } };
}
`;
  const FORMS: Record<string, (args: string) => [string, string[]]> = {
    npx: (args) => ['sh', ['-c', `exec npx vault-conformance ${args}`]],
    'npm exec': (args) => ['sh', ['-c', `exec npm exec -- vault-conformance ${args}`]],
    'a shell wrapper that execs the runner': (args) => ['sh', ['-c', `exec ./node_modules/.bin/vault-conformance ${args}`]],
    'a shell wrapper that does not exec it': (args) => ['sh', ['-c', `./node_modules/.bin/vault-conformance ${args}; echo wrapper done`]],
    'timeout --foreground with npx': (args) => ['timeout', ['--foreground', '--signal=TERM', '600', 'sh', '-c', `exec npx vault-conformance ${args}`]],
    'timeout around the bin (the CI recipe)': (args) => ['timeout', ['--signal=TERM', '--kill-after=30', '600', './node_modules/.bin/vault-conformance', ...args.split(' ')]],
  };

  for (const [form, command] of Object.entries(FORMS)) {
    it(`when started through ${form} and only that process gets SIGTERM, then the runner stops within seconds with its reports marked interrupted, and nothing is left running`, async () => {
      writeFileSync(join(project, 'hang-driver.mjs'), HANG);
      const json = join(project, 'out', `${form.replace(/\W+/g, '-')}.json`);
      const har = json.replace(/\.json$/, '.har');
      const args = `--base-url ${server.base} --driver ./hang-driver.mjs --driver-option admin-token=${server.adminToken} --jobs 1 --only getTokenCatalog/auth-key-revoked --only getTokenCatalog/whole-catalog-without-filter --json ${json} --har ${har}`;
      const [bin, argv] = command(args);
      const child = spawn(bin, argv, { cwd: project, env: { ...process.env, VAULT_DATA_DIR: join(project, 'data') }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      const gone = () => {
        try {
          process.kill(-child.pid!, 0);
          return false;
        } catch {
          return true;
        }
      };
      try {
        for (const started = Date.now(); !out.includes('saveCard never answers'); ) {
          if (Date.now() - started > 90_000 || child.exitCode !== null) throw new Error(`the runner never got under way:\n${out}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        const signalled = Date.now();
        process.kill(child.pid!, 'SIGTERM');
        while (!gone() && Date.now() - signalled < 20_000) await new Promise((r) => setTimeout(r, 100));
        const took = Date.now() - signalled;
        expect(gone(), `still running ${took} ms after the signal:\n${out}`).toBe(true);
        // The grace of the cases under way (5 s), the parent check and the reports.
        expect(took, out).toBeLessThan(10_000);
        const report = JSON.parse(readFileSync(json, 'utf8')) as { interrupted: string; exitCode: number };
        expect(report.interrupted).toBe('SIGTERM');
        expect(report.exitCode).toBe(143);
        expect((JSON.parse(readFileSync(har, 'utf8')) as { log: { _interrupted?: string } }).log._interrupted).toBe('SIGTERM');
      } finally {
        if (!gone()) process.kill(-child.pid!, 'SIGKILL');
      }
    }, 150_000);
  }
});
