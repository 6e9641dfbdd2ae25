import { DEFAULT_RECEIVER, WebhookHub } from './webhook-receiver.js';
import type { SignatureDeclaration } from './webhook-signature.js';

/**
 * What the webhook cases of a run share: the run's receiver, and what the deployment declares of
 * its signature (the driver's `webhookSignature`, or the options). Kept per run, by its environment.
 */
export interface WebhookSetup {
  hub: WebhookHub;
  signature: SignatureDeclaration;
}

const setups = new WeakMap<object, WebhookSetup>();

export function provideWebhooks(run: object, setup: WebhookSetup): void {
  setups.set(run, setup);
}

/** The run's setup; a run that made none (a case run by hand) gets the default receiver. */
export function webhooksOf(run: object): WebhookSetup {
  let setup = setups.get(run);
  if (!setup) {
    setup = { hub: new WebhookHub(DEFAULT_RECEIVER), signature: {} };
    setups.set(run, setup);
  }
  return setup;
}
