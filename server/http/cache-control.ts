import type { RequestHandler } from 'express';
import { context } from './context.js';

/**
 * `Cache-Control: no-store` on every answer of an operation whose documented responses all carry
 * it (authenticated operations, the account-holder links, the retired createLogin), errors
 * included. Mounted right after the operation is matched, before anything can refuse the request.
 */
export const noStore: RequestHandler = (req, res, next) => {
  if (context(req).operation?.noStore) res.setHeader('Cache-Control', 'no-store');
  next();
};
