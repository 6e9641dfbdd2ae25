import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startReference, type ReferenceServer } from './support/processes.js';

/**
 * A CI job's timeout sends SIGTERM; a person at a terminal presses Ctrl-C. Either way the runner
 * starts no new case, ends the cases under way as interrupted after a short bound, deletes the
 * accounts its driver opened, writes every report marked interrupted, and exits 143 or 130. The
 * runner is a real child process; its driver is the fixtures driver with a journal of the accounts
 * it opens and deletes, and a `saveCard` that never answers, so a case is under way at the signal.
 */

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReference();
  dir = mkdtempSync(join(tmpdir(), 'conformance-interrupt-'));
  writeFileSync(
    join(dir, 'driver.mjs'),
    `import { appendFileSync } from 'node:fs';
import { createBackOfficeDriver } from ${JSON.stringify(join(ROOT, 'conformance', 'drivers', 'back-office.ts'))};

export default async function createDriver(context) {
  const inner = await createBackOfficeDriver(context);
  const journal = process.env.DRIVER_JOURNAL;
  return {
    ...inner,
    async openAccount(options) {
      const opened = await inner.openAccount(options);
      appendFileSync(journal, 'open ' + opened.accountId + '\\n');
      return opened;
    },
    async deleteAccount(accountId) {
      await inner.deleteAccount(accountId);
      appendFileSync(journal, 'delete ' + accountId + '\\n');
    },
    saveCard() {
      process.stderr.write('driver: saveCard never answers\\n');
      return new Promise(() => {});
    },
  };
}
`,
  );
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs first and passes; then the case that hangs; then two that never start. */
const ONLY = ['getTokenCatalog/auth-key-revoked', 'getTokenCatalog/whole-catalog-without-filter', 'getTokenCatalog/url-narrows-to-the-page', 'getTokenCatalog/host-is-an-alias-of-url'];

interface Running {
  child: ChildProcess;
  output: () => { out: string; err: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  until: (pattern: RegExp, stream: 'out' | 'err') => Promise<void>;
}

/** How the runner is started: node with tsx as a loader, or the tsx command, which passes signals on to its child. */
type Launch = 'node' | 'tsx';

function start(name: string, reports: string[], launch: Launch = 'node'): Running {
  const journal = join(dir, `${name}.journal`);
  writeFileSync(journal, '');
  const args = [join(ROOT, 'conformance', 'bin.ts'), '--base-url', server.base, '--driver', join(dir, 'driver.mjs'), '--driver-option', `admin-token=${server.adminToken}`, '--jobs', '1', ...ONLY.flatMap((id) => ['--only', id]), ...reports];
  const [command, argv] = launch === 'tsx' ? [join(ROOT, 'node_modules', '.bin', 'tsx'), args] : [process.execPath, ['--import', 'tsx', ...args]];
  // Its own process group, so that a signal can be sent to the group as a terminal or a CI system sends it.
  const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, DRIVER_JOURNAL: journal, VAULT_DATA_DIR: join(dir, 'no-data') }, stdio: ['ignore', 'pipe', 'pipe'], detached: launch === 'tsx' });
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  child.stdout!.on('data', (c: Buffer) => ((out += c.toString()), wake()));
  child.stderr!.on('data', (c: Buffer) => ((err += c.toString()), wake()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const until = (pattern: RegExp, stream: 'out' | 'err') =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(stream === 'out' ? out : err)) return resolve();
        if (child.exitCode !== null) return reject(new Error(`the runner exited before ${pattern}:\n${out}\n${err}`));
        waiters.push(check);
      };
      check();
    });
  return { child, output: () => ({ out, err }), exited, until };
}

function journalOf(name: string): { opened: string[]; deleted: string[] } {
  const lines = readFileSync(join(dir, `${name}.journal`), 'utf8').trim().split('\n').filter(Boolean);
  return { opened: lines.filter((l) => l.startsWith('open ')).map((l) => l.slice(5)), deleted: lines.filter((l) => l.startsWith('delete ')).map((l) => l.slice(7)) };
}

describe('a run stopped by a signal', () => {
  it('when sent SIGTERM mid-run, then the case under way ends as interrupted, its accounts are deleted, every report is written marked interrupted, and it exits 143', async () => {
    const reports = { json: join(dir, 'out', 'results.json'), junit: join(dir, 'out', 'junit.xml'), html: join(dir, 'out', 'report.html'), coverage: join(dir, 'out', 'coverage.md') };
    const run = start('term', ['--json', reports.json, '--junit', reports.junit, '--html', reports.html, '--coverage', reports.coverage]);
    await run.until(/^PASS +getTokenCatalog\/auth-key-revoked/m, 'out');
    await run.until(/saveCard never answers/, 'err');
    run.child.kill('SIGTERM');
    const { code } = await run.exited;
    const { out, err } = run.output();
    expect(code, out + err).toBe(143);
    expect(err).toContain('vault-conformance: SIGTERM: stopping; no case starts now');
    expect(out).toMatch(/^ERROR +getTokenCatalog\/whole-catalog-without-filter/m);
    expect(out).toContain('interrupted: interrupted by SIGTERM: the case was still running 5 s after it');
    expect(out).toContain('INTERRUPTED by SIGTERM');
    expect(out).toMatch(/^catalogue: 2 of \d+ cases ran; .*2 stopped early \[interrupted by SIGTERM \(2\)\]$/m);
    expect(out.trim().split('\n').at(-1)).toBe('exit 143: interrupted by SIGTERM: the reports cover the cases that ran');

    const json = JSON.parse(readFileSync(reports.json, 'utf8')) as { interrupted: string; exitCode: number; cases: { id: string; state: string; notRunKind?: string; error?: { kind: string } }[] };
    expect(json.interrupted).toBe('SIGTERM');
    expect(json.exitCode).toBe(143);
    const state = Object.fromEntries(json.cases.map((c) => [c.id, c.state === 'error' ? `error ${c.error!.kind}` : c.notRunKind ? `${c.state} ${c.notRunKind}` : c.state]));
    expect(state).toEqual({
      'getTokenCatalog/auth-key-revoked': 'passed',
      'getTokenCatalog/whole-catalog-without-filter': 'error interrupted',
      'getTokenCatalog/url-narrows-to-the-page': 'not-run stopped',
      'getTokenCatalog/host-is-an-alias-of-url': 'not-run stopped',
    });
    expect(readFileSync(reports.junit, 'utf8')).toContain('<property name="interrupted" value="by SIGTERM');
    expect(readFileSync(reports.html, 'utf8')).toContain('Interrupted by SIGTERM');
    expect(readFileSync(reports.coverage, 'utf8')).toContain('**Interrupted by SIGTERM**');

    const journal = journalOf('term');
    expect(journal.opened.length).toBeGreaterThanOrEqual(2);
    expect([...journal.deleted].sort()).toEqual([...journal.opened].sort());
  }, 240_000);

  it('when sent SIGINT twice, then it exits 130 at once, without waiting for the case under way', async () => {
    const json = join(dir, 'twice.json');
    const run = start('twice', ['--json', json]);
    await run.until(/saveCard never answers/, 'err');
    run.child.kill('SIGINT');
    await run.until(/SIGINT: stopping/, 'err');
    // A signal passed on by a launcher comes within milliseconds; a person's second one later.
    await new Promise((r) => setTimeout(r, 1_200));
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    const { out, err } = run.output();
    expect(code, out + err).toBe(130);
    expect(err).toContain('vault-conformance: SIGINT again: exiting at once');
    // It left before the case's bound ran out: no summary, no report.
    expect(out).not.toContain('exit 130');
    expect(existsSync(json)).toBe(false);
  }, 240_000);

  it('when one SIGINT reaches it twice within milliseconds (a launcher passing it on), then it is taken as one: a clean stop, its reports written, exit 130', async () => {
    for (let round = 0; round < 3; round++) {
      const json = join(dir, `relayed-${round}.json`);
      const run = start(`relayed-${round}`, ['--json', json]);
      await run.until(/saveCard never answers/, 'err');
      run.child.kill('SIGINT');
      run.child.kill('SIGINT');
      const { code } = await run.exited;
      const { out, err } = run.output();
      expect(code, out + err).toBe(130);
      expect(err).not.toContain('again: exiting at once');
      expect(JSON.parse(readFileSync(json, 'utf8')).interrupted).toBe('SIGINT');
      const journal = journalOf(`relayed-${round}`);
      expect([...journal.deleted].sort()).toEqual([...journal.opened].sort());
    }
  }, 240_000);

  it('when started by the tsx command and its process group gets SIGINT, as from Ctrl-C, then every time it stops cleanly with its reports', async () => {
    for (let round = 0; round < 4; round++) {
      const json = join(dir, `group-${round}.json`);
      const run = start(`group-${round}`, ['--json', json], 'tsx');
      await run.until(/saveCard never answers/, 'err');
      process.kill(-run.child.pid!, 'SIGINT');
      const { code } = await run.exited;
      const { out, err } = run.output();
      expect(code, out + err).toBe(130);
      expect(err).not.toContain('again: exiting at once');
      expect(JSON.parse(readFileSync(json, 'utf8')).interrupted).toBe('SIGINT');
      const journal = journalOf(`group-${round}`);
      expect([...journal.deleted].sort()).toEqual([...journal.opened].sort());
    }
  }, 300_000);
});
