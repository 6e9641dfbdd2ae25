import type { RequestHandler } from 'express';
import type { Contract } from '../contract.js';
import { ApiError } from '../domain/errors.js';
import { context } from './context.js';

/**
 * Finds the documented operation of a request once; everything after reads it from the context.
 * A path the document does not have leaves the pipeline (`next('router')`, see http/pipeline.ts)
 * for the docs and the back office, and then for unknownPath.
 */
export function matchOperation(contract: Contract): RequestHandler {
  return (req, res, next) => {
    const match = contract.match(req.method, req.path);
    if (match.kind === 'unknown-path') return next('router');
    if (match.kind === 'method-not-allowed') {
      res.setHeader('Allow', match.allow.join(', '));
      throw new ApiError(405, 'bad_request', `${req.method} is not allowed on ${req.path}; use ${match.allow.join(' or ')}.`);
    }
    const ctx = context(req);
    ctx.operation = match.operation;
    ctx.params = match.params;
    next();
  };
}

/** The answer to a path that is no operation, docs page or back-office operation. */
export const unknownPath: RequestHandler = (req) => {
  throw new ApiError(404, 'not_found', `No endpoint at ${req.path}.`);
};
