import { readFileSync } from 'node:fs';
import type { Stop } from './interruption.js';
import { signalExitCode } from './interruption.js';

/**
 * How a run learns it must stop: SIGINT or SIGTERM, sent to it or to its process group, or the end
 * of the process that started it.
 *
 * One signal is taken as one, however the runner was started. A launcher that passes a signal on
 * (tsx sends it again when its child has not acknowledged it within 30 ms; npm passes it to its
 * child while the terminal's reaches the whole group) delivers it twice within a few milliseconds,
 * or back to back once a busy event loop reads both. Only a signal that comes at least
 * `AGAIN_AFTER_MS` after the first is a second one, which exits at once.
 *
 * npx and `npm exec` start the runner through `sh -c`; a signal sent to npx alone kills that shell
 * and leaves the runner running with no one to report to. The runner therefore watches the process
 * that started it, and stops as for SIGTERM when it is gone.
 */

export const AGAIN_AFTER_MS = 1_000;
const PARENT_CHECK_MS = 500;

function log(text: string): void {
  process.stderr.write(`vault-conformance: ${text}\n`);
}

/** The parent's pid as the kernel has it now (Linux), or undefined where that cannot be read. */
function currentParent(): number | undefined {
  try {
    // Field 4 of /proc/self/stat, after the command name in parentheses (which may hold spaces).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Whether the process that started the runner is still its parent. */
function parentAlive(parent: number): boolean {
  const now = currentParent();
  if (now !== undefined) return now === parent;
  try {
    process.kill(parent, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Installs the handlers; returns what removes them. */
export function onStopSignals(stop: Stop): () => void {
  let firstAt = 0;
  const request = (signal: NodeJS.Signals, why: string) => {
    stop.request(signal);
    firstAt = Date.now();
    log(`${why}: stopping; no case starts now, the cases under way get ${stop.graceMs / 1000} s, then the driver's accounts are deleted and the reports written (send the signal again, a second or more later, to exit at once)`);
  };
  const handle = (signal: NodeJS.Signals) => {
    if (!stop.requested) return request(signal, signal);
    // The same signal, passed on by a launcher: already being acted on.
    if (Date.now() - firstAt < AGAIN_AFTER_MS) return;
    log(`${signal} again: exiting at once`);
    process.exit(signalExitCode(signal));
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
  const parent = process.ppid;
  // An orphan from the start (a container's first process started it) has nothing to watch.
  const watch = parent > 1
    ? setInterval(() => {
        if (stop.requested || parentAlive(parent)) return;
        clearInterval(watch);
        request('SIGTERM', `the process that started it (pid ${parent}) is gone, as for SIGTERM`);
      }, PARENT_CHECK_MS)
    : undefined;
  watch?.unref();
  return () => {
    clearInterval(watch);
    process.off('SIGINT', handle);
    process.off('SIGTERM', handle);
  };
}
