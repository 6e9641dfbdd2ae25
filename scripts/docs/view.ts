// The copy of the API's bundle that the reference pages render (dist/docs/index.html and
// dist/docs/reference.md). The bundle stays as the tools read it; only the reader's view changes:
// - server URLs with their variables filled (Redoc shows `{base_url}` as written, and resolves it
//   against the page after navigation);
// - each error response's body shows its own codes only. The bundle narrows `Error.code` (an anyOf
//   of every API code and every client code) with an allOf; Redoc does not intersect the two and
//   printed the whole enum, client codes included, under a one-code 404. The view gives each error
//   response a plain object whose `code` is the enum of that response, and a link to the codes'
//   reference;
// - the password rule fields show the JSON type they are read as (`x-ignore-wrong-type`): they carry
//   no `type`, so that a wrong-typed value passes every validator, and Redoc printed them as `any`;
// - the introduction gains the integrator's guides (openapi/guides/: the client, the mock, receiving
//   webhooks) after its quickstart, and the error-code reference and the client and proxy codes,
//   written from the document, after its "Errors" section.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientCodesMarkdown, CLIENT_CODES_HEADING, REDOC_ERROR_CODES, ERROR_CODES_HEADING, errorCodesMarkdown, everyOperation, responseCodes } from './error-codes.js';
import { deref, expandServerUrl } from '../code-samples.js';

/** The guides, in the order they are read: each a `## ` section of its own, prose beside the reference. */
export const GUIDES_DIR = join(import.meta.dirname, '..', '..', 'openapi', 'guides');
export const GUIDES = ['client.md', 'mock.md', 'webhooks.md'] as const;

type Node = Record<string, any>;

/** Every server URL of the document (root, path and operation) with its variables filled with their defaults. */
export function withServersFilled(doc: Node): Node {
  const fill = (servers: Node[] | undefined) => servers?.map((server) => ({ url: expandServerUrl(server), ...(server.description ? { description: server.description } : {}) }));
  const copy = structuredClone(doc);
  copy.servers = fill(copy.servers);
  for (const item of Object.values<Node>(copy.paths ?? {})) {
    if (item.servers) item.servers = fill(item.servers);
    for (const op of Object.values<Node>(item)) if (op && typeof op === 'object' && !Array.isArray(op) && op.servers) op.servers = fill(op.servers);
  }
  return copy;
}

/** Whether a JSON body schema is the shared `Error`, narrowed or not. */
function isErrorSchema(doc: Node, schema: Node | undefined): boolean {
  if (!schema) return false;
  if (schema.$ref === '#/components/schemas/Error') return true;
  return (schema.allOf ?? []).some((part: Node) => isErrorSchema(doc, part));
}

/** The plain body an error response shows: `code` limited to the response's own codes. */
function ownCodesBody(doc: Node, codes: string[], status: string, links: Links): Node {
  const error = deref(doc, doc.components.schemas.Error)!;
  const properties: Node = {
    code: { type: 'string', enum: codes, description: `Stable, machine-readable error code. What each means and when to retry: [${ERROR_CODES_HEADING}](${links.errorCodes}).` },
    error: error.properties.error,
  };
  if (status === '400' && codes.includes('invalid_recipe')) properties.errors = error.properties.errors;
  return { type: 'object', required: ['code', 'error'], properties };
}

function withOwnCodes(doc: Node, links: Links): void {
  for (const { op } of everyOperation(doc)) {
    for (const status of Object.keys(op.responses ?? {})) {
      if (status.startsWith('2')) continue;
      // A shared response (`components/responses`) is rewritten once, where it is defined.
      const response = deref(doc, op.responses[status])!;
      const json = response.content?.['application/json'];
      if (!json || !isErrorSchema(doc, json.schema)) continue;
      const codes = responseCodes(doc, op, status);
      json.schema = ownCodesBody(doc, codes, status, links);
      const note = `Codes: ${codes.map((c) => `\`${c}\``).join(', ')} (see [${ERROR_CODES_HEADING}](${links.errorCodes})).`;
      if (!String(response.description ?? '').includes(note)) response.description = `${String(response.description ?? '').trimEnd()}\n\n${note}`;
    }
  }
}

/** Gives each member read as one JSON type (`x-ignore-wrong-type`) that type, for the reader. */
function withReadTypes(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(withReadTypes);
  if (!node || typeof node !== 'object') return;
  const schema = node as Node;
  if (typeof schema['x-ignore-wrong-type'] === 'string' && schema.type === undefined) schema.type = schema['x-ignore-wrong-type'];
  for (const value of Object.values(schema)) withReadTypes(value);
}

/** The introduction with the error-code sections after its "Errors" section (or at its end). */
function withErrorSections(doc: Node, links: Links): void {
  const text = String(doc.info.description ?? '');
  const sections = `## ${ERROR_CODES_HEADING}\n${errorCodesMarkdown(doc, links.operation, links.narrow ?? false)}\n\n## ${CLIENT_CODES_HEADING}\n${clientCodesMarkdown(doc)}\n`;
  const errors = text.search(/^## Errors\s*$/m);
  const next = errors < 0 ? -1 : text.slice(errors + 1).search(/^## /m);
  doc.info.description = next < 0 ? `${text.trimEnd()}\n\n${sections}` : `${text.slice(0, errors + 1 + next)}${sections}\n${text.slice(errors + 1 + next)}`;
}

/** The introduction with the guides after its "Quickstart" section (or at its end). */
function withGuides(doc: Node): void {
  const text = String(doc.info.description ?? '');
  const guides = GUIDES.map((name) => readFileSync(join(GUIDES_DIR, name), 'utf8').trim()).join('\n\n');
  const start = text.search(/^## Quickstart\s*$/m);
  const next = start < 0 ? -1 : text.slice(start + 1).search(/^## /m);
  doc.info.description = next < 0 ? `${text.trimEnd()}\n\n${guides}\n` : `${text.slice(0, start + 1 + next)}${guides}\n\n${text.slice(start + 1 + next)}`;
}

/** Links in a rendering's own terms (Redoc's routes, a Markdown file's anchors). */
export interface Links {
  /** A Markdown link to an operation. */
  operation: (operationId: string) => string;
  /** The address of the error-code reference. */
  errorCodes: string;
  /** Whether the introduction is a narrow column (Redoc's), where the code table takes two columns. */
  narrow?: boolean;
}

/** Redoc's links: its routes `#/<tag>/<operationid>` and `#/section/<heading>`. */
export function redocLinks(doc: Node): Links {
  return { operation: (id) => `[${id}](${redocRoute(doc, id)})`, errorCodes: REDOC_ERROR_CODES, narrow: true };
}

/** The view of the API's bundle that the reference renders. */
export function referenceView(bundle: Node, links: Links): Node {
  const doc = withServersFilled(bundle);
  // The introduction links the codes in Redoc's terms; another rendering has its own.
  doc.info.description = String(doc.info.description ?? '').replaceAll(`](${REDOC_ERROR_CODES})`, `](${links.errorCodes})`);
  withGuides(doc);
  withErrorSections(doc, links);
  withOwnCodes(doc, links);
  withReadTypes(doc.components?.schemas);
  for (const { op } of everyOperation(doc)) withReadTypes(op.requestBody);
  return doc;
}

/** Redoc's route to an operation: `#/<tag, lower case, dashed>/<operationid, lower case>`. */
export function redocRoute(doc: Node, operationId: string): string {
  const found = everyOperation(doc).find(({ op }) => op.operationId === operationId);
  const tag = String(found?.op.tags?.[0] ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return `#/${tag}/${operationId.toLowerCase()}`;
}
