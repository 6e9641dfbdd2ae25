import type { ApiDocument } from '../document.js';
import { operationOf, type Case } from '../case.js';
import type { CaseResult } from '../outcome.js';
import { coverageKey } from '../exchange.js';
import type { Judgement } from '../basis.js';
import { groupDeviations, seenIn } from './deviations.js';
import { judgementWords } from './tally.js';

export interface CoverageRow {
  operationId: string;
  status: string;
  code?: string;
  exercised: boolean;
  /** Cases that received it. */
  cases: string[];
  /** Why it was not exercised. */
  reason?: string;
  /** Listed as not testable, with the reason. */
  ineligible?: string;
}

/** Every documented (operation, status, code): each error code of each status, and each success status. */
export function documentedTriples(doc: ApiDocument): { operationId: string; status: string; code?: string }[] {
  const out: { operationId: string; status: string; code?: string }[] = [];
  for (const op of doc.operations.values()) {
    for (const status of doc.statuses(op.operationId)) {
      const codes = Number(status) >= 400 ? doc.errorCodes(op.operationId, status) : [];
      if (codes.length === 0) out.push({ operationId: op.operationId, status });
      for (const code of codes) out.push({ operationId: op.operationId, status, code });
    }
  }
  return out;
}

/**
 * The contract-coverage table: each documented triple, exercised by the run or not, and if not,
 * why: not testable (with the catalogue's reason), its cases did not run here (with their
 * reasons), or no case exercised it. A case is credited with the triples its own exchanges
 * received, whatever operation it is filed under, and with no other.
 */
export function contractCoverage(doc: ApiDocument, cases: Case[], results: CaseResult[], ineligible: Record<string, string>): CoverageRow[] {
  const byTriple = new Map<string, string[]>();
  for (const r of results) for (const t of r.observed) byTriple.set(t, [...(byTriple.get(t) ?? []), r.id]);
  const notRunByOp = new Map<string, Set<string>>();
  for (const r of results) {
    if (r.state !== 'not-run') continue;
    const op = operationOf(r);
    notRunByOp.set(op, new Set([...(notRunByOp.get(op) ?? []), r.reason ?? 'not run']));
  }
  const ranAny = new Set(cases.map(operationOf));
  return documentedTriples(doc).map(({ operationId, status, code }) => {
    const key = coverageKey(operationId, status, code);
    const seenBy = byTriple.get(key) ?? [];
    const row: CoverageRow = { operationId, status, code, exercised: seenBy.length > 0, cases: seenBy };
    if (ineligible[key]) row.ineligible = ineligible[key];
    if (!row.exercised) {
      const skipped = notRunByOp.get(operationId);
      row.reason =
        row.ineligible ??
        (skipped ? `not run here: ${[...skipped].join('; ')}` : ranAny.has(operationId) ? 'no case of this run exercised it' : 'no case of this run is filed under this operation');
    }
    return row;
  });
}

export function coverageTotals(rows: CoverageRow[]) {
  return {
    documented: rows.length,
    exercised: rows.filter((r) => r.exercised).length,
    notTestable: rows.filter((r) => !r.exercised && r.ineligible).length,
    notExercised: rows.filter((r) => !r.exercised && !r.ineligible).length,
  };
}

export function coverageMarkdown(rows: CoverageRow[], judgement: Judgement, results: CaseResult[] = [], interrupted?: string): string {
  const t = coverageTotals(rows);
  const lines = [
    '# Contract coverage',
    '',
    ...(interrupted ? [`**Interrupted by ${interrupted}**: the run stopped early; this table covers the cases that ran.`, ''] : []),
    `${t.documented} documented (operation, status, code): ${t.exercised} exercised, ${t.notTestable} not testable, ${t.notExercised} not exercised in this run.`,
    '',
    `The run was ${judgementWords(judgement)}.`,
    '',
    '| operation | status | code | exercised | by / why not |',
    '| - | - | - | - | - |',
  ];
  for (const r of rows) {
    const detail = r.exercised ? r.cases.slice(0, 3).join(', ') + (r.cases.length > 3 ? ` (+${r.cases.length - 3})` : '') : r.ineligible ? `not testable: ${r.ineligible}` : r.reason;
    lines.push(`| ${r.operationId} | ${r.status} | ${r.code ?? ''} | ${r.exercised ? 'yes' : 'no'} | ${cell(detail ?? '')} |`);
  }
  const groups = groupDeviations(results);
  if (groups.length > 0) {
    lines.push('', '## Deviations', '', 'Departures from the reference server\'s own choices, seen while exercising the contract, one row per distinct departure; informative, never failures.', '');
    lines.push('| expected | received | seen in | basis | cases |', '| - | - | - | - | - |');
    for (const g of groups) {
      const cases = g.cases.slice(0, 3).join(', ') + (g.cases.length > 3 ? ` (+${g.cases.length - 3})` : '');
      lines.push(`| ${cell(g.expected)} | ${cell(g.received)} | ${seenIn(g)} | ${cell(g.basis)} | ${cell(cases)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Text safe inside a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
