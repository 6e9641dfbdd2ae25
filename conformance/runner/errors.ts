/** The runner, the driver or the network failed; never a verdict on the deployment. */
export class RunnerError extends Error {
  constructor(
    readonly kind: 'network' | 'driver' | 'runner' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

/** Found while running: the case cannot run here (a deployment setting it cannot meet, say). */
export class NotRun extends Error {}
