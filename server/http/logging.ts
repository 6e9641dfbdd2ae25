import type { Request, RequestHandler } from 'express';
import { context } from './context.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';

export type Log = (line: Record<string, unknown>) => void;

/**
 * JSON lines on stdout. The lines of one event-loop turn go out in one write, in order: a write per
 * request costs a system call each, and stdout blocks on Linux whether it is a file or a pipe.
 */
export const jsonLog: Log = (line) => {
  if (pending === '') setImmediate(flushLog);
  pending += `${jsonLine(line)}\n`;
};

/**
 * `JSON.stringify({ time, ...line })`, the time first, written without copying the line into a new
 * object, and with the time's text made once per millisecond: this runs for every request.
 */
function jsonLine(line: Record<string, unknown>): string {
  const now = Date.now();
  if (now !== timeMs) {
    timeMs = now;
    timeText = new Date(now).toISOString();
  }
  if (Object.hasOwn(line, 'time')) return JSON.stringify({ time: timeText, ...line });
  const members = JSON.stringify(line);
  return members === '{}' ? `{"time":"${timeText}"}` : `{"time":"${timeText}",${members.slice(1)}`;
}

let timeMs = Number.NaN;
let timeText = '';

let pending = '';
function flushLog(): void {
  if (pending === '') return;
  process.stdout.write(pending);
  pending = '';
}
process.on('exit', flushLog);

// A path segment this long may be a credential (an account-holder link token); shorter ones are
// the documented literals and ids.
const TOKEN_LIKE = /^[^/]{17,}$/;

/**
 * The path as it may be logged: the documented template when an operation matched (so the token of
 * `/v1/approvals/{token}` never reaches a log), otherwise the request path with long segments redacted.
 */
export function loggedPath(req: Request): string {
  const op = context(req).operation;
  if (op) return op.path;
  return req.path
    .split('/')
    .map((segment) => (TOKEN_LIKE.test(segment) ? '{redacted}' : segment))
    .join('/');
}

/** One line per request: never the key, a query value, a link token or a body, which may carry secrets. */
export function requestLog(log: Log): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const requestId = requestIdOf(req.headers['x-request-id']);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    res.on('finish', () => {
      log({
        requestId,
        method: req.method,
        path: loggedPath(req),
        operation: context(req).operation?.operationId,
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 1000) / 1000,
        key: context(req).key?.id,
      });
    });
    next();
  };
}
