import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../scripts/free-port.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

// Whatever a failed test left running is killed when the test worker exits.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) if (child.pid) process.kill(-child.pid, 'SIGKILL');
});

function start(command: string, args: string[], env: Record<string, string>, ready: RegExp, what: string): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  // Its own process group, so one signal stops it and anything it started.
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = ready.exec(out);
      if (m) resolve({ child, match: m, output: () => out });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      running.delete(child);
      reject(new Error(`${what} exited with ${code}:\n${out}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.exitCode === null && child.pid && process.kill(-child.pid, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export interface ReferenceServer {
  base: string;
  dataDir: string;
  adminToken: string;
  keys: { agent: string; signup: string };
  stop(): Promise<void>;
}

/** The reference server as `npm start` runs it (demo account, admin token), on port 0 in a fresh data directory. */
export async function startReference(env: Record<string, string> = {}): Promise<ReferenceServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-conformance-'));
  const { child, match } = await start(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'server', 'main.ts'), '--demo'],
    { PORT: '0', HOST: '127.0.0.1', VAULT_DATA_DIR: dataDir, ...env },
    /listening on (http:\/\/\S+)[\s\S]*settings for the conformance runner/,
    'the reference server',
  );
  const local = JSON.parse(readFileSync(join(dataDir, 'local.json'), 'utf8')) as { adminToken: string; keys: { agent: string; signup: string } };
  return {
    base: match[1]!,
    dataDir,
    adminToken: local.adminToken,
    keys: local.keys,
    async stop() {
      await stop(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The Prism mock of the bundled document, as `npm run mock` runs it. */
export async function startPrism(): Promise<{ base: string; stop(): Promise<void> }> {
  const port = await freePort();
  const { child } = await start(
    join(ROOT, 'node_modules', '.bin', 'prism'),
    ['mock', '--host', '127.0.0.1', '--port', String(port), join(ROOT, 'dist', 'openapi.yaml')],
    {},
    /Prism is listening/,
    'prism',
  );
  return { base: `http://127.0.0.1:${port}`, stop: () => stop(child) };
}
