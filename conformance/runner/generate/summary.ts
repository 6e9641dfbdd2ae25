import type { Exchange } from '../exchange.js';
import type { CaseFailure, NotRunKind, RunnerError } from '../outcome.js';

/** What a run of generated inputs leaves for the reports: each property's outcome, and the totals. */

export interface PropertyOutcome {
  id: string;
  operationId: string;
  kind: string;
  state: 'passed' | 'failed' | 'error' | 'not-run';
  /** For `not-run`: the kind of reason and its cause in a few words, as a case's. */
  notRun?: { kind: NotRunKind; label: string };
  /** For `error`: what failed (the network, the driver, a stop's grace running out). */
  errorKind?: RunnerError['kind'];
  durationMs: number;
  requests: number;
  /** Requests per rule broken (or valid shape tried). */
  byRule: Record<string, number>;
  reason?: string;
  failure?: { rule: string; failure: CaseFailure; exchange?: Exchange; seed: number; path?: string; shrinks: number };
}

export interface GenerationSummary {
  outcomes: PropertyOutcome[];
  requests: number;
  durationMs: number;
}
