import type { Case } from '../case.js';
import type { CaseResult } from '../outcome.js';
import { REQUIREMENTS, placeOf, type Requirement } from '../../requirements/index.js';

/**
 * The verdict of a run requirement by requirement, as a trace matrix reads it: a requirement
 * failed when an assertion naming it broke; passed when assertions naming it held and none broke;
 * not run when the cases that prove it did not run; not tested when nothing in this run checked
 * it; untestable when no request can check it. A requirement's deviations are those of the cases
 * that prove it: the deployment chose otherwise than the reference where the requirement leaves
 * the choice open.
 */
export type RequirementVerdict = 'passed' | 'failed' | 'not-run' | 'not-tested' | 'untestable';

export interface RequirementRow {
  id: string;
  place: string;
  says: string;
  verdict: RequirementVerdict;
  /** Cases whose assertions held it, and those that broke it. */
  heldIn: string[];
  brokenIn: string[];
  /** Cases that prove it but did not run. */
  notRunIn: string[];
  deviations: number;
}

export function requirementRows(cases: Case[], results: CaseResult[]): RequirementRow[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  return REQUIREMENTS.filter((r) => r.kind === 'requirement').map((r) => row(r, cases, results, byId));
}

function row(r: Requirement, cases: Case[], results: CaseResult[], byId: Map<string, CaseResult>): RequirementRow {
  const heldIn = results.filter((res) => res.requirements.held.includes(r.id as never)).map((res) => res.id);
  const brokenIn = results.filter((res) => res.state === 'failed' && res.requirements.broken.includes(r.id as never)).map((res) => res.id);
  const proving = cases.filter((c) => c.requirements.includes(r.id as never));
  const notRunIn = proving.filter((c) => byId.get(c.id)?.state === 'not-run' || !byId.has(c.id)).map((c) => c.id);
  const deviations = proving.reduce((n, c) => n + (byId.get(c.id)?.deviations.length ?? 0), 0);
  const verdict: RequirementVerdict = r.untestable ? 'untestable' : brokenIn.length > 0 ? 'failed' : heldIn.length > 0 ? 'passed' : notRunIn.length > 0 ? 'not-run' : 'not-tested';
  return { id: r.id, place: placeOf(r), says: r.says, verdict, heldIn, brokenIn, notRunIn, deviations };
}

export interface RequirementTotals {
  requirements: number;
  testable: number;
  tested: number;
  passed: number;
  failed: number;
  notRun: number;
  notTested: number;
  untestable: number;
}

export function requirementTotals(rows: RequirementRow[]): RequirementTotals {
  const n = (v: RequirementVerdict) => rows.filter((r) => r.verdict === v).length;
  return {
    requirements: rows.length,
    testable: rows.length - n('untestable'),
    tested: n('passed') + n('failed'),
    passed: n('passed'),
    failed: n('failed'),
    notRun: n('not-run'),
    notTested: n('not-tested'),
    untestable: n('untestable'),
  };
}

/** One line: how much of the catalogue's requirements this run tested, and how they fared. */
export function requirementsLine(t: RequirementTotals): string {
  return `requirements: ${t.tested} of ${t.testable} testable requirements of the specification and HTTP tested (${t.passed} held, ${t.failed} broken); ${t.notRun} not run; ${t.notTested} not tested here; ${t.untestable} untestable from outside`;
}
