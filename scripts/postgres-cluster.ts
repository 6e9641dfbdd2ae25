// A throwaway PostgreSQL cluster on 127.0.0.1, from the server binaries Debian's `postgresql`
// package installs: the tests' (.ci/run, vitest's global setup), the cluster script's and the
// bench's. Trust authentication on loopback only; the data directory is removed when stopped.
//
//   tsx scripts/postgres-cluster.ts start <dir>   prints VAULT_TEST_DATABASE_URL=postgres://...
//   tsx scripts/postgres-cluster.ts stop <dir>
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

/** The newest installed server's binaries. */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  if (versions.length === 0) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql: apt-get install postgresql');
  return join(root, versions.sort((a, b) => Number(b) - Number(a))[0]!, 'bin');
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user (or nobody). */
function runAs(): { uid: number; gid: number; prefix: string[] } | undefined {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const id = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    if (id.status !== 0) continue;
    const uid = Number(id.stdout.trim());
    const gid = Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim());
    return { uid, gid, prefix: ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'] };
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

function run(command: string, args: string[]): void {
  const as = runAs();
  const [file, ...rest] = as ? [...as.prefix, command, ...args] : [command, ...args];
  try {
    execFileSync(file!, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    throw new Error(`${command} failed: ${String((e as { stderr?: Buffer }).stderr ?? (e as Error).message).trim()}`);
  }
}

export interface Cluster {
  url: string;
  port: number;
  dir: string;
  stop(): void;
}

/**
 * Creates and starts a cluster in `dir` (which must not exist yet, in a directory the server's
 * user may pass through) on a free port of 127.0.0.1.
 */
export async function startCluster(dir: string): Promise<Cluster> {
  const bin = postgresBin();
  const as = runAs();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (as) chownSync(dir, as.uid, as.gid);
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  // Room for the race tests' replicas and the cluster script's; the socket stays in the directory.
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c max_connections=200`;
  run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  writeFileSync(join(dir, 'port'), String(port));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return { url, port, dir, stop: () => stopCluster(dir) };
}

export function stopCluster(dir: string): void {
  const data = join(dir, 'data');
  if (existsSync(join(data, 'postmaster.pid'))) {
    try {
      run(join(postgresBin(), 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // Already stopped: the directory goes all the same.
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

/** pg_ctl of a running cluster (the fault tests stop and start it under the servers). */
export function pgCtl(dir: string, action: 'stop' | 'start' | 'restart'): void {
  const data = join(dir, 'data');
  const port = readFileSync(join(dir, 'port'), 'utf8').trim();
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c max_connections=200`;
  const args = action === 'stop' ? ['-D', data, '-m', 'fast', '-w', 'stop'] : ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', action];
  run(join(postgresBin(), 'pg_ctl'), args);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [action, dir] = process.argv.slice(2);
  if (!dir || (action !== 'start' && action !== 'stop')) {
    console.error('usage: tsx scripts/postgres-cluster.ts start|stop <dir>');
    process.exit(2);
  }
  if (action === 'start') console.log(`VAULT_TEST_DATABASE_URL=${(await startCluster(resolve(dir))).url}`);
  else stopCluster(resolve(dir));
}
