import type { ErrorRequestHandler, Response } from 'express';
import type { Contract } from '../contract.js';
import { ApiError } from '../domain/errors.js';
import { storageFull, storeUnavailable } from '../domain/storage.js';
import { isStorageFull, StoreUnavailableError } from '../store/db.js';
import { invalidRecipe, submissionProblems } from '../domain/recipes.js';
import { context } from './context.js';
import { hasBody } from './body.js';
import { loggedPath, type Log } from './logging.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { describeProblems, type ValidatorProblem } from './validation-codes.js';
import type { Pages } from './pages/negotiation.js';
import { sendPage } from './pages/html.js';
import { errorPage } from './pages/error-page.js';
import { linkPageOf } from './links.js';

interface ValidatorError {
  status: number;
  message: string;
  errors?: ValidatorProblem[];
  headers?: Record<string, string>;
}

function isValidatorError(err: unknown): err is ValidatorError {
  return typeof err === 'object' && err !== null && typeof (err as ValidatorError).status === 'number' && Array.isArray((err as ValidatorError).errors);
}

/**
 * The one place an error becomes a response: always the specification's `{code, error}`, never a
 * stack trace. Anything unexpected is a 500 whose details go to the log, not to the caller.
 */
export function errorHandler(contract: Contract, log: (line: Record<string, unknown>) => void, pages?: Pages): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const op = context(req).operation;
    // An answer outside every operation (an unknown path, a method a path does not have) describes
    // only this request: nothing may keep it.
    if (!op && !res.headersSent) res.setHeader('Cache-Control', 'no-store');
    const send = (res: Response, status: number, body: { code: string; error: string } & Record<string, unknown>) => {
      // A browser on an account-holder link reads the same refusal as a page.
      if (pages?.wanted(req, status) && !res.headersSent) {
        closeIfUnread(res);
        return sendPage(res, status, errorPage(status, body.error, linkPageOf(op!.operationId, context(req).params.token ?? '')));
      }
      return sendJson(res, status, body);
    };
    // A write (or a per-minute count) the full storage could not keep: a refusal that says so.
    if (isStorageFull(err)) {
      log({ level: 'error', msg: 'storage full', path: loggedPath(req) });
      err = storageFull();
    } else if (err instanceof StoreUnavailableError) {
      log({ level: 'error', msg: 'database unavailable', path: loggedPath(req), error: (err.cause as Error | undefined)?.message ?? err.message });
      err = storeUnavailable();
    }
    if (err instanceof ApiError) {
      for (const [name, value] of Object.entries(err.extra.headers ?? {})) res.setHeader(name, value);
      if (err.extra.retryAfter !== undefined) res.setHeader('Retry-After', String(err.extra.retryAfter));
      return send(res, err.status, { code: err.code, error: err.message, ...(err.extra.errors ? { errors: err.extra.errors } : {}) });
    }
    if (isValidatorError(err) && err.status < 500) {
      for (const [name, value] of Object.entries(err.headers ?? {})) res.setHeader(name, value);
      if (err.status === 404 || !op) return send(res, 404, { code: 'not_found', error: `No endpoint at ${req.path}.` });
      if (err.status === 405) return send(res, 405, { code: 'bad_request', error: err.message });
      if (err.status === 415) {
        // An account-holder link also takes the form its page posts.
        const types = Object.keys(contract.resolve(op.raw.requestBody)?.content ?? {});
        const error =
          types.length > 1 ? `Send the body with one of these Content-Types: ${types.join(', ')}.` : 'Send the body as JSON, with Content-Type: application/json.';
        // invalid_recipe always lists its problems; the body's media type is the one here.
        const errors = op.validationErrorCode === 'invalid_recipe' ? { errors: [{ path: '', message: 'is not sent with Content-Type: application/json' }] } : {};
        return send(res, 400, { code: op.validationErrorCode, error, ...errors });
      }
      const problems = err.errors ?? [];
      const { code, message } = describeProblems(contract, op, problems);
      if (code === 'invalid_recipe') {
        // `errors` lists the problems of the form the body was meant as (recipe or wrapper) and the
        // registry's own checks, as an accepted-looking body would get them, not the raw anyOf noise.
        const listed = submissionProblems(contract, req.body);
        const refusal = invalidRecipe(listed.length > 0 ? listed : problems.map((p) => ({ path: bodyPointer(p.path), message: p.message })));
        return send(res, 400, { code, error: refusal.message, errors: refusal.extra.errors });
      }
      return send(res, 400, { code, error: message });
    }
    if (isBodyParserError(err)) {
      return send(res, 400, { code: op?.validationErrorCode ?? 'bad_request', error: 'The request body is not valid JSON.' });
    }
    // The request id ties the line to the request's own line and to the answer the caller holds.
    log({ level: 'error', msg: 'unexpected error', requestId: res.getHeader(REQUEST_ID_HEADER), path: loggedPath(req), error: err instanceof Error ? err.message : String(err) });
    return send(res, 500, { code: 'internal_error', error: 'Internal error.' });
  };
}

function sendJson(res: Response, status: number, body: Record<string, unknown>) {
  if (res.headersSent) return res.end();
  closeIfUnread(res);
  // Response validation is for what handlers return; an error body is built here from the document's codes.
  const text = JSON.stringify(body);
  // Set here, not left to Node, which sends no Content-Length on an answer to HEAD (RFC 9110
  // section 9.3.2: the length the GET answer would have).
  res.status(status).type('application/json').setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

// Refused before its body was read (an unknown link, a missing key, a body over the cap): the
// connection closes after the answer, so a slow or unwanted body holds nothing.
function closeIfUnread(res: Response) {
  if (hasBody(res.req.headers) && !res.req.complete) res.setHeader('Connection', 'close');
}

function bodyPointer(path: string | undefined): string {
  return (path ?? '').replace(/^\/body/, '');
}

function isBodyParserError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { type?: string }).type === 'entity.parse.failed';
}

/**
 * After the error handler, for the error it throws itself: Express would otherwise answer with its
 * own page, which names the error. This answer holds nothing of it.
 */
export const lastResort: ErrorRequestHandler = (_err, _req, res, _next) => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify({ code: 'internal_error', error: 'Internal error.' });
  res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
};
