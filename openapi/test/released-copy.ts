import { join } from 'node:path';
import { follow, type Node } from '../../scripts/contract/document.js';
import { loadRelease, readRecord } from '../../scripts/contract/released.js';
import { ROOT } from '../../scripts/redocly.js';

/** The last released document (openapi/released/), and the means to change a copy of it, for the contract gate's tests. */

export const RELEASED = join(ROOT, 'openapi', 'released');
export const latest = readRecord(RELEASED).at(-1)!.version;
// The versions after the last release, so that each rule is tried against whatever was released last.
export const [MAJOR, MINOR, PATCH] = latest.split('.').map(Number) as [number, number, number];
export const NEXT_MINOR = `${MAJOR}.${MINOR + 1}.0`;
export const NEXT_PATCH = `${MAJOR}.${MINOR}.${PATCH + 1}`;
export const released = loadRelease(RELEASED, latest);
export const TODAY = '2026-11-23';

export const copy = (): Node => structuredClone(released);

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The operation object with this operationId (in the copy, so it can be changed). */
export function operation(doc: Node, operationId: string): Node {
  for (const item of Object.values<Node>(doc.paths)) {
    for (const op of Object.values<Node>(item)) if (op?.operationId === operationId) return op;
  }
  throw new Error(`no operation ${operationId}`);
}

export const resolve = (doc: Node, node: unknown): Node => follow(doc, node, '').node as Node;
export const requestSchema = (doc: Node, id: string) => resolve(doc, resolve(doc, operation(doc, id).requestBody).content['application/json'].schema);
export const responseSchema = (doc: Node, id: string, status: string) =>
  resolve(doc, resolve(doc, operation(doc, id).responses[status]).content['application/json'].schema);
/** The `allOf` member of an error response that narrows `code` to the operation's codes. */
export const codeNarrowing = (doc: Node, id: string, status: string): Node =>
  responseSchema(doc, id, status).allOf.find((m: Node) => m.properties?.code).properties.code;
export const parameter = (doc: Node, id: string, name: string): Node =>
  operation(doc, id).parameters.map((p: Node) => resolve(doc, p)).find((p: Node) => p.name === name);
export const bump = (doc: Node, version: string) => {
  doc.info.version = version;
  return doc;
};
