import { describeBasis } from '../basis.js';
import type { CaseResult } from '../outcome.js';

/**
 * Failures that expected the same thing and received the same thing have one cause: a deployment
 * that answers every refused key with the wrong code fails every case that sends one. Reports name
 * the cause once, with the cases it failed.
 */
export interface FailureCause {
  expected: string;
  received: string;
  /** Where the rule is written: a pointer and the basis. */
  written: string;
  cases: string[];
}

export function writtenOf(where: NonNullable<CaseResult['failure']>['where']): string {
  return [where.pointer, describeBasis(where)].filter(Boolean).join(' · ');
}

function causeKey(f: NonNullable<CaseResult['failure']>): string {
  return `${f.expected}\n${f.received}`;
}

/** Failures not listed as known, grouped by what was expected and received; the largest first. */
export function failureCauses(results: CaseResult[]): FailureCause[] {
  const causes = new Map<string, FailureCause>();
  for (const r of results) {
    if (r.state !== 'failed' || r.known || !r.failure) continue;
    const key = causeKey(r.failure);
    const cause = causes.get(key) ?? { expected: r.failure.expected, received: r.failure.received, written: writtenOf(r.failure.where), cases: [] };
    cause.cases.push(r.id);
    causes.set(key, cause);
  }
  return [...causes.values()].sort((a, b) => b.cases.length - a.cases.length);
}

/** The first case of the run whose failure has the same cause as this one, when it is another. */
export class CauseTracker {
  private readonly first = new Map<string, string>();

  firstWith(r: CaseResult): string | undefined {
    if (r.state !== 'failed' || !r.failure) return undefined;
    const key = causeKey(r.failure);
    const first = this.first.get(key);
    if (first === undefined) this.first.set(key, r.id);
    return first;
  }
}

/** The summary's lines for causes that failed more than one case. */
export function causeLines(causes: FailureCause[]): string[] {
  const shared = causes.filter((c) => c.cases.length > 1);
  if (shared.length === 0) return [];
  const lines = ['', 'failures with one cause:'];
  for (const c of shared) {
    lines.push(`  ${c.cases.length} cases: expected ${c.expected}; received ${c.received}${c.written ? ` · ${c.written}` : ''}`);
    lines.push(`    ${c.cases.join(', ')}`);
  }
  return lines;
}
