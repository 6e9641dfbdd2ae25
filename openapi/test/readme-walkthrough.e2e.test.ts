import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../server/test/process.js';
import { ROOT } from './bundle.js';
import { parseLintReports as jsonObjects } from '../../scripts/redocly.js';

/**
 * The sandbox's walkthrough (docs/sandbox.md), run as written: each ```sh block of its "Walkthrough"
 * section, in order, in one shell, from a folder whose data/ is the server's data directory (as the
 * repository's root is for `npm start`). A block that starts the server (`npm start`, with its
 * variables and arguments) starts server/main.ts the way `npm start` does after building; the
 * others run unchanged. Also the README's first screen: its two commands and its curl call, against
 * this server's address.
 */

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SANDBOX = readFileSync(join(ROOT, 'docs', 'sandbox.md'), 'utf8');
const START = /^((?:[A-Z_]+=\S+ )*)npm start(?: -- (.+))?$/;

function section(heading: string): string {
  const at = SANDBOX.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`docs/sandbox.md has no "${heading}"`);
  const next = SANDBOX.slice(at + heading.length + 2).search(/\n#{2,3} /);
  return SANDBOX.slice(at, next < 0 ? undefined : at + heading.length + 2 + next);
}

const blocks = (text: string) => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd());

describe('the README and the sandbox walkthrough', () => {
  let dir = '';
  let server: ServerProcess | undefined;
  const run = promisify(execFile);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vault-walkthrough-'));
    mkdirSync(join(dir, 'data'), { mode: 0o700 });
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function start(line: string): Promise<void> {
    const [, vars = '', args = ''] = START.exec(line)!;
    const env = Object.fromEntries(vars.trim().split(/\s+/).filter(Boolean).map((v) => v.split('=') as [string, string]));
    await server?.stop();
    server = await spawnServer({ ...env, VAULT_DATA_DIR: join(dir, 'data') }, ['--demo', ...args.split(/\s+/).filter(Boolean)]);
    const deadline = Date.now() + 10_000;
    while (!server.output().includes('account-holder links are printed below')) {
      if (Date.now() > deadline) throw new Error(`no banner: ${server.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('when the walkthrough is run as written, then the signup is approved, the late one expires and a reset makes a new account', async () => {
    const steps = blocks(section('## Walkthrough'));
    expect(steps.length).toBeGreaterThanOrEqual(6);
    let script = '';
    const outputs: string[] = [];
    const flush = async () => {
      if (script === '') return;
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
      outputs.push(stdout);
      script = '';
    };
    let accountBefore = '';
    for (const step of steps) {
      if (START.test(step)) {
        await flush();
        const local = join(dir, 'data', 'local.json');
        if (existsSync(local)) accountBefore = JSON.parse(readFileSync(local, 'utf8')).accountId;
        await start(step);
        continue;
      }
      // One shell for the steps between two starts, so the variables a step sets reach the next.
      script += `${step}\necho '::step::'\n`;
    }
    await flush();

    const results = outputs.join('').split('::step::\n');
    const [settings, filed, approved, polled, clock] = results;
    expect(settings).toBe('');
    expect(filed!.trim()).toMatch(/^sreq_/);
    expect(JSON.parse(approved!)).toMatchObject({ status: 'approved', website: 'example.com', email: 'jane@example.com' });
    expect(JSON.parse(polled!)).toMatchObject({ status: 'approved', login: { website: 'example.com' } });
    // curl prints each answer without a newline: the clock's state, then the poll.
    const [moved, late] = jsonObjects(clock!) as unknown as Record<string, unknown>[];
    expect(Object.keys(moved!)).toContain('now');
    expect(late).toEqual({ status: 'expired' });
    expect(accountBefore).toMatch(/^acct_/);
    const accountAfter = JSON.parse(readFileSync(join(dir, 'data', 'local.json'), 'utf8')).accountId;
    expect(accountAfter).toMatch(/^acct_/);
    expect(accountAfter).not.toBe(accountBefore);
    expect(server!.output()).toContain('demo account: ' + accountAfter);
  }, 120_000);

  it('when the first screen\'s curl call is run, then the recipe lookup answers', async () => {
    const [command] = blocks(README.slice(0, README.indexOf('\n## ')));
    const call = blocks(README.slice(0, README.indexOf('\n## '))).find((b) => b.startsWith('curl '));
    expect(command).toBe('npm ci && npm start\nnpm test');
    await start('npm start');
    const { stdout } = await run('bash', ['-c', call!.replace('http://127.0.0.1:8080', server!.base)], { encoding: 'utf8' });
    expect(JSON.parse(stdout)).toMatchObject({ signup: { id: 'signup:acme.com' } });
  });
});
