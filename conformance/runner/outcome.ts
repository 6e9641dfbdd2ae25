import type { Exchange } from './exchange.js';

/** Where an expectation is written: a JSON pointer into the document and sections of the specification. */
export interface Source {
  pointer?: string;
  sections: string[];
}

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

/** The runner, the driver or the network failed; never a verdict on the deployment. */
export class RunnerError extends Error {
  constructor(
    readonly kind: 'network' | 'driver' | 'runner' | 'timeout',
    message: string,
    readonly exchange?: Exchange,
  ) {
    super(message);
  }
}

/** Found while running: the case cannot run here (a deployment setting it cannot meet, say). */
export class NotRun extends Error {}

export type State = 'passed' | 'failed' | 'error' | 'not-run';

export interface CaseResult {
  id: string;
  state: State;
  /** For `not-run`: why. For `error`: what broke. */
  reason?: string;
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
}
