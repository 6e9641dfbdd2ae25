import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { referenceMarkdown } from '../../scripts/docs/markdown.js';
import { GUIDES, GUIDES_DIR } from '../../scripts/docs/view.js';
import { freePort } from '../../scripts/free-port.js';
import { loadBundle, ROOT } from './bundle.js';

/**
 * The integrator's guides (openapi/guides/, rendered into the reference docs after the quickstart),
 * their commands run as written, as the quickstart's are (openapi/test/quickstart.test.ts): the
 * mock's against `npm run mock`, the sandbox's on a port of its own. Their TypeScript programs are
 * compiled and run from the packed client (client/test/package.e2e.test.ts, webhook-receiver.e2e.test.ts).
 */

const guide = (name: string) => readFileSync(join(GUIDES_DIR, name), 'utf8');
const blocks = (text: string) => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd());
const section = (text: string, heading: string) => {
  const at = text.indexOf(`\n### ${heading}\n`);
  if (at < 0) throw new Error(`no "### ${heading}"`);
  const next = text.indexOf('\n### ', at + 1);
  return text.slice(at, next < 0 ? undefined : next);
};

// `npm run` and what it starts, in a process group of their own, stopped in one signal.
const started: ChildProcess[] = [];
function startGroup(command: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', command], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  started.push(child);
  return { child, output: () => output };
}
async function stopGroups(): Promise<void> {
  for (const child of started.splice(0)) {
    if (!child.pid || child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

async function until<T>(probe: () => Promise<T | undefined>, ms: number, what: () => string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${what()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the integrator guides', () => {
  afterEach(stopGroups);

  it('when the reference is rendered, then each guide is a section of it, after the quickstart and before authentication', () => {
    const text = referenceMarkdown(loadBundle());
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    const titles = GUIDES.map((name) => /^## (.+)$/m.exec(guide(name))![1]);
    expect(headings.slice(1, 2 + titles.length + 1)).toEqual(['Quickstart', ...titles, 'Authentication']);
    // As written, but for the blank lines the Markdown reference folds into one.
    for (const name of GUIDES) expect(text).toContain(guide(name).trim().replace(/\n{3,}/g, '\n\n'));
  });

  it("when the quickstart names waitForSignupRequest, then the client guide shows it with every option it takes", () => {
    const intro = String(loadBundle().info.description);
    expect(intro).toMatch(/`waitForSignupRequest`[^]*"Waiting for a signup"/);
    const [program] = [...section(guide('client.md'), 'Waiting for a signup').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(program).toContain('vault.waitForSignupRequest(filed.requestId, {');
    // The options of WaitForSignupOptions beside those of any call (CallOptions): each is shown.
    for (const option of ['expiresAt', 'intervalMs', 'maxIntervalMs', 'timeoutMs', 'signal']) expect(program).toMatch(new RegExp(`^\\s+${option}: `, 'm'));
  });

  it("when the mock answers a signup request, then its expiresAt is far in the future, as the mock guide says", () => {
    const found: number[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'expiresAt' && typeof value === 'number') found.push(value);
        else walk(value);
      }
    };
    const doc = loadBundle();
    for (const item of Object.values<Record<string, any>>(doc.paths)) {
      for (const op of Object.values<any>(item)) for (const response of Object.values<any>(op?.responses ?? {})) walk(response?.content?.['application/json']?.examples);
    }
    expect(found.length).toBeGreaterThan(0);
    for (const at of found) expect(at).toBe(Date.UTC(2100, 0, 1));
    expect(guide('mock.md')).toContain(`\`${Date.UTC(2100, 0, 1)}\``);
  });

  it('when the mock guide is followed as written, then `npm run mock` on the chosen PORT answers what Prefer asked, with any key', async () => {
    const [start, ...steps] = blocks(guide('mock.md'));
    expect(start).toBe('npm run mock');
    const port = String(await freePort());
    const env = { ...process.env, PORT: port };
    const mock = startGroup(start!, env);
    await until(async () => ((await fetch(`http://127.0.0.1:${port}/v1/recipes`)).status > 0 ? true : undefined), 120_000, mock.output);
    const script = steps.map((step) => `${step}\necho '::step::'\n`).join('');
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
    const [settings, answer] = stdout.split('::step::\n');
    expect(settings).toBe('');
    expect(JSON.parse(answer!)).toMatchObject({ code: 'username_already_set' });
    // What the guide says the mock cannot give: it keeps no Idempotency-Key and sends no request id.
    const keyed = await fetch(`http://127.0.0.1:${port}/v1/logins/username`, {
      method: 'POST',
      headers: { authorization: 'Bearer vk_mock', 'content-type': 'application/json', 'idempotency-key': 'guide-test-key', 'x-request-id': 'guide-test-id' },
      body: JSON.stringify({ label: 'acme', username: 'shopper.jane' }),
    });
    expect(keyed.status).toBe(200);
    expect([keyed.headers.get('idempotency-key'), keyed.headers.get('x-request-id')]).toEqual([null, null]);
  }, 180_000);

  it('when the sandbox is started as the client guide says, on a port of its own, then data/local.json and the server name that port', async () => {
    const [start] = blocks(section(guide('client.md'), 'The sandbox on a port of your choice'));
    expect(start).toMatch(/^PORT=\d+ npm start$/);
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'vault-guide-port-'));
    try {
      // The guide's port is an example: this test takes a free one in its place.
      const sandbox = startGroup(start!.replace(/^PORT=\d+/, `PORT=${port}`), { ...process.env, VAULT_DATA_DIR: dataDir });
      const local = await until(
        async () => (existsSync(join(dataDir, 'local.json')) ? (JSON.parse(readFileSync(join(dataDir, 'local.json'), 'utf8')) as { baseUrl: string }) : undefined),
        180_000,
        sandbox.output,
      );
      expect(local.baseUrl).toBe(`http://127.0.0.1:${port}`);
      const answer = await until(async () => (await fetch(`${local.baseUrl}/v1/recipes`)).status, 30_000, sandbox.output);
      expect(answer).toBe(200);
    } finally {
      await stopGroups();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
