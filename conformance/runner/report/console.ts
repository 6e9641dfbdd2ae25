import type { Case } from '../case.js';
import type { CaseResult } from '../outcome.js';
import type { CaseDetail } from '../run.js';
import type { Secrets } from '../secrets.js';
import type { Judgement } from '../basis.js';
import { formatFailure, formatSameCause } from './failure.js';
import { deviationsHeading, groupDeviations, groupLine } from './deviations.js';
import { CauseTracker, causeLines, failureCauses } from './causes.js';
import { byGroupKey, chapterGroup } from './labels.js';
import { count, incompleteLine, judgementWords, notRunLines, ranLine, referenceLine, verdictOf, type Tally, type Verdict } from './tally.js';

export { verdictOf, type Verdict } from './tally.js';

export interface Output {
  write(text: string): void;
  isTTY: boolean;
}

/**
 * How much the console says: `quiet` the failures and the summary only; `normal` a line per case
 * that ran, the cases not run counted by reason at the end; `verbose` a line per case not run too.
 */
export type Verbosity = 'quiet' | 'normal' | 'verbose';

const LABEL: Record<Verdict, string> = {
  passed: 'PASS',
  failed: 'FAIL',
  known: 'KNOWN',
  'unexpected-pass': 'UNEXPECTED PASS',
  error: 'ERROR',
  'not-run': 'NOT RUN',
  'matched-reference': 'REF SAME',
  'departed-reference': 'REF OTHER',
};

const ZERO = (): Record<Verdict, number> => ({ passed: 0, failed: 0, known: 0, 'unexpected-pass': 0, error: 0, 'not-run': 0, 'matched-reference': 0, 'departed-reference': 0 });

/**
 * On a terminal, one live progress line and each failure as it happens; without one (CI), a plain
 * line per case. The summary by section comes at the end either way.
 */
export class ConsoleReporter {
  private done = 0;
  private readonly counts: Record<Verdict, number> = ZERO();
  private readonly causes = new CauseTracker();

  constructor(
    private readonly out: Output,
    private readonly total: number,
    private readonly byId: Map<string, Case>,
    private readonly secrets: Secrets,
    private readonly verbosity: Verbosity = 'normal',
  ) {}

  result(r: CaseResult, detail: CaseDetail): void {
    this.done++;
    const verdict = verdictOf(r);
    this.counts[verdict]++;
    const c = this.byId.get(r.id)!;
    const deviations = r.deviations.length > 0 ? ` (${r.deviations.length} deviation${r.deviations.length === 1 ? '' : 's'})` : '';
    const note =
      (verdict === 'not-run' ? `: ${r.reason}` : verdict === 'known' ? ` (known: ${r.known})` : verdict === 'unexpected-pass' ? ` (listed as known: ${r.known}; remove it from the file)` : '') + deviations;
    // A failure whose cause an earlier case showed in full is named in two lines.
    const first = verdict === 'failed' ? this.causes.firstWith(r) : undefined;
    const failure = verdict === 'failed' || verdict === 'error' ? (first ? formatSameCause(c, r, first, this.secrets) : formatFailure(c, r, detail, this.secrets)) : undefined;
    if (this.out.isTTY) {
      if (failure) this.out.write(`\r\x1b[K${failure}\n\n`);
      else if (verdict === 'unexpected-pass') this.out.write(`\r\x1b[K${LABEL[verdict]} ${r.id}${note}\n`);
      if (this.verbosity !== 'quiet') this.out.write(`\r\x1b[K${this.progress()} ${r.id}`);
      return;
    }
    // A failure's own block starts with its verdict and id: it is printed once, in place of the line.
    if (failure) return this.out.write(`${failure}\n\n`);
    const line = `${LABEL[verdict].padEnd(8)} ${r.id}${note}${r.durationMs >= 1000 ? ` (${(r.durationMs / 1000).toFixed(1)} s)` : ''}\n`;
    if (this.verbosity === 'verbose' || (this.verbosity === 'normal' && verdict !== 'not-run') || verdict === 'unexpected-pass') this.out.write(line);
  }

  private progress(): string {
    const c = this.counts;
    return `[${this.done}/${this.total}] ${c.passed} passed, ${c.failed + c['unexpected-pass']} failed, ${c.error} errors, ${c['not-run']} not run${c.known ? `, ${c.known} known` : ''}`;
  }

  /**
   * Totals by top-level section (each case under its first section), then the whole run: the
   * judgement, the deviations apart from the failures, and how much of the catalogue ran and why
   * the rest did not.
   */
  summary(results: CaseResult[], run: { tally: Tally; judgement: Judgement; acceptIncomplete: boolean; interrupted?: string }): string {
    if (this.out.isTTY) this.out.write('\r\x1b[K');
    const lines: string[] = [];
    if (this.verbosity !== 'quiet') {
      const rows = new Map<string, { title: string; row: Record<Verdict, number> }>();
      for (const r of results) {
        const group = chapterGroup(this.byId.get(r.id)!);
        const entry = rows.get(group.key) ?? { title: group.title, row: ZERO() };
        entry.row[verdictOf(r)]++;
        rows.set(group.key, entry);
      }
      lines.push('', 'section                                   passed  failed  errors  not run  known  reference');
      for (const [, { title, row }] of [...rows].sort(([a], [b]) => byGroupKey(a, b))) {
        const name = title.slice(0, 40).padEnd(40);
        const references = row['matched-reference'] + row['departed-reference'];
        lines.push(`${name} ${String(row.passed).padStart(7)} ${String(row.failed + row['unexpected-pass']).padStart(7)} ${String(row.error).padStart(7)} ${String(row['not-run']).padStart(8)} ${String(row.known).padStart(6)} ${String(references).padStart(10)}`);
      }
      const groups = groupDeviations(results);
      if (groups.length > 0) {
        lines.push('', deviationsHeading(groups));
        for (const g of groups) lines.push(this.secrets.mask(groupLine(g)));
      }
      if (this.verbosity === 'normal') lines.push(...notRunLines(run.tally));
    }
    lines.push(...causeLines(failureCauses(results)).map((l) => this.secrets.mask(l)));
    const t = run.tally;
    lines.push('');
    if (run.interrupted) lines.push(`INTERRUPTED by ${run.interrupted}: no case started after it; the cases under way were ended; the summary and the reports cover what ran`);
    lines.push(judgementWords(run.judgement));
    const causes = t.failureCauses > 0 && t.failureCauses < t.verdicts.failed ? ` (${count(t.failureCauses, 'distinct cause')})` : '';
    lines.push(this.progress().replace(/^\[\d+\/\d+\] /, `${count(results.length, 'case')}: `).replace(/ failed/, ` failed${causes}`) + (t.deviations ? `, ${count(t.deviations, 'distinct deviation')}` : ''));
    const references = referenceLine(t);
    if (references) lines.push(references);
    lines.push(ranLine(t));
    const incomplete = incompleteLine(t, run.acceptIncomplete);
    if (incomplete) lines.push(incomplete);
    return `${lines.join('\n')}\n`;
  }
}
