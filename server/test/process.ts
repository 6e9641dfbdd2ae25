import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs server/main.ts as its own process on 127.0.0.1, port 0, and waits until it listens. */
export function spawnServer(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  const child = spawn(TSX, [join(ROOT, 'server', 'main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) resolve({ base: m[1]!, child, output: () => out, stop });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    exited.then((code) => reject(Object.assign(new Error(`server exited with ${code}: ${out}`), { code, output: out })));
  });
}

/** Runs server/main.ts expecting it to fail at start; resolves with its exit code and output. */
export function runFailingServer(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; output: string }> {
  return spawnServer(env, args).then(
    async (s) => {
      await s.stop();
      throw new Error(`server started but should have failed: ${s.output()}`);
    },
    (e: { code: number | null; output: string }) => ({ code: e.code, output: e.output }),
  );
}
