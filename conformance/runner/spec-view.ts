import type { Node } from './json.js';
import { reference, type Basis } from './basis.js';

/**
 * The specification's view of the document: a copy with every constraint whose `x-basis` names the
 * reference server's own choice taken out (a `required` member, a closed object, a header's value,
 * a page beside the JSON, a member's or an array's items' schema). The document describes the
 * reference in full; this view holds only the rules a deployment is bound by. openapi/extensions.md
 * describes the marks, and the lint rule `vault/constraint-basis` keeps them complete.
 */

/** `required/<member>` and JSON-pointer-like segments (`~1` for `/`, `~0` for `~`). */
export function markSegments(key: string): string[] {
  return key.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A mark's value as the runner's Basis: `{spec}`, `{http}` or `{reference}`. */
export function basisOfMark(mark: Node): Basis | undefined {
  if (!mark || typeof mark !== 'object') return undefined;
  if (typeof mark.reference === 'string') return reference(mark.reference);
  if (typeof mark.http === 'string') return { kind: 'http', cite: mark.http };
  if (mark.spec !== undefined) return { kind: 'spec', sections: (Array.isArray(mark.spec) ? mark.spec : [mark.spec]).map(String) };
  return undefined;
}

/** The reference marks of a node, by constraint path. */
export function referenceMarks(node: Node): [string, string][] {
  const marks = node && typeof node === 'object' ? node['x-basis'] : undefined;
  if (!marks || typeof marks !== 'object') return [];
  return Object.entries<Node>(marks).filter(([, v]) => typeof v?.reference === 'string').map(([k, v]) => [k, v.reference as string]);
}

function removeConstraint(node: Node, key: string): void {
  const parts = markSegments(key);
  if (parts[0] === 'required' && parts.length === 2) {
    if (Array.isArray(node.required)) node.required = node.required.filter((m: string) => m !== parts[1]);
    return;
  }
  let parent = node;
  for (const part of parts.slice(0, -1)) {
    // A mark names a path inside its own node; a `$ref` on the way would reach a shared node.
    if (!parent || typeof parent !== 'object' || typeof parent.$ref === 'string') return;
    parent = parent[part];
  }
  if (parent && typeof parent === 'object' && typeof parent.$ref !== 'string') delete parent[parts.at(-1)!];
}

function strip(node: Node): void {
  if (Array.isArray(node)) {
    for (const item of node) strip(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key] of referenceMarks(node)) removeConstraint(node, key);
  for (const value of Object.values(node)) strip(value);
}

export function specView(doc: Node): Node {
  const copy = structuredClone(doc);
  strip(copy);
  return copy;
}
