import { EXIT_MEANING, type ExitCode } from './input.js';
import { count, type Tally } from './tally.js';

/**
 * The console's last line: the exit status and what it means for this run. A run whose missing
 * capabilities were accepted says so, with how many cases that was, rather than "nothing it needed
 * was missing".
 */
export function exitLine(code: ExitCode, t: Tally, acceptIncomplete: boolean): string {
  const missing = t.notRun.capability;
  if (code === 0 && missing > 0 && acceptIncomplete) {
    return `exit 0: every case that ran passed; ${count(missing, 'case')} could not run for a missing capability, accepted with --accept-incomplete`;
  }
  return `exit ${code}: ${EXIT_MEANING[code]}`;
}
