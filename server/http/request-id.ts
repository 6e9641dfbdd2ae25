import { randomUUID } from 'node:crypto';

/**
 * The id of one request, sent back as `X-Request-Id` on every answer and written to its log line, so
 * that a support conversation can quote it. A caller's own id is kept when it is usable (so the
 * caller's logs and the server's meet), and replaced otherwise: the value is echoed into a header and
 * a log, so only a short run of characters that are safe in both is taken, never the raw value.
 * A header sent twice arrives joined by ", " and is replaced too.
 */
export const REQUEST_ID_HEADER = 'X-Request-Id';
const USABLE = /^[A-Za-z0-9._:+/=-]{1,128}$/;

/** The id of a request that sent `sent` as its X-Request-Id (a new one when it sent none). */
export function requestIdOf(sent?: string | string[]): string {
  return typeof sent === 'string' && USABLE.test(sent) ? sent : randomUUID();
}
