import type { Request, RequestHandler } from 'express';
import type { Contract, Operation } from '../../contract.js';
import { context } from '../context.js';
import { CONTENT_SECURITY_POLICY } from './html.js';

/**
 * Which answers may be an HTML page, read from the document: the responses that list `text/html`
 * beside their JSON (the account-holder links). A browser asks for HTML first; a program that asks
 * for JSON, for anything (`*` / `*`), or sends no Accept, gets JSON as it always has.
 */

const HTML = 'text/html';

/** operationId -> the statuses whose documented response offers a page. */
export function htmlResponses(contract: Contract): Map<string, Set<number>> {
  const offers = new Map<string, Set<number>>();
  for (const op of contract.operations.values()) {
    const statuses = new Set<number>();
    for (const [status, raw] of Object.entries((op.raw.responses ?? {}) as Record<string, unknown>)) {
      if (contract.resolve(raw)?.content?.[HTML] !== undefined) statuses.add(Number(status));
    }
    if (statuses.size > 0) offers.set(op.operationId, statuses);
  }
  return offers;
}

/** Whether the request's Accept prefers a page to JSON; on a tie or a wildcard, JSON wins. */
export function prefersHtml(req: Request): boolean {
  return req.accepts(['application/json', HTML]) === HTML;
}

export interface Pages {
  /** Whether this answer of this request is sent as a page. */
  wanted(req: Request, status: number): boolean;
  /**
   * The headers of every answer of an operation that offers pages, JSON included, set before
   * anything can answer: the JSON and the page of one link carry the same ones.
   */
  headers: RequestHandler;
}

export function pages(contract: Contract): Pages {
  const offers = htmlResponses(contract);
  const offered = (op: Operation | undefined) => (op ? offers.get(op.operationId) : undefined);
  return {
    wanted: (req, status) => offered(context(req).operation)?.has(status) === true && prefersHtml(req),
    headers: (req, res, next) => {
      if (offered(context(req).operation)) {
        res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Referrer-Policy', 'no-referrer');
        res.setHeader('Vary', 'Accept');
      }
      next();
    },
  };
}
