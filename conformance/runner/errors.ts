/**
 * The runner, the driver or the network failed, or a signal stopped the run (`interrupted`); never
 * a verdict on the deployment.
 */
export class RunnerError extends Error {
  constructor(
    readonly kind: 'network' | 'driver' | 'runner' | 'timeout' | 'interrupted',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why a case did not run, as data the exit status is decided by:
 * - `choice`: the user left it out (`--only`, `--skip`, `--section`, `--level`, no `--spend`);
 *   reported, and never a change of the exit status;
 * - `capability`: the run lacked something the case needs (the driver, a method of it, a manual
 *   clock, a key, a deployment setting in the range the case can test); the run is incomplete
 *   (exit 4) unless the user accepts it (`--accept-incomplete`);
 * - `stopped`: `--max-failures`, or a signal, ended the run before the case started.
 */
export type NotRunKind = 'choice' | 'capability' | 'stopped';

/**
 * Found while running: the case cannot run here (a deployment setting it cannot meet, say).
 * `label` names the cause in a few words, the same for every case it stops, so that a summary
 * can count cases by it.
 */
export class NotRun extends Error {
  constructor(
    message: string,
    readonly kind: NotRunKind = 'capability',
    readonly label: string = message,
  ) {
    super(message);
  }
}
