import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';

type Handle = (req: Request, res: Response, callback?: (err?: unknown) => void) => void;

/**
 * Runs `first` on every request before the app's router, with the request set up as Express sets
 * it up (app.handle: the request and response prototypes, `res.locals`; the router: `originalUrl`,
 * `baseUrl`). An error from `first` goes to `errors`, as the router would send it to the app's error
 * handler; leaving it (`next()` or `next('router')`) goes on to the router and the app's layers.
 * Express's router matches every layer's path and wraps every call in closures of its own: for the
 * documented operations, which every API request is, that cost more than most stages do. On the
 * server of http/server.ts, requests and responses are born with these prototypes
 * (http/message-classes.ts), and setting them again changes nothing.
 */
export function handleFirst(app: Express, first: RequestHandler, errors: ErrorRequestHandler): void {
  const router = (app as unknown as { handle: Handle }).handle;
  const request = (app as unknown as { request: object }).request;
  const response = (app as unknown as { response: object }).response;
  (app as unknown as { handle: Handle }).handle = function handle(req, res, callback) {
    const r = req as Request & { res: Response };
    const s = res as Response & { req: Request };
    r.res = res;
    s.req = req;
    Object.setPrototypeOf(req, request);
    Object.setPrototypeOf(res, response);
    if (!res.locals) res.locals = Object.create(null) as Response['locals'];
    // Mounted in another app, whose router has set both (and calls back when this app is done).
    req.originalUrl ??= req.url;
    req.baseUrl ||= '';
    const next = leave(req, res, callback);
    try {
      const result: unknown = first(req, res, next);
      if (result instanceof Promise) result.catch((e: unknown) => next(e ?? new Error('Rejected promise')));
    } catch (e) {
      next(e);
    }
  };

  /** Where a request goes after `first`. An arrow returned, not a named one: see http/pipeline.ts. */
  function leave(req: Request, res: Response, callback?: (err?: unknown) => void): (err?: unknown) => void {
    return (err) => {
      if (err === undefined || err === null || err === 'router') return router.call(app, req, res, callback);
      try {
        errors(err, req, res, () => failed(res));
      } catch {
        failed(res);
      }
    };
  }
}

/** The error handler itself failed: the answer holds nothing of the error. */
function failed(res: Response): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify({ code: 'internal_error', error: 'Internal error.' });
  res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}
