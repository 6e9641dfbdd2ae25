import type { Case } from '../case.js';
import { RunnerError, type CaseResult } from '../outcome.js';
import type { CaseDetail } from '../run.js';
import type { GenerationSummary, PropertyOutcome } from './summary.js';

/**
 * Generated inputs as results of their own: each property a case in every report, counted in the
 * totals beside the catalogue's, its failure with the shrunk request that reproduces it and the
 * options that generate the same inputs again.
 */

/** A property filed as a case: reports group these apart, as generated inputs. */
export interface GeneratedCase extends Case {
  generated: true;
}

export function isGenerated(c: object): c is GeneratedCase {
  return (c as { generated?: unknown }).generated === true;
}

const TITLES: Record<string, string> = {
  'one-rule-broken': 'Generated requests each breaking one rule get its documented error',
  valid: 'Generated valid requests are accepted and answered as documented',
  sequences: 'Generated walks through the signup workflow keep every rule',
  'unknown-id': 'Generated unknown ids are refused as documented',
  anything: 'Generated requests get only documented answers',
};

function titleOf(o: PropertyOutcome): string {
  const slug = o.id.slice(o.id.indexOf('/generated-') + '/generated-'.length);
  return TITLES[slug] ?? `Generated requests: ${slug.replace(/-/g, ' ')}`;
}

function caseOf(o: PropertyOutcome): GeneratedCase {
  // A property names no requirement of its own: each answer is judged by the checks every exchange gets, and its expectation by the document.
  return { id: o.id, title: titleOf(o), requirements: [], sections: ['4', '7.1'], level: 'must', needs: {}, costs: {}, generated: true, run: async () => undefined };
}

/** What reproduces a failure: the rule it broke, how far fast-check shrank it, and the options that generate it again. */
function reproduce(o: PropertyOutcome, seed: number, count: number): string[] {
  const f = o.failure!;
  return [
    `generated: ${f.rule}`,
    `shrunk ${f.shrinks} time${f.shrinks === 1 ? '' : 's'} to the request shown; the same inputs again: --generate ${count} --seed ${seed} (fast-check seed ${f.seed}${f.path ? `, path ${f.path}` : ''})`,
  ];
}

function resultOf(o: PropertyOutcome, seed: number, count: number): { result: CaseResult; detail: CaseDetail } {
  const base = { id: o.id, attempts: { passed: o.state === 'passed' ? 1 : 0, total: 1 }, durationMs: o.durationMs, requests: o.requests, observed: [], deviations: [], requirements: { held: [], broken: [] } };
  const rules = Object.entries(o.byRule).map(([rule, n]) => `${n} × ${rule}`);
  switch (o.state) {
    case 'failed':
      return { result: { ...base, state: 'failed', failure: o.failure!.failure }, detail: { steps: reproduce(o, seed, count), lastExchange: o.failure!.exchange } };
    case 'error':
      return { result: { ...base, state: 'error', reason: o.reason, error: new RunnerError(o.errorKind ?? 'runner', o.reason ?? 'the property broke') }, detail: { steps: rules.slice(-5) } };
    case 'not-run':
      return { result: { ...base, state: 'not-run', reason: o.reason, notRun: o.notRun ?? { kind: 'capability', label: o.reason ?? 'not run' } }, detail: { steps: [] } };
    default:
      return { result: { ...base, state: 'passed', ...(o.reason ? { reason: o.reason } : {}) }, detail: { steps: rules } };
  }
}

/** The generation's properties as cases and results, in the order they were generated. */
export function generatedResults(summary: GenerationSummary, seed: number, count: number): { cases: GeneratedCase[]; results: CaseResult[]; details: Map<string, CaseDetail> } {
  const details = new Map<string, CaseDetail>();
  const results = summary.outcomes.map((o) => {
    const { result, detail } = resultOf(o, seed, count);
    details.set(o.id, detail);
    return result;
  });
  return { cases: summary.outcomes.map(caseOf), results, details };
}
