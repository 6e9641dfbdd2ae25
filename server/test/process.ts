import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

// Whatever a failed test left running is killed when the test worker exits.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** How to run the process: bound by file permissions even when the test runs as root, or under a given umask. */
export interface SpawnOptions {
  /**
   * Root ignores file permissions, so a read-only file is writable to it. The server then runs
   * without the capabilities that grant this (util-linux's setpriv), as a deployment's own user
   * would, while still reading the checkout wherever it was cloned.
   */
  boundByPermissions?: boolean;
  /** An octal umask such as `000`, set by a shell that then becomes the server. */
  umask?: string;
}

const PERMISSION_OVERRIDES = '-dac_override,-dac_read_search,-fowner';

/** Runs server/main.ts as its own process on 127.0.0.1, port 0, and waits until it listens. */
export function spawnServer(env: Record<string, string>, args: string[] = [], options: SpawnOptions = {}): Promise<ServerProcess> {
  // Node itself with tsx's loader, not the tsx wrapper: a signal (SIGKILL above all) must reach the
  // server process, and no server may outlive its test. The shell for a umask execs node, so the
  // signal still reaches the server.
  let line = [process.execPath, '--import', 'tsx', join(ROOT, 'server', 'main.ts'), ...args];
  if (options.umask !== undefined) line = ['/bin/sh', '-c', `umask ${options.umask} && exec "$0" "$@"`, ...line];
  if (options.boundByPermissions && process.getuid?.() === 0) line = ['setpriv', '--bounding-set', PERMISSION_OVERRIDES, '--', ...line];
  const [command, ...argv] = line;
  const child = spawn(command!, argv, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
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
export function runFailingServer(env: Record<string, string>, args: string[] = [], options: SpawnOptions = {}): Promise<{ code: number | null; output: string }> {
  return spawnServer(env, args, options).then(
    async (s) => {
      await s.stop();
      throw new Error(`server started but should have failed: ${s.output()}`);
    },
    (e: { code: number | null; output: string }) => ({ code: e.code, output: e.output }),
  );
}
