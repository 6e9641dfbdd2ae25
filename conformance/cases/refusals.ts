import type { CaseContext } from '../runner/context.js';
import { describeResponse } from '../runner/context.js';
import type { Exchange } from '../runner/exchange.js';

/**
 * A refusal proves its rule only when the same request without the one flaw is accepted: otherwise
 * the deployment may have refused something else about it (a recipe format of its own, a member it
 * reads first), and the refusal proves nothing. As mutation testing counts a mutant killed only
 * when the unmutated program passes, the control is sent first; when it is not accepted, the case
 * is not run, with the reason.
 */
export async function againstControl(ctx: CaseContext, what: string, control: () => Promise<Exchange>, accepted: (ex: Exchange) => boolean, remedy: string): Promise<Exchange> {
  const ex = await control();
  ctx.precondition(accepted(ex), `the same request without the flaw accepted (${what})`, () => describeResponse(ex), remedy, ex);
  ctx.step(`control accepted: ${what} (${ex.response.status})`);
  return ex;
}

/** A 2xx answer. */
export const succeeded = (ex: Exchange) => ex.response.status >= 200 && ex.response.status <= 299;
