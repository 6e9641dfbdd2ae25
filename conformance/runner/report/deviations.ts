import { describeBasis, spec } from '../basis.js';
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
}

export function viewDeviation(caseId: string, d: Deviation): DeviationView {
  const ex = d.exchange;
  return {
    caseId,
    expected: d.expected,
    received: d.received,
    basis: describeBasis(d.where.basis ?? spec(...d.where.sections)),
    ...(d.where.pointer ? { pointer: d.where.pointer } : {}),
    ...(ex ? { exchange: `${ex.request.method} ${ex.request.url} → ${ex.response.status}` } : {}),
  };
}

export function allDeviations(results: CaseResult[]): DeviationView[] {
  return results.flatMap((r) => r.deviations.map((d) => viewDeviation(r.id, d)));
}

/** A few lines, as the console and JUnit's <system-out> print it. */
export function deviationText(v: DeviationView): string {
  return [
    `DEVIATION ${v.caseId} (informative, not a failure)`,
    `Expected  ${v.expected}`,
    `Received  ${v.received}`,
    `Basis     ${v.basis}${v.pointer ? ` · ${v.pointer}` : ''}`,
    ...(v.exchange ? [`Exchange  ${v.exchange}`] : []),
  ].join('\n');
}
