import type { CaseResult, NotRunKind } from '../outcome.js';
import type { Judgement } from '../basis.js';
import { groupDeviations } from './deviations.js';
import { failureCauses } from './causes.js';

/**
 * The counts every report prints, from one place: each verdict, how much of the catalogue ran,
 * and why the rest did not, counted by the kind and the cause of each reason (never by its words).
 */

/** What a result counts as: a listed case's failure is known; its pass is unexpected. */
/**
 * What a result counts as: a listed case's failure is known; its pass is unexpected. Judging by the
 * specification, a case that proves a choice of the reference is counted apart from the verdicts,
 * as having matched the choice or departed from it.
 */
export type Verdict = 'passed' | 'failed' | 'known' | 'unexpected-pass' | 'error' | 'not-run' | 'matched-reference' | 'departed-reference';

export const VERDICTS: readonly Verdict[] = ['passed', 'failed', 'known', 'unexpected-pass', 'error', 'not-run', 'matched-reference', 'departed-reference'];

export function verdictOf(r: CaseResult): Verdict {
  if (r.state === 'failed') return r.known ? 'known' : 'failed';
  if (r.state === 'passed') return r.known ? 'unexpected-pass' : 'passed';
  if (r.state === 'reference') return r.reference === 'departed' ? 'departed-reference' : 'matched-reference';
  return r.state;
}

/** The cases that proved a choice of the reference, in a few words: `52 reference choices (48 matched, 4 departed)`. */
export function referenceLine(t: Pick<Tally, 'verdicts'>): string | undefined {
  const matched = t.verdicts['matched-reference'];
  const departed = t.verdicts['departed-reference'];
  if (matched + departed === 0) return undefined;
  return `${matched + departed} case${matched + departed === 1 ? '' : 's'} proved only a choice of the reference server, counted apart, neither passed nor failed: ${matched} matched it, ${departed} departed from it`;
}

/** The catalogue the run chose from, and the selection options that left cases out of it. */
export interface Scope {
  catalogue: number;
  /** `--only`, `--skip`, `--section`, `--level must`: those given. */
  selectedBy: string[];
  /** The results that are generated properties (`--generate`), counted apart from the catalogue's cases. */
  generated?: ReadonlySet<string>;
}

export interface Tally {
  catalogue: number;
  /** Cases the selection kept. */
  selected: number;
  /** Cases that ran (passed, failed, known, unexpected pass, error, or a reference choice matched or departed from). Generated properties included. */
  ran: number;
  /** Generated properties among the results, and those of them that ran. */
  generated: { properties: number; ran: number };
  /** Distinct causes of the failures: one fault that fails many cases counts once. */
  failureCauses: number;
  verdicts: Record<Verdict, number>;
  /** Cases not run, by kind; `choice` includes the cases the selection left out. */
  notRun: Record<NotRunKind, number>;
  /** Each cause, with its kind and how many cases it kept from running. */
  reasons: { kind: NotRunKind; label: string; cases: number }[];
  /** Distinct departures from the reference's choices (a rule, broken the same way), however many answers showed each. */
  deviations: number;
  casesWithDeviations: number;
}

export function tally(results: CaseResult[], scope: Scope): Tally {
  const verdicts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  const notRun: Record<NotRunKind, number> = { choice: 0, capability: 0, stopped: 0 };
  const reasons = new Map<string, { kind: NotRunKind; label: string; cases: number }>();
  const generated = results.filter((r) => scope.generated?.has(r.id));
  const leftOut = scope.catalogue - (results.length - generated.length);
  if (leftOut > 0) {
    notRun.choice += leftOut;
    const label = `left out by ${scope.selectedBy.join(', ') || 'the selection'}`;
    reasons.set(`choice ${label}`, { kind: 'choice', label, cases: leftOut });
  }
  for (const r of results) {
    verdicts[verdictOf(r)]++;
    if (r.state !== 'not-run') continue;
    // A result made before kinds existed (or by hand) counts as a missing capability: never silently green.
    const { kind, label } = r.notRun ?? { kind: 'capability' as const, label: r.reason ?? 'not run' };
    notRun[kind]++;
    const entry = reasons.get(`${kind} ${label}`) ?? { kind, label, cases: 0 };
    entry.cases++;
    reasons.set(`${kind} ${label}`, entry);
  }
  return {
    catalogue: scope.catalogue + generated.length,
    selected: results.length,
    ran: results.length - verdicts['not-run'],
    generated: { properties: generated.length, ran: generated.filter((r) => r.state !== 'not-run').length },
    failureCauses: failureCauses(results).length,
    verdicts,
    notRun,
    reasons: [...reasons.values()].sort((a, b) => b.cases - a.cases),
    deviations: groupDeviations(results).length,
    casesWithDeviations: results.filter((r) => r.deviations.length > 0).length,
  };
}

const KIND_WORDS: Record<NotRunKind, string> = { capability: 'for a missing capability', choice: 'by choice', stopped: 'stopped early' };

/** `1 case`, `2 cases`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** One line: how much of the catalogue (and of the generated properties) ran, and why the rest did not, with counts per cause. */
export function ranLine(t: Tally): string {
  const g = t.generated;
  const cases = `catalogue: ${t.ran - g.ran} of ${count(t.catalogue - g.properties, 'case')} ran`;
  const properties = `generated inputs: ${g.ran} of ${count(g.properties, 'property', 'properties')} ran`;
  const line = g.properties === 0 ? cases : t.catalogue === g.properties ? properties : `${cases}; ${properties}`;
  const groups = (['capability', 'choice', 'stopped'] as const)
    .filter((kind) => t.notRun[kind] > 0)
    .map((kind) => `${t.notRun[kind]} ${KIND_WORDS[kind]} [${t.reasons.filter((r) => r.kind === kind).map((r) => `${r.label} (${r.cases})`).join(', ')}]`);
  return groups.length > 0 ? `${line}; not run: ${groups.join('; ')}` : `${line}, all of it`;
}

/** The cases not run, one line per cause with its count: what the console prints in place of a line per case. */
export function notRunLines(t: Tally): string[] {
  const reasons = t.reasons.filter((r) => r.cases > 0);
  if (reasons.length === 0) return [];
  return ['', 'not run, by reason (--verbose lists each case):', ...reasons.map((r) => `  ${String(r.cases).padStart(4)}  ${r.label} (${KIND_WORDS[r.kind]})`)];
}

/** What the exit status says when no case failed or errored and some could not run for a missing capability. */
export function incompleteLine(t: Tally, accepted: boolean): string | undefined {
  const n = t.notRun.capability;
  if (n === 0) return undefined;
  return accepted
    ? `incomplete, accepted (--accept-incomplete): ${n} case${n === 1 ? '' : 's'} could not run for a missing capability`
    : `incomplete: ${n} case${n === 1 ? '' : 's'} could not run for a missing capability; give the run what they need, or accept this with --accept-incomplete (exit 4)`;
}

export function judgementWords(judgement: Judgement): string {
  return judgement === 'spec'
    ? 'judged by the specification: only its rules and HTTP\'s fail a case; a departure from a choice of the reference server is a deviation, reported and never failed'
    : 'judged by the reference: every rule of the document fails a case, the reference server\'s own choices included';
}
