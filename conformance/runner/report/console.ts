import type { Case } from '../case.js';
import type { CaseResult } from '../outcome.js';
import type { CaseDetail } from '../run.js';
import type { Secrets } from '../secrets.js';
import { SECTIONS, chapterOf } from '../sections.js';
import type { Judgement } from '../basis.js';
import { formatFailure } from './failure.js';
import { allDeviations, deviationText } from './deviations.js';
import { incompleteLine, judgementWords, ranLine, verdictOf, type Tally, type Verdict } from './tally.js';

export { verdictOf, type Verdict } from './tally.js';

export interface Output {
  write(text: string): void;
  isTTY: boolean;
}

const LABEL: Record<Verdict, string> = {
  passed: 'PASS',
  failed: 'FAIL',
  known: 'KNOWN',
  'unexpected-pass': 'UNEXPECTED PASS',
  error: 'ERROR',
  'not-run': 'NOT RUN',
};

/**
 * On a terminal, one live progress line and each failure as it happens; without one (CI), a plain
 * line per case. The summary by section comes at the end either way.
 */
export class ConsoleReporter {
  private done = 0;
  private readonly counts: Record<Verdict, number> = { passed: 0, failed: 0, known: 0, 'unexpected-pass': 0, error: 0, 'not-run': 0 };

  constructor(
    private readonly out: Output,
    private readonly total: number,
    private readonly byId: Map<string, Case>,
    private readonly secrets: Secrets,
  ) {}

  result(r: CaseResult, detail: CaseDetail): void {
    this.done++;
    const verdict = verdictOf(r);
    this.counts[verdict]++;
    const c = this.byId.get(r.id)!;
    const deviations = r.deviations.length > 0 ? ` (${r.deviations.length} deviation${r.deviations.length === 1 ? '' : 's'})` : '';
    const note =
      (verdict === 'not-run' ? `: ${r.reason}` : verdict === 'known' ? ` (known: ${r.known})` : verdict === 'unexpected-pass' ? ` (listed as known: ${r.known}; remove it from the file)` : '') + deviations;
    if (this.out.isTTY) {
      if (verdict === 'failed' || verdict === 'error') this.out.write(`\r\x1b[K${formatFailure(c, r, detail, this.secrets)}\n\n`);
      else if (verdict === 'unexpected-pass') this.out.write(`\r\x1b[K${LABEL[verdict]} ${r.id}${note}\n`);
      this.out.write(`\r\x1b[K${this.progress()} ${r.id}`);
      return;
    }
    this.out.write(`${LABEL[verdict].padEnd(8)} ${r.id}${note}${r.durationMs >= 1000 ? ` (${(r.durationMs / 1000).toFixed(1)} s)` : ''}\n`);
    if (verdict === 'failed' || verdict === 'error') this.out.write(`${formatFailure(c, r, detail, this.secrets)}\n\n`);
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
  summary(results: CaseResult[], run: { tally: Tally; judgement: Judgement; acceptIncomplete: boolean }): string {
    if (this.out.isTTY) this.out.write('\r\x1b[K');
    const rows = new Map<string, Record<Verdict, number>>();
    for (const r of results) {
      const section = chapterOf(this.byId.get(r.id)!.sections[0] ?? '?');
      const row = rows.get(section) ?? { passed: 0, failed: 0, known: 0, 'unexpected-pass': 0, error: 0, 'not-run': 0 };
      row[verdictOf(r)]++;
      rows.set(section, row);
    }
    const lines = ['', 'section                                   passed  failed  errors  not run  known'];
    for (const [section, row] of [...rows].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
      const name = `${section}. ${SECTIONS[section] ?? ''}`.slice(0, 40).padEnd(40);
      lines.push(`${name} ${String(row.passed).padStart(7)} ${String(row.failed + row['unexpected-pass']).padStart(7)} ${String(row.error).padStart(7)} ${String(row['not-run']).padStart(8)} ${String(row.known).padStart(6)}`);
    }
    const deviations = allDeviations(results);
    if (deviations.length > 0) {
      lines.push('', `deviations from the reference server's own choices: ${deviations.length} in ${new Set(deviations.map((d) => d.caseId)).size} case(s); informative, never failures`, '');
      for (const d of deviations) lines.push(this.secrets.mask(deviationText(d)), '');
    }
    const t = run.tally;
    lines.push('', judgementWords(run.judgement));
    lines.push(this.progress().replace(/^\[\d+\/\d+\] /, `${results.length} cases: `) + (t.deviations ? `, ${t.deviations} deviations` : ''));
    lines.push(ranLine(t));
    const incomplete = incompleteLine(t, run.acceptIncomplete);
    if (incomplete) lines.push(incomplete);
    return `${lines.join('\n')}\n`;
  }
}
