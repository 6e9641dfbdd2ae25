// npm run cluster -- start [--replicas 3] [--dir data/cluster] [--manual-clock] | stop | restart
//
// A local cluster as a team would run the sandbox as a shared service (docs/cluster.md): one
// PostgreSQL (scripts/postgres-cluster.ts), N reference server replicas on it, and nginx from
// Debian (its TCP balancer) in front of them, all on 127.0.0.1. `start` prints the balancer's URL and writes
// <dir>/data/local.json for the conformance runner and the examples; `restart` replaces the
// replicas one at a time, each drained on SIGTERM while the others serve; `stop` stops it all.
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';
import { startCluster, stopCluster } from './postgres-cluster.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export interface ClusterState {
  dir: string;
  databaseUrl: string;
  balancer: string;
  balancerPort: number;
  replicas: { port: number; pid: number }[];
  nginxPid: number;
  env: Record<string, string>;
}

const stateFile = (dir: string) => join(dir, 'cluster.json');

function nginxBin(): string {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(p)) return p;
  throw new Error('nginx not found: apt-get install nginx');
}

/**
 * nginx in front of the replicas, as a TCP balancer (its stream module): each client connection
 * goes to the next replica in turn, and one that refuses connections (stopped, draining) is
 * skipped. The bytes pass as they come, so each replica's own HTTP answers reach the client as
 * they are: its 408 for a stalled head, its JSON 431, its 100 Continue and its closing stages.
 */
function nginxConfig(dir: string, port: number, replicas: number[]): string {
  return `# Written by scripts/cluster.ts.
load_module ${STREAM_MODULE};
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'nginx-error.log')} warn;
daemon off;
events { worker_connections 1024; }
stream {
  upstream vault {
${replicas.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    proxy_pass vault;
    proxy_connect_timeout 2s;
    # A replica's own time-outs close idle connections first.
    proxy_timeout 10m;
  }
}
`;
}

/** Debian's libnginx-mod-stream. */
const STREAM_MODULE = '/usr/lib/nginx/modules/ngx_stream_module.so';

/** Waits for the replica's readiness; a replica that exited or never became ready is reported with the end of its log. */
async function waitReady(dir: string, index: number, pid: number, port: number, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  const failed = (what: string) => {
    const log = join(dir, `replica-${index}.log`);
    const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-25).join('\n') : '(no log)';
    return new Error(`the replica on port ${port} ${what}; the end of its log:\n${tail}`);
  };
  for (;;) {
    if (!alive(pid)) throw failed('exited before it was ready');
    try {
      const res = await fetch(`http://127.0.0.1:${port}/_health/ready`);
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > until) throw failed('did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function startReplica(dir: string, port: number, env: Record<string, string>, index: number): number {
  const log = openSync(join(dir, `replica-${index}.log`), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts'), '--demo'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
    detached: true,
  });
  child.unref();
  return child.pid!;
}

async function createDatabase(adminUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query("CREATE DATABASE vault TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = '/vault';
  return url.toString();
}

/** Starts PostgreSQL, `replicas` servers and nginx; returns where they are. */
export async function startServices(options: { dir: string; replicas: number; manualClock?: boolean; limits?: string }): Promise<ClusterState> {
  const dir = resolve(options.dir);
  if (existsSync(stateFile(dir))) throw new Error(`a cluster is already running in ${dir}; stop it first`);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const postgres = await startCluster(join(dir, 'postgres'));
  const started: { replicas: ClusterState['replicas']; nginxPid?: number } = { replicas: [] };
  try {
    return await startOnCluster(dir, postgres.url, options, started);
  } catch (err) {
    // A start that failed half way leaves nothing running: the replicas, nginx and PostgreSQL stop.
    await Promise.all(started.replicas.map((r) => stopReplica(r.pid)));
    if (started.nginxPid !== undefined && alive(started.nginxPid)) process.kill(started.nginxPid, 'SIGKILL');
    stopCluster(join(dir, 'postgres'));
    execFileSync('rm', ['-rf', dir]);
    throw err;
  }
}

async function startOnCluster(
  dir: string,
  adminUrl: string,
  options: { replicas: number; manualClock?: boolean; limits?: string },
  started: { replicas: ClusterState['replicas']; nginxPid?: number },
): Promise<ClusterState> {
  const databaseUrl = await createDatabase(adminUrl);
  const env: Record<string, string> = {
    VAULT_DATABASE_URL: databaseUrl,
    VAULT_DATA_DIR: join(dir, 'data'),
    VAULT_MASTER_KEY: randomBytes(32).toString('hex'),
    VAULT_ADMIN_TOKEN: `adm_${randomBytes(18).toString('base64url')}`,
    ...(options.manualClock ? { VAULT_CLOCK: 'manual' } : {}),
    ...(options.limits ? { VAULT_LIMITS: options.limits } : {}),
  };
  const replicas = started.replicas;
  // One at a time: the first seeds the demo account, the others find it in the shared settings.
  for (let i = 0; i < options.replicas; i++) {
    const port = await freePort();
    const pid = startReplica(dir, port, env, i);
    replicas.push({ port, pid });
    await waitReady(dir, i, pid, port);
  }
  const balancerPort = await freePort();
  if (!existsSync(STREAM_MODULE)) throw new Error(`nginx's stream module is missing (${STREAM_MODULE}): apt-get install libnginx-mod-stream`);
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, balancerPort, replicas.map((r) => r.port)));
  const nginx = spawn(nginxBin(), ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore', detached: true });
  nginx.unref();
  started.nginxPid = nginx.pid;
  const balancer = `http://127.0.0.1:${balancerPort}`;
  for (const until = Date.now() + 10_000; ; ) {
    try {
      if ((await fetch(`${balancer}/_health/ready`)).status === 200) break;
    } catch {
      if (Date.now() > until) throw new Error('nginx did not start; see nginx-error.log');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // The runner's settings name the balancer, not a replica.
  const local = JSON.parse(readFileSync(join(env.VAULT_DATA_DIR!, 'local.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(env.VAULT_DATA_DIR!, 'local.json'), `${JSON.stringify({ ...local, baseUrl: balancer, docsUrl: `${balancer}/docs/` }, null, 2)}\n`, { mode: 0o600 });
  const state: ClusterState = { dir, databaseUrl, balancer, balancerPort, replicas, nginxPid: nginx.pid!, env };
  writeFileSync(stateFile(dir), `${JSON.stringify(state, null, 2)}\n`);
  return state;
}

export function readState(dir: string): ClusterState {
  return JSON.parse(readFileSync(stateFile(resolve(dir)), 'utf8')) as ClusterState;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function exited(pid: number, timeoutMs: number): Promise<boolean> {
  for (const until = Date.now() + timeoutMs; alive(pid); ) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** Stops a replica as a deployment does: SIGTERM, so that it drains; SIGKILL only if it outlives the drain by far. */
export async function stopReplica(pid: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  if (!(await exited(pid, 60_000))) process.kill(pid, 'SIGKILL');
}

/** Replaces replica `index` with a new process on the same port (a rolling restart's step). */
export async function replaceReplica(state: ClusterState, index: number): Promise<void> {
  const replica = state.replicas[index]!;
  await stopReplica(replica.pid);
  replica.pid = startReplica(state.dir, replica.port, state.env, index);
  await waitReady(state.dir, index, replica.pid, replica.port);
  writeFileSync(stateFile(state.dir), `${JSON.stringify(state, null, 2)}\n`);
}

export async function stopServices(dir: string): Promise<void> {
  const state = readState(dir);
  await Promise.all(state.replicas.map((r) => stopReplica(r.pid)));
  if (alive(state.nginxPid)) {
    process.kill(state.nginxPid, 'SIGQUIT');
    if (!(await exited(state.nginxPid, 10_000))) process.kill(state.nginxPid, 'SIGKILL');
  }
  stopCluster(join(state.dir, 'postgres'));
  execFileSync('rm', ['-rf', state.dir]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { replicas: { type: 'string', default: '3' }, dir: { type: 'string', default: join(ROOT, 'data', 'cluster') }, 'manual-clock': { type: 'boolean', default: false } },
  });
  const action = positionals[0];
  if (action === 'start') {
    const state = await startServices({ dir: values.dir, replicas: Number(values.replicas), manualClock: values['manual-clock'] });
    console.log(`cluster of ${state.replicas.length} replicas behind nginx: ${state.balancer}`);
    console.log(`  replicas: ${state.replicas.map((r) => `http://127.0.0.1:${r.port}`).join(' ')}`);
    console.log(`  database: ${state.databaseUrl}`);
    console.log(`  settings for the conformance runner: VAULT_DATA_DIR=${state.env.VAULT_DATA_DIR}`);
  } else if (action === 'restart') {
    const state = readState(values.dir);
    for (let i = 0; i < state.replicas.length; i++) await replaceReplica(state, i);
    console.log(`restarted ${state.replicas.length} replicas, one at a time`);
  } else if (action === 'stop') {
    await stopServices(values.dir);
    console.log('cluster stopped');
  } else {
    console.error('usage: npm run cluster -- start [--replicas N] [--dir DIR] [--manual-clock] | restart [--dir DIR] | stop [--dir DIR]');
    process.exit(2);
  }
}
