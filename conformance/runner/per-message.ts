/**
 * Headers that belong to one message, not to what it says: its framing, when it was made, and the
 * ids edges and tracing give each request (RFC 9110 §6.6.1 `Date`; W3C Trace Context
 * `traceparent`; a request or trace id by whatever name an edge uses). Two answers are never
 * compared on them: they differ between two answers to the same request.
 */
const NAMED = new Set([
  'date',
  'age',
  'expires',
  'last-modified',
  'etag',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'traceparent',
  'tracestate',
  'server-timing',
  'cf-ray',
  'x-amz-cf-id',
  'x-cache',
  'x-served-by',
  'x-timer',
  'via',
]);

/** `x-request-id`, `request-id`, `x-trace-id`, `x-correlation-id`, `x-amzn-requestid`, `x-b3-spanid`…: an id given to one message. */
const ID = /(^|-)(request|trace|correlation|span|amzn-request|amzn-trace|b3-(trace|span|parentspan|sampled))-?id$/;

export function isPerMessage(name: string): boolean {
  const lower = name.toLowerCase();
  return NAMED.has(lower) || ID.test(lower) || lower.startsWith('x-b3-');
}

/** The headers of an answer without the per-message ones, in a fixed order, for comparing two answers. */
export function lastingHeaders(headers: Record<string, string>, alsoIgnore: Iterable<string> = []): Record<string, string> {
  const ignored = new Set([...alsoIgnore].map((n) => n.toLowerCase()));
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !isPerMessage(name) && !ignored.has(name.toLowerCase()))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
