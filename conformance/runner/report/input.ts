import type { Case } from '../case.js';
import type { ApiDocument } from '../document.js';
import type { CaseResult } from '../outcome.js';
import type { CaseDetail } from '../run.js';
import type { Secrets } from '../secrets.js';
import type { Settings } from '../settings.js';
import type { GenerationSummary } from '../generate/summary.js';
import type { CoverageRow } from './coverage.js';
import type { Tally } from './tally.js';
import type { OperationOf, Recording } from '../har.js';
import type { Canaries } from '../canaries.js';
import type { LeftAccount } from '../ledger.js';

/**
 * Exit status: 0 every case that ran passed and nothing needed was left out; 1 a case failed (or a
 * listed deviation passed); 2 a usage or configuration error; 3 no case failed but some could not
 * be completed (the runner, the driver or the network failed); 4 incomplete: cases could not run for
 * a missing capability, and `--accept-incomplete` was not given; 130 and 143 a signal (SIGINT,
 * SIGTERM) stopped the run, whose reports cover what ran.
 */
export type ExitCode = 0 | 1 | 2 | 3 | 4 | 130 | 143;

export const EXIT_MEANING: Record<ExitCode, string> = {
  0: 'every case that ran passed, and nothing it needed was missing',
  1: 'a case failed (or a case listed as a known deviation passed)',
  2: 'a usage or configuration error',
  3: 'no case failed, but some could not be completed (the runner, the driver or the network failed)',
  4: 'incomplete: cases could not run for a missing capability (accept with --accept-incomplete)',
  130: 'interrupted by SIGINT: the reports cover the cases that ran',
  143: 'interrupted by SIGTERM: the reports cover the cases that ran',
};

/** Everything a report file is made from; each report masks the run's secrets in all it writes. */
export interface ReportInput {
  settings: Settings;
  doc: ApiDocument;
  cases: Case[];
  results: CaseResult[];
  details: Map<string, CaseDetail>;
  coverage: CoverageRow[];
  tally: Tally;
  exitCode: ExitCode;
  startedAt: Date;
  durationMs: number;
  manualClock: boolean;
  secrets: Secrets;
  version: string;
  generation?: GenerationSummary;
  /** The signal that stopped the run (`SIGINT`, `SIGTERM`), when one did: the reports cover what ran. */
  interrupted?: string;
  /** Every exchange of the run, for `--har`. */
  recording?: Recording;
  /** The operation an exchange of a case was for. */
  operationOf?: OperationOf;
  /** The values the runner stored through the driver, which the HAR file masks as it masks secrets. */
  canaries?: Canaries;
  /** Accounts the driver opened and could not delete, with why. */
  leftBehind?: LeftAccount[];
}
