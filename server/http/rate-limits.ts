import type { RequestHandler } from 'express';
import type { Limiter, LimitCheck } from '../domain/limiter.js';
import { context } from './context.js';

export interface PerMinuteSettings {
  /**
   * Whether a request refused after it was counted (a 400 filing, a 409 rotation) stays counted.
   * The reference reads section 8.1 item 4, "a refused request records nothing", as covering every
   * refusal, and takes the count back (false); a deployment may read section 8.3's "filing a request
   * counts" as covering refused filings too (true, VAULT_COUNT_REFUSED_REQUESTS=1).
   */
  countRefused: boolean;
}

/**
 * The per-minute limits of section 8.3 count requests (catalog reads, login writes), so they are
 * applied here, before the body is read. A request answered with an error after that, or ended
 * before its body arrived, is taken back off the count, unless the deployment counts refused requests. The other windows
 * (submissions, credential changes, pre-approved signups) count writes and are charged by the
 * domain inside the write, so a refusal there rolls back with it.
 */
export function perMinuteLimits(limiter: Limiter, settings: PerMinuteSettings = { countRefused: false }): RequestHandler {
  return (req, res, next) => {
    const { operation, key } = context(req);
    if (!operation || !key || operation.perMinuteLimits.length === 0) return next();
    const checks: LimitCheck[] = operation.perMinuteLimits.map((limit) => ({ limit, plan: key.plan, subject: limit.scope === 'account' ? key.account_id : key.id }));
    return limiter.consume(checks).then((counted) => {
      // While the request is in flight it holds its place, so concurrent requests never pass the limit.
      if (!settings.countRefused) {
        // Refused: answered with an error, or never answered before its body had all arrived (the
        // HTTP layer's 408, a client gone mid-body), so nothing was written. A request whose body
        // arrived and whose client left before the answer may have written, and stays counted.
        const takeBack = () => (res.writableFinished ? res.statusCode >= 400 : !req.complete) && limiter.refund(counted);
        if (res.destroyed) takeBack();
        else res.once('close', takeBack);
      }
      next();
    });
  };
}
