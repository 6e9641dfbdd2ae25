import type { RequestHandler } from 'express';
import { context } from './context.js';

export type Log = (line: Record<string, unknown>) => void;

export const jsonLog: Log = (line) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);

/** One line per request: never the key, a query value or a body, which may carry secrets. */
export function requestLog(log: Log): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      log({
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        key: context(req).key?.id,
      });
    });
    next();
  };
}
