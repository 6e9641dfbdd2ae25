import type { Node } from './json.js';
import { reference, type Basis } from './basis.js';
import { isRequirementId, requirement, type HttpRequirementId, type SpecRequirementId } from '../requirements/index.js';

/**
 * The specification's view of the document, derived from the requirements: a copy that keeps a
 * constraint of a response only where an `x-basis` mark names the requirement that states it. The
 * document describes the reference server in full, its own choices included; everything in it that
 * no requirement states (a member's type the specification never gives, a closed object, a header
 * value) is left out of this view, so it can fail no deployment judged by the specification: a
 * departure from it is a deviation. openapi/extensions.md describes the marks.
 *
 * Within a schema, assertion keywords (`type`, `enum`, `pattern`, `required/<member>`, a closed
 * `additionalProperties` …) are kept only when marked. Structure is followed: `properties`,
 * `items`, `allOf`, `anyOf` and the branches of a condition are views too; a mark on a structural
 * path keeps that subschema whole (a requirement) or drops it (a reference choice). `oneOf` becomes
 * `anyOf` unless marked, since the exclusivity of branches whose assertions were dropped is nobody's
 * rule; an `if` is kept as written, since it selects a branch and asserts nothing.
 */

/** `required/<member>` and JSON-pointer-like segments (`~1` for `/`, `~0` for `~`). */
export function markSegments(key: string): string[] {
  return key.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A mark's value as the runner's Basis: `{spec: id | [ids]}`, `{http: id}` or `{reference: why}`. */
export function basisOfMark(mark: Node): Basis | undefined {
  if (!mark || typeof mark !== 'object') return undefined;
  if (typeof mark.reference === 'string') return reference(mark.reference);
  const ids = (value: Node): string[] => (Array.isArray(value) ? value : [value]).map(String);
  if (mark.http !== undefined) return { kind: 'http', requirements: checked(ids(mark.http), 'http') as HttpRequirementId[] };
  if (mark.spec !== undefined) return { kind: 'spec', requirements: checked(ids(mark.spec), 'spec') as SpecRequirementId[] };
  return undefined;
}

function checked(ids: string[], kind: 'spec' | 'http'): string[] {
  for (const id of ids) {
    if (!isRequirementId(id)) throw new Error(`x-basis names ${id}, which is no requirement of the catalogue`);
    if (('rfc' in requirement(id).place) !== (kind === 'http')) throw new Error(`x-basis {${kind}: ${id}} names a requirement of the other kind`);
  }
  return ids;
}

/** Whether a node's mark at `path` names a requirement (spec or HTTP). */
function required(marks: Node, path: string): Basis | undefined {
  const basis = basisOfMark(marks?.[path]);
  return basis && basis.kind !== 'reference' ? basis : undefined;
}

function isReference(marks: Node, path: string): boolean {
  return basisOfMark(marks?.[path])?.kind === 'reference';
}

/** Keywords that assert something of an instance; kept only when marked. */
const ASSERTIONS = new Set([
  'type', 'enum', 'const', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'contains', 'minContains',
  'maxContains', 'propertyNames', 'dependentRequired', 'dependentSchemas', 'not', 'unevaluatedProperties', 'unevaluatedItems',
]);

/** The basis a kept subtree carries, so a problem found in it names the requirement that kept it. */
const KEPT = 'x-view-basis';

function keepWhole(node: Node, basis: Basis): Node {
  if (Array.isArray(node)) return node.map((n) => keepWhole(n, basis));
  if (!node || typeof node !== 'object') return node;
  const copy: Node = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'x-basis' ? v : keepWhole(v, basis)]));
  if (copy[KEPT] === undefined) copy[KEPT] = { spec: basis.kind === 'spec' ? basis.requirements : undefined, http: basis.kind === 'http' ? basis.requirements : undefined };
  return copy;
}

/** The view of one schema. */
export function viewSchema(node: Node): Node {
  if (Array.isArray(node) || !node || typeof node !== 'object') return node;
  const marks = node['x-basis'] ?? {};
  const out: Node = {};
  for (const [key, value] of Object.entries<Node>(node)) {
    const kept = required(marks, key);
    if (key === '$ref' || key === '$id' || key === '$schema' || key === 'x-basis' || key === KEPT || key === 'if') out[key] = value;
    else if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
      out[key] = Object.fromEntries(
        Object.entries<Node>(value ?? {}).map(([name, sub]) => {
          const path = `${key}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
          const whole = required(marks, path);
          return [name, whole ? keepWhole(sub, whole) : isReference(marks, path) ? {} : viewSchema(sub)];
        }),
      );
    } else if (key === 'items' || key === 'then' || key === 'else' || key === 'contentSchema') {
      out[key] = kept ? keepWhole(value, kept) : isReference(marks, key) ? {} : viewSchema(value);
    } else if (key === 'prefixItems' || key === 'allOf' || key === 'anyOf') out[key] = (value as Node[]).map(viewSchema);
    else if (key === 'oneOf') out[kept ? 'oneOf' : 'anyOf'] = (value as Node[]).map(viewSchema);
    else if (key === 'additionalProperties') {
      if (value === false || value === true) {
        if (kept) out[key] = value;
      } else out[key] = kept ? keepWhole(value, kept) : isReference(marks, key) ? {} : viewSchema(value);
    } else if (key === 'required') {
      const members = (value as string[]).filter((m) => required(marks, `required/${m}`));
      if (members.length > 0) out[key] = members;
    } else if (ASSERTIONS.has(key)) {
      if (kept) out[key] = value;
    } else if (key !== 'discriminator') out[key] = value;
  }
  return out;
}

/** The view of a header object: its `required` and its schema's value only when a requirement states them. */
function viewHeader(node: Node): Node {
  if (!node || typeof node !== 'object' || typeof node.$ref === 'string') return node;
  const marks = node['x-basis'] ?? {};
  const out: Node = { ...node };
  if (!required(marks, 'required')) delete out.required;
  if (node.schema && typeof node.schema === 'object' && typeof node.schema.$ref !== 'string') {
    const schema = { ...node.schema };
    for (const k of ['const', 'enum']) if (!required(marks, `schema/${k}`)) delete schema[k];
    out.schema = schema;
  }
  return out;
}

/** The view of a response: its headers (a response-level mark overrides the header's own) and its schemas. */
function viewResponse(node: Node): Node {
  if (!node || typeof node !== 'object' || typeof node.$ref === 'string') return node;
  const marks = node['x-basis'] ?? {};
  const out: Node = { ...node };
  if (node.headers) {
    out.headers = Object.fromEntries(
      Object.entries<Node>(node.headers)
        .filter(([name]) => !isReference(marks, `headers/${name}`))
        .map(([name, h]) => [name, viewHeader(h)]),
    );
  }
  if (node.content) {
    out.content = Object.fromEntries(Object.entries<Node>(node.content).map(([type, media]) => [type, media?.schema ? { ...media, schema: viewSchema(media.schema) } : media]));
  }
  return out;
}

/**
 * The specification's view of the whole document: every component schema, header and response,
 * and every response an operation writes in place, each seen as above.
 */
export function specView(doc: Node): Node {
  const copy = structuredClone(doc);
  const components = copy.components ?? {};
  for (const [name, schema] of Object.entries<Node>(components.schemas ?? {})) components.schemas[name] = viewSchema(schema);
  for (const [name, header] of Object.entries<Node>(components.headers ?? {})) components.headers[name] = viewHeader(header);
  for (const [name, response] of Object.entries<Node>(components.responses ?? {})) components.responses[name] = viewResponse(response);
  for (const item of Object.values<Node>(copy.paths ?? {})) {
    for (const op of Object.values<Node>(item ?? {})) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      for (const [status, response] of Object.entries<Node>(op.responses)) op.responses[status] = viewResponse(response);
    }
  }
  return copy;
}

/** The basis a kept subtree carries (see `keepWhole`). */
export function keptBasis(schema: Node): Basis | undefined {
  return basisOfMark(schema?.[KEPT]);
}
