import type { Request } from 'express';
import type { Operation } from '../contract.js';
import type { AuthenticatedKey } from '../store/keys.js';

/** What the pipeline learns about a request before its handler runs. */
export interface RequestContext {
  operation?: Operation;
  params: Record<string, string>;
  key?: AuthenticatedKey;
}

const CONTEXT = Symbol('vault.context');

export function context(req: Request): RequestContext {
  const r = req as Request & { [CONTEXT]?: RequestContext };
  return (r[CONTEXT] ??= { params: {} });
}

export function requireKey(req: Request): AuthenticatedKey {
  const key = context(req).key;
  if (!key) throw new Error('handler of a secured operation ran without a key');
  return key;
}
