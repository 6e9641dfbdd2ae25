// Starting, measuring and stopping the benchmark's servers. Every process started here is
// recorded and stopped by its own id (a group, for Prism, which may start helpers of its own).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { ServerReady } from './server.js';
import { freePort } from '../free-port.js';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The core the load generator runs on, and the core every server runs on, when taskset exists. */
export const LOAD_CPU = '0';
export const SERVER_CPU = '1';
// Asked on first use, not when the module loads: the bench report's tests import its formatters.
let hasTaskset: boolean | undefined;
const taskset = () => (hasTaskset ??= spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0);

export function pinSelf(): boolean {
  if (!taskset()) return false;
  return spawnSync('taskset', ['-a', '-cp', LOAD_CPU, String(process.pid)], { stdio: 'ignore' }).status === 0;
}

export interface Running {
  name: string;
  pid: number;
  base: string;
  ready?: ServerReady;
  /** Milliseconds from listening to the first answer (servers that report when they listen). */
  firstResponseMs?: number;
  peakRssBytes: number;
  stop(): Promise<void>;
}

const started = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of started) killTree(child);
});

function killTree(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

function pinned(command: string, args: string[]): [string, string[]] {
  return taskset() ? ['taskset', ['-c', SERVER_CPU, command, ...args]] : [command, args];
}

function track(name: string, child: ChildProcess, base: string): Running {
  started.add(child);
  const pid = child.pid!;
  const running: Running = {
    name,
    pid,
    base,
    peakRssBytes: 0,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // Our servers leave when their stdin closes (removing their temporary files); Prism gets SIGTERM.
      if (child.stdin) child.stdin.end();
      else killTree(child, 'SIGTERM');
      const term = setTimeout(() => killTree(child, 'SIGTERM'), 2000);
      const kill = setTimeout(() => killTree(child, 'SIGKILL'), 5000);
      await gone;
      clearTimeout(term);
      clearTimeout(kill);
      started.delete(child);
    },
  };
  return running;
}

/** A server of scripts/bench/server.ts, in its own process group, pinned to the server core. */
export async function startBenchServer(name: string, kind: string, env: Record<string, string>): Promise<Running> {
  const [command, args] = pinned(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench', 'server.ts'), kind]);
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'ignore', 'inherit', 'pipe'],
    detached: true,
  });
  const running = track(name, child, '');
  const ready = await new Promise<ServerReady>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`${name}: not listening after 60 s`)), 60_000);
    child.once('exit', (code) => reject(new Error(`${name}: exited with ${code} before listening`)));
    child.stdio[3]!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const line = text.split('\n')[0];
      if (text.includes('\n') && line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as ServerReady);
      }
    });
  });
  running.ready = ready;
  running.base = `http://127.0.0.1:${ready.port}`;
  return running;
}

/**
 * Prism's mock server for the bundled document, pinned to the server core: `silent`, or at its
 * default verbosity (a log line per request, to /dev/null here), as teams usually run it.
 */
export async function startPrism(
  name: string,
  document: string,
  probe: { path: string; headers: Record<string, string> },
  verbosity: 'silent' | 'default',
): Promise<Running> {
  const port = await freePort();
  const bin = realpathSync(join(ROOT, 'node_modules', '.bin', 'prism'));
  const quiet = verbosity === 'silent' ? ['-v', 'silent'] : [];
  const [command, args] = pinned(process.execPath, [bin, 'mock', '-h', '127.0.0.1', '-p', String(port), ...quiet, document]);
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  const running = track(name, child, `http://127.0.0.1:${port}`);
  const deadline = Date.now() + 60_000;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${name}: exited before answering`);
    try {
      await get(running.base, probe.path, probe.headers);
      return running;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name}: not answering after 60 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** One GET on a fresh connection (no agent, nothing lazily set up on our side). */
export function get(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** A process and its descendants, from /proc (Linux). */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = Number(statFields(Number(entry))[1]);
    if (ppid) children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const visit = (p: number): void => {
    out.push(p);
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return out;
}

/** The fields of /proc/<pid>/stat after the command name (state first), or none once it has exited. */
function statFields(pid: number): string[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
}

/** Resident memory of a process and its descendants. */
export function treeRssBytes(pid: number): number {
  return tree(pid).reduce((total, p) => total + statusKb(p, 'VmRSS') * 1024, 0);
}

// /proc counts CPU time in clock ticks of 1/100 s (USER_HZ) on Linux.
const TICK_MICROS = 10_000;

/**
 * CPU time (user and system) a process and its descendants have used, in µs. Per request it shows
 * what a server spends on one answer whatever else the machine runs: a busy machine lowers req/s
 * but not the work each request takes.
 */
export function treeCpuMicros(pid: number): number {
  return tree(pid).reduce((total, p) => {
    const f = statFields(p);
    return total + (Number(f[11] ?? 0) + Number(f[12] ?? 0)) * TICK_MICROS;
  }, 0);
}

/** Peak resident memory the kernel recorded for one process (VmHWM). */
export function peakRssBytes(pid: number): number {
  return statusKb(pid, 'VmHWM') * 1024;
}

function statusKb(pid: number, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Samples every server's memory until stopped; peaks are kept on each Running. */
export function sampleMemory(servers: Running[], everyMs = 250): () => void {
  const sample = () => {
    for (const s of servers) s.peakRssBytes = Math.max(s.peakRssBytes, treeRssBytes(s.pid), peakRssBytes(s.pid));
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return () => {
    sample();
    clearInterval(timer);
  };
}
