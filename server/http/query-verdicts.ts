import type { Request, RequestHandler } from 'express';
import { context } from './context.js';
import { series } from './pipeline.js';

/** How many query texts are remembered, and the longest one: a caller chooses them. */
const MAX_ENTRIES = 1000;
const MAX_QUERY_LENGTH = 512;

/**
 * Request validation, remembered by query text where nothing else of the request is validated.
 * An operation that takes no body and has no path, header or cookie parameter (the catalog, the
 * recipe lookup, the health check) gives the validator, for a request without a Content-Type
 * (which it reads too) and without a body, nothing to read but the query: its verdict, and the
 * `req.query` it leaves, depend only on the method, the operation and the raw query text. A request
 * it let through is remembered by that text, and the next one with the same text gets the same
 * `req.query`, set as the validator sets it, without validating again. A refusal is never
 * remembered: it is made again each time. `server/test/query-verdicts.test.ts` holds the
 * remembered outcome to the validator's, for generated queries.
 */
export function rememberVerdicts(requests: RequestHandler[]): RequestHandler {
  const validate = series(requests);
  const passed = new Map<string, Record<string, unknown>>();
  return (req, res, next) => {
    const op = context(req).operation;
    if (!op?.queryOnly || req.headers['content-type'] !== undefined || req.body !== undefined) return validate(req, res, next);
    const at = req.originalUrl.indexOf('?');
    const text = at < 0 ? '' : req.originalUrl.slice(at);
    if (text.length > MAX_QUERY_LENGTH) return validate(req, res, next);
    const key = `${req.method} ${op.operationId} ${text}`;
    const query = passed.get(key);
    if (query) {
      setQuery(req, { ...query });
      return next();
    }
    return validate(req, res, (err?: unknown) => {
      if (err === undefined || err === null) remember(req, key, passed);
      next(err);
    });
  };
}

/**
 * Keeps what the validator left in `req.query`: only an own property it set (for a method the
 * document does not give the path, such as HEAD, it sets none and validates nothing), and only
 * values a copy of the object carries whole.
 */
function remember(req: Request, key: string, passed: Map<string, Record<string, unknown>>): void {
  const own = Object.getOwnPropertyDescriptor(req, 'query');
  const query = own?.value as Record<string, unknown> | undefined;
  if (!own || own.get || !query || Object.getPrototypeOf(query) !== Object.prototype) return;
  if (!Object.values(query).every((v) => v === null || typeof v !== 'object')) return;
  if (passed.size >= MAX_ENTRIES) passed.delete(passed.keys().next().value!);
  passed.set(key, { ...query });
}

/** As express-openapi-validator leaves it: an own, writable data property (Express 5's is a getter). */
function setQuery(req: Request, query: Record<string, unknown>): void {
  Object.defineProperty(req, 'query', { writable: true, value: query });
}
