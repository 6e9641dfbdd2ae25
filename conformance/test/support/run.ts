import { parseArgs } from '../../runner/options.js';
import { resolveSettings } from '../../runner/settings.js';
import { runConformance, type RunSummary } from '../../runner/conformance.js';
import { CATALOGUE } from '../../cases/index.js';
import { ROOT } from './processes.js';

/** Runs the runner in this process, with the command line's own options; its output is kept, not printed. */
export async function conform(argv: string[], env: Record<string, string> = {}): Promise<RunSummary & { output: string; failed: string[]; errors: string[]; notRun: string[]; passed: string[]; matched: string[]; departed: string[] }> {
  let output = '';
  const settings = resolveSettings(parseArgs(argv), ROOT, { ...process.env, ...env });
  const summary = await runConformance(settings, { write: (t) => void (output += t), isTTY: false }, CATALOGUE);
  const ids = (state: string) => summary.results.filter((r) => r.state === state && !r.known).map((r) => r.id).sort();
  const reference = (verdict: 'matched' | 'departed') => summary.results.filter((r) => r.state === 'reference' && r.reference === verdict).map((r) => r.id).sort();
  return { ...summary, output, failed: ids('failed'), errors: ids('error'), notRun: ids('not-run'), passed: ids('passed'), matched: reference('matched'), departed: reference('departed') };
}
