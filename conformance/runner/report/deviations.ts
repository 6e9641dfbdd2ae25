import { describeBasis } from '../basis.js';
import type { CaseResult, Deviation } from '../outcome.js';

/**
 * A deviation as every report shows it: what the reference server's document expects, what came
 * back, the basis of the rule (why it binds nobody but the reference), where it is written, and
 * the exchange it was seen in. Informative only: no report counts one as a failure.
 */
export interface DeviationView {
  caseId: string;
  expected: string;
  received: string;
  basis: string;
  pointer?: string;
  /** `GET https://…/v1/tokens → 200`, when the exchange is known. */
  exchange?: string;
  /** Answers of the case that showed it. */
  answers: number;
}

export function viewDeviation(caseId: string, d: Deviation): DeviationView {
  const ex = d.exchange;
  return {
    caseId,
    expected: d.expected,
    received: d.received,
    basis: describeBasis(d.where),
    ...(d.where.pointer ? { pointer: d.where.pointer } : {}),
    ...(ex ? { exchange: `${ex.request.method} ${ex.request.url} → ${ex.response.status}` } : {}),
    answers: d.answers ?? 1,
  };
}

/**
 * One distinct departure (a rule, broken the same way) over the whole run: how many answers and
 * cases showed it, and the first answer it was seen in. A deployment that chose otherwise than the
 * reference once chose so everywhere: one line says it, not one block per answer.
 */
export interface DeviationGroup {
  expected: string;
  received: string;
  basis: string;
  pointer?: string;
  answers: number;
  cases: string[];
  /** The first answer that showed it. */
  exchange?: string;
}

export function groupDeviations(results: CaseResult[]): DeviationGroup[] {
  const groups = new Map<string, DeviationGroup>();
  for (const r of results) {
    for (const d of r.deviations) {
      const v = viewDeviation(r.id, d);
      const key = `${v.expected}\n${v.received}\n${v.basis}`;
      const group = groups.get(key) ?? { expected: v.expected, received: v.received, basis: v.basis, ...(v.pointer ? { pointer: v.pointer } : {}), answers: 0, cases: [], ...(v.exchange ? { exchange: v.exchange } : {}) };
      group.answers += v.answers;
      if (!group.cases.includes(r.id)) group.cases.push(r.id);
      groups.set(key, group);
    }
  }
  return [...groups.values()].sort((a, b) => b.cases.length - a.cases.length || b.answers - a.answers || a.expected.localeCompare(b.expected));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `12 answers in 7 cases`. */
export function seenIn(g: Pick<DeviationGroup, 'answers' | 'cases'>): string {
  return `${plural(g.answers, 'answer')} in ${plural(g.cases.length, 'case')}`;
}

/** One line per distinct departure, as the console prints it. */
export function groupLine(g: DeviationGroup): string {
  return `  expected ${g.expected}; received ${g.received} · ${seenIn(g)} · ${g.basis}`;
}

/** The heading of the deviations of a run. */
export function deviationsHeading(groups: DeviationGroup[]): string {
  const answers = groups.reduce((n, g) => n + g.answers, 0);
  const cases = new Set(groups.flatMap((g) => g.cases)).size;
  return `deviations from the reference server's own choices: ${plural(groups.length, 'distinct departure')}, seen in ${plural(answers, 'answer')} of ${plural(cases, 'case')}; informative, never failures`;
}

/** A case's deviations, as JUnit's <system-out> prints them. */
export function deviationText(v: DeviationView): string {
  return [
    `DEVIATION ${v.caseId} (informative, not a failure)`,
    `Expected  ${v.expected}`,
    `Received  ${v.received}${v.answers > 1 ? ` (in ${v.answers} answers)` : ''}`,
    `Basis     ${v.basis}${v.pointer ? ` · ${v.pointer}` : ''}`,
    ...(v.exchange ? [`Exchange  ${v.exchange}`] : []),
  ].join('\n');
}
