import type { Exchange } from './exchange.js';
import type { NotRunKind, RunnerError } from './errors.js';
import type { Rule } from './basis.js';
import type { RequirementId } from '../requirements/index.js';

export { RunnerError, NotRun, type NotRunKind } from './errors.js';

/** Where an expectation is written: its basis (the requirement it rests on, or the reference's choice) and a JSON pointer into the document. */
export type Source = Rule;

/** The deployment does not conform: what was expected, what came back, and where the rule is written. */
export class CaseFailure extends Error {
  constructor(
    readonly expected: string,
    readonly received: string,
    readonly where: Source,
    readonly exchange?: Exchange,
  ) {
    super(`expected ${expected}; received ${received}`);
  }
}

/**
 * A response had another status or error code than the case expected. Kept apart from what the
 * document's own checks find, since only this is what a fixed window's boundary can change.
 */
export class StatusMismatch extends CaseFailure {}

/**
 * A departure from a rule whose basis is the reference server's own choice, found while judging by
 * the specification: informative, reported apart, never a failure. Same parts as a failure.
 */
export interface Deviation {
  expected: string;
  received: string;
  where: Source;
  /** The first answer it was seen in. */
  exchange?: Exchange;
  /** How many answers of the case showed it (1 when not counted). */
  answers?: number;
}

/** The same departure: the same rule, broken the same way. Reports count answers and cases by it. */
export function sameDeparture(a: Pick<Deviation, 'expected' | 'received'>, b: Pick<Deviation, 'expected' | 'received'>): boolean {
  return a.expected === b.expected && a.received === b.received;
}

/**
 * Thrown where a case cannot go on after departing from a reference choice (a status it expected):
 * judging by the specification, the case ends there, passed, with the deviation recorded.
 */
export class ReferenceDeparture extends Error {
  constructor(readonly deviation: Deviation) {
    super(`deviation: expected ${deviation.expected}; received ${deviation.received}`);
  }
}

/**
 * `reference`: judging by the specification, a case whose rule is only the reference server's
 * choice neither passes nor fails; it is reported apart, as having matched the choice or departed
 * from it.
 */
export type State = 'passed' | 'failed' | 'error' | 'not-run' | 'reference';

export interface CaseResult {
  id: string;
  state: State;
  /** For `not-run`: why. For `error`: what broke. */
  reason?: string;
  /** For `not-run`: the kind of reason (which decides the exit status) and its cause in a few words, to count by. */
  notRun?: { kind: NotRunKind; label: string };
  failure?: CaseFailure;
  error?: RunnerError;
  /** Listed in the known-deviations file, with its reason. */
  known?: string;
  /** How many attempts passed, with `--repeat`. */
  attempts: { passed: number; total: number };
  durationMs: number;
  /** Requests the case sent, and the (operation, status, code) triples it received. */
  requests: number;
  observed: string[];
  /** Departures from the reference server's own choices (judging by the specification only). */
  deviations: Deviation[];
  /** For `reference`: whether the deployment made the reference's choice. */
  reference?: 'matched' | 'departed';
  /** The requirements the case's assertions tried: those that held, and the one that broke. */
  requirements: { held: RequirementId[]; broken: RequirementId[] };
}
