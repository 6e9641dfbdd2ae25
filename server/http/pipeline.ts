import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middleware run in order as one: each stage gets `next`, an error (thrown, passed to `next`, or a
 * rejected promise) skips the rest and goes to the error handler, as it would between `app.use`
 * layers, and `next('router')` leaves the series for what comes after it, as it leaves a router.
 * One series instead of a dozen layers: Express's router matches every layer's path and wraps its
 * call on every request, which cost more than most stages do.
 */
export function series(stages: RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    const run: Run = { stages, req, res, done, index: 0, next: done };
    // Not a named closure: the TypeScript loader would name each one anew on every request.
    run.next = (err?: unknown) => advance(run, err);
    run.next();
  };
}

interface Run {
  stages: RequestHandler[];
  req: Request;
  res: Response;
  done: NextFunction;
  index: number;
  next: NextFunction;
}

function advance(run: Run, err: unknown): void {
  if (err === 'router') return run.done();
  if (err) return run.done(err);
  const stage = run.stages[run.index++];
  if (!stage) return run.done();
  try {
    const result: unknown = stage(run.req, run.res, run.next);
    if (isPromise(result)) result.then(undefined, (e: unknown) => run.next(e || new Error('Rejected promise')));
  } catch (e) {
    run.next(e);
  }
}

function isPromise(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

/**
 * Goes on once the bytes of the request received so far have been parsed (promise callbacks run
 * after the socket's read has been handled). A refusal after this point finds a body that came with
 * the headers complete, and closes the connection only for a body still unread (http/errors.ts).
 */
export const afterReceived: RequestHandler = (_req, _res, next) => {
  void Promise.resolve().then(() => next());
};
