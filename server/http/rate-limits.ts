import type { RequestHandler } from 'express';
import type { LimitDef, Operation } from '../contract.js';
import type { Limiter, LimitCheck } from '../domain/limiter.js';
import { context } from './context.js';

/**
 * The per-minute limits of section 8.3 count requests (catalog reads, login writes), so they are
 * applied here, before the body is read. The other windows (submissions, credential changes,
 * pre-approved signups) count writes and are charged by the domain inside the write.
 */
export function perMinuteLimits(limiter: Limiter): RequestHandler {
  const perMinute = new WeakMap<Operation, LimitDef[]>();
  return (req, _res, next) => {
    const { operation, key } = context(req);
    if (!operation || !key) return next();
    let limits = perMinute.get(operation);
    if (!limits) perMinute.set(operation, (limits = operation.limits.filter((l) => l.kind === 'rate' && l.window?.type === 'fixed')));
    if (limits.length === 0) return next();
    const checks: LimitCheck[] = limits.map((limit) => ({ limit, plan: key.plan, subject: limit.scope === 'account' ? key.account_id : key.id }));
    return limiter.consume(checks).then(() => next());
  };
}
