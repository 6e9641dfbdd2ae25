// The reference's error-code sections, written from the document: each code of `ApiErrorCode` with
// the statuses and operations that answer it (read from every operation's responses), its meaning
// (`x-enumDescriptions`) and its handling (`x-errorHandling`); and each code of `ClientErrorCode`
// with its meaning. The rendered page and the Markdown reference print the same text.
import { errorCodes } from '../../client/scripts/document-module.js';

type Node = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The headings of the two sections, and Redoc's route to the first (`#/section/<heading, dashed>`). */
export const ERROR_CODES_HEADING = 'Error codes';
export const CLIENT_CODES_HEADING = 'Client and proxy error codes';
export const REDOC_ERROR_CODES = '#/section/error-codes';
/** The second column of the narrow table of API codes. */
export const NARROW_COLUMN = 'Status, meaning, retry, what to do, operations';

export interface ErrorCodeRow {
  code: string;
  statuses: string[];
  /** operationId to the statuses that answer the code there, in the document's order. */
  operations: Map<string, string[]>;
  /** operationIds whose limit answering this code carries `Retry-After` (root `x-limits`). */
  withRetryAfter: Set<string>;
  meaning: string;
  retry: string;
  action: string;
}

function schemaOf(doc: Node, name: string): Node {
  const schema = doc.components?.schemas?.[name];
  if (!schema || !Array.isArray(schema.enum)) throw new Error(`docs: the document has no ${name} enum`);
  return schema;
}

/** Every operation of the document with its method and path. */
export function everyOperation(doc: Node): Array<{ path: string; method: string; op: Node }> {
  const out = [];
  for (const [path, item] of Object.entries<Node>(doc.paths ?? {})) {
    for (const method of METHODS) if (item[method]) out.push({ path, method, op: item[method] as Node });
  }
  return out;
}

export function errorCodeRows(doc: Node): ErrorCodeRow[] {
  const schema = schemaOf(doc, 'ApiErrorCode');
  const meanings: Node = schema['x-enumDescriptions'] ?? {};
  const handling: Node = schema['x-errorHandling'] ?? {};
  const rows = new Map<string, ErrorCodeRow>();
  for (const code of schema.enum as string[]) {
    if (!meanings[code] || !handling[code]?.retry || !handling[code]?.action) {
      throw new Error(`docs: ApiErrorCode's ${code} needs a meaning (x-enumDescriptions) and a retry and an action (x-errorHandling)`);
    }
    rows.set(code, { code, statuses: [], operations: new Map(), withRetryAfter: new Set(), meaning: meanings[code], retry: handling[code].retry, action: handling[code].action });
  }
  const limits: Node = doc['x-limits'] ?? {};
  for (const { op } of everyOperation(doc)) {
    for (const [status, codes] of errorCodes(doc, op)) {
      for (const code of codes) {
        const row = rows.get(code);
        if (!row) continue; // a ClientErrorCode reached through Error's anyOf: never an answer of the API
        if (!row.statuses.includes(status)) row.statuses.push(status);
        row.operations.set(op.operationId, [...(row.operations.get(op.operationId) ?? []), status]);
        const carries = (op['x-limits'] ?? []).some((id: string) => limits[id]?.code === code && String(limits[id]?.status) === status && limits[id]?.retryAfter === true);
        if (carries) row.withRetryAfter.add(op.operationId);
      }
    }
  }
  for (const row of rows.values()) row.statuses.sort();
  return [...rows.values()];
}

const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** The codes' table: one row per code, linking each operation by `link(operationId)`. */
/**
 * The API's codes as a table. `narrow` is for a column a few hundred pixels wide (the HTML page's
 * introduction): two columns, the code kept on one line, and its statuses, meaning, retry, what to
 * do and operations as one paragraph beside it, so the table neither wraps a code nor scrolls.
 */
export function errorCodesMarkdown(doc: Node, link: (operationId: string) => string, narrow = false): string {
  const lines = [
    'Every `code` the HTTP API answers, with its status, the operations that answer it, what it means,',
    'whether to send the request again and what to do. Branch on `code`, never on `error`, whose',
    'wording may change. `rate_limited` carries `Retry-After` on the operations marked "(Retry-After)".',
    '',
    ...(narrow ? [`| Code | ${NARROW_COLUMN} |`, '| - | - |'] : ['| Code | Status | Operations | Meaning | Retry | What to do |', '| - | - | - | - | - | - |']),
  ];
  const count = everyOperation(doc).length;
  for (const row of errorCodeRows(doc)) {
    // Statuses every operation answers with this code (the HTTP layer's) are said once.
    const everywhere = row.statuses.filter((s) => [...row.operations.values()].filter((statuses) => statuses.includes(s)).length === count);
    const ops = [...row.operations.entries()]
      .map(([id, all]) => [id, all.filter((s) => !everywhere.includes(s))] as const)
      .filter(([, statuses]) => statuses.length > 0)
      .map(([id, statuses]) => `${link(id)}${row.statuses.length > 1 ? ` ${statuses.join(', ')}` : ''}${row.withRetryAfter.has(id) ? ' (Retry-After)' : ''}`);
    if (everywhere.length > 0) ops.unshift(`every operation ${everywhere.join(', ')}`);
    if (narrow) {
      lines.push(`| \`${row.code}\` | **${row.statuses.join(', ')}.** ${cell(row.meaning)} **Retry:** ${cell(row.retry)} **What to do:** ${cell(row.action)} **Answered by:** ${ops.join(', ') || 'none'}. |`);
    } else {
      lines.push(`| \`${row.code}\` | ${row.statuses.join(', ')} | ${ops.join(', ') || 'none'} | ${cell(row.meaning)} | ${cell(row.retry)} | ${cell(row.action)} |`);
    }
  }
  return lines.join('\n');
}

/** The client and proxy codes (section 7.2), in plain words. */
export function clientCodesMarkdown(doc: Node): string {
  const schema = schemaOf(doc, 'ClientErrorCode');
  const meanings: Node = schema['x-enumDescriptions'] ?? {};
  const lines = [
    'The client library, the proxy and the dashboard raise these codes in the same `{code, error}`',
    'shape. The HTTP API above never answers them, and the specification gives them no HTTP status.',
    'The TypeScript client lists them as `CLIENT_ERROR_CODES`, with these meanings in',
    '`CLIENT_ERROR_MEANINGS`.',
    '',
    '| Code | Meaning and what to do |',
    '| - | - |',
  ];
  for (const code of schema.enum as string[]) {
    if (!meanings[code]) throw new Error(`docs: ClientErrorCode's ${code} has no meaning (x-enumDescriptions)`);
    lines.push(`| \`${code}\` | ${cell(meanings[code])} |`);
  }
  return lines.join('\n');
}

/** The codes one response answers, for its own table or list. */
export function responseCodes(doc: Node, op: Node, status: string): string[] {
  return errorCodes(doc, op).find(([s]) => s === status)?.[1] ?? [];
}
