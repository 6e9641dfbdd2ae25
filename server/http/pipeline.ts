import type { NextFunction, RequestHandler } from 'express';

/**
 * Middleware run in order as one: each stage gets `next`, an error (thrown, passed to `next`, or a
 * rejected promise) skips the rest and goes to the error handler, as it would between `app.use`
 * layers, and `next('router')` leaves the series for what comes after it, as it leaves a router:
 * a path the document does not have leaves every documented operation's stage at once.
 */
export function series(stages: RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let index = 0;
    const next: NextFunction = (err?: unknown) => {
      if (err === 'router') return done();
      if (err) return done(err);
      const stage = stages[index++];
      if (!stage) return done();
      try {
        const result: unknown = stage(req, res, next);
        if (isPromise(result)) result.then(undefined, (e: unknown) => next(e || new Error('Rejected promise')));
      } catch (e) {
        next(e);
      }
    };
    next();
  };
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
