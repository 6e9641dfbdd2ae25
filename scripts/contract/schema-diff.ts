// Compares two JSON Schemas (OpenAPI 3.1, allOf already merged) by what they accept, knowing
// whether they describe a request (what clients send) or a response (what servers send).
import { type ChangeKind, type Direction, type Effect, judge, SAFE, type Verdict, CLIENT } from './change.js';
import { equal, escapePointer, follow, isObject, type Node } from './document.js';

export interface SchemaScope {
  from: Node;
  to: Node;
  direction: Direction;
  /** Where the schema is, for messages: `request body`, `response 202`, "parameter `url` (query)". */
  label: string;
  /** An error body: its `code` values are compared as the operation's error codes, not here. */
  errorBody: boolean;
  emit(kind: ChangeKind, verdict: Verdict, message: string, pointer: { from?: string; to?: string }): void;
  docs(part: string): void;
  /** The pairs of schemas being compared, outermost first, so that a recursive schema ends. */
  active: Set<string>;
  /** Names (component or title) of every schema compared, shared by all scopes of one comparison. */
  visited: Set<string>;
}

const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
/** Keywords compared as a whole: added tightens, removed loosens, replaced changes. */
const OTHER_CONSTRAINTS = [
  'pattern', 'format', 'multipleOf', 'uniqueItems', 'not', 'if', 'then', 'else', 'contains', 'prefixItems',
  'propertyNames', 'patternProperties', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties',
  'unevaluatedItems', 'contentMediaType', 'contentEncoding', 'x-ignore-wrong-type',
];
/** Keywords handled by the comparison itself. */
const STRUCTURE = new Set([
  '$ref', 'type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items', 'oneOf', 'anyOf',
  'default', 'x-error-code', ...UPPER_BOUNDS, ...LOWER_BOUNDS, ...OTHER_CONSTRAINTS,
]);

type Types = Set<string> | null;

function types(schema: Node): Types {
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type);
  const values = valuesOf(schema);
  if (values) return new Set(values.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v)));
  return null;
}

/** Whether every value of types `inner` is also of types `outer` (`null` is any type). */
function covers(outer: Types, inner: Types): boolean {
  if (outer === null) return true;
  if (inner === null) return false;
  return [...inner].every((t) => outer.has(t) || (t === 'integer' && outer.has('number')));
}

/** The values a schema allows by its own `const` and `enum` (both: the values in both), or undefined for any. */
function valuesOf(schema: Node): unknown[] | undefined {
  const consts = 'const' in schema ? [schema.const] : undefined;
  const enums: unknown[] | undefined = Array.isArray(schema.enum) ? schema.enum : undefined;
  return intersect(consts, enums);
}

function intersect(a: unknown[] | undefined, b: unknown[] | undefined): unknown[] | undefined {
  if (!a) return b;
  if (!b) return a;
  const keys = new Set(b.map((v) => JSON.stringify(v)));
  return a.filter((v) => keys.has(JSON.stringify(v)));
}

/**
 * The values a schema allows, `anyOf`/`oneOf` included, or undefined for any. allof-merge leaves
 * `{const: not_found}` beside each `anyOf` branch of `Error.code` instead of intersecting them.
 */
export function allowedValues(doc: Node, raw: unknown, depth = 0): unknown[] | undefined {
  const schema = follow(doc, raw, '').node;
  if (!isObject(schema) || depth > 16) return undefined;
  let values = valuesOf(schema);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (!Array.isArray(schema[keyword])) continue;
    const branches = schema[keyword].map((branch: unknown) => allowedValues(doc, branch, depth + 1));
    if (branches.some((b: unknown[] | undefined) => b === undefined)) continue;
    values = intersect(values, branches.flat());
  }
  return values;
}

const show = (value: unknown) => (typeof value === 'string' ? `\`${value}\`` : `\`${JSON.stringify(value)}\``);
const showTypes = (t: Types) => (t === null ? 'any type' : [...t].sort().join(' or '));

function text(scope: SchemaScope, member: string, what: string): string {
  return `${scope.label}${member ? `, member \`${member}\`` : ''}: ${what}`;
}

function branchLabel(doc: Node, branch: unknown, index: number): string {
  const resolved = follow(doc, branch, '');
  const title = isObject(resolved.node) && typeof resolved.node.title === 'string' ? resolved.node.title : undefined;
  return resolved.name ?? title ?? `#${index + 1}`;
}

export function compareSchema(scope: SchemaScope, rawA: unknown, ptrA: string, rawB: unknown, ptrB: string, member = ''): void {
  const a = follow(scope.from, rawA, ptrA);
  const b = follow(scope.to, rawB, ptrB);
  // Only the schemas being compared further up stop a recursion: the same component reached
  // through two members is compared, and reported, under each.
  const active = `${a.pointer}|${b.pointer}`;
  if (scope.active.has(active)) return;
  scope.active.add(active);
  try {
    compareNodes(scope, a, b, member);
  } finally {
    scope.active.delete(active);
  }
}

function compareNodes(scope: SchemaScope, a: { node: unknown; pointer: string; name?: string }, b: { node: unknown; pointer: string; name?: string }, member: string): void {
  // An error body's `code` is compared as the operation's list of error codes (diff.ts).
  if (scope.errorBody && member === 'code') return;
  const sa: Node = a.node === true || a.node === undefined ? {} : a.node === false ? { not: {} } : (a.node as Node);
  const sb: Node = b.node === true || b.node === undefined ? {} : b.node === false ? { not: {} } : (b.node as Node);
  for (const name of [a.name, b.name, sa.title, sb.title]) if (typeof name === 'string') scope.visited.add(name);
  const at = { from: a.pointer, to: b.pointer };
  const change = (kind: ChangeKind, effect: Effect, what: string, where = at) =>
    scope.emit(kind, judge(scope.direction, effect), text(scope, member, what), where);

  compareTypes(sa, sb, change);
  compareValues(sa, sb, change);
  compareBounds(sa, sb, change);
  compareObjects(scope, sa, a.pointer, sb, b.pointer, member);
  compareItems(scope, sa, a.pointer, sb, b.pointer, member, change);
  for (const keyword of ['oneOf', 'anyOf'] as const) compareAlternatives(scope, keyword, sa, a.pointer, sb, b.pointer, member, change);

  if (!equal(sa['x-error-code'], sb['x-error-code'])) {
    scope.emit('validation-code-changed', judge(scope.direction, 'changed'), text(scope, member, `the error code for an invalid value changes from ${show(sa['x-error-code'] ?? 'the operation default')} to ${show(sb['x-error-code'] ?? 'the operation default')}`), at);
  }
  if (!equal(sa.default, sb.default)) {
    // A request default is what the service does when the member is left out: clients that left it out now get another behaviour.
    if (scope.direction === 'request') scope.emit('default-changed', CLIENT, text(scope, member, `the default changes from ${show(sa.default)} to ${show(sb.default)}`), at);
    else scope.docs('defaults');
  }
  const annotations = new Set([...Object.keys(sa), ...Object.keys(sb)].filter((k) => !STRUCTURE.has(k)));
  for (const key of annotations) if (!equal(sa[key], sb[key])) scope.docs(key === 'examples' || key === 'example' ? 'examples' : 'descriptions');
}

type Emit = (kind: ChangeKind, effect: Effect, what: string) => void;

function compareTypes(a: Node, b: Node, change: Emit): void {
  const ta = types(a);
  const tb = types(b);
  if (covers(ta, tb) && covers(tb, ta)) return;
  const effect: Effect = covers(tb, ta) ? 'wider' : covers(ta, tb) ? 'narrower' : 'changed';
  change('type-changed', effect, `type changes from ${showTypes(ta)} to ${showTypes(tb)}`);
}

function compareValues(a: Node, b: Node, change: Emit): void {
  const va = valuesOf(a);
  const vb = valuesOf(b);
  if (!va && !vb) return;
  if (!va) return change('enum-narrowed', 'narrower', `now limited to ${vb!.map(show).join(', ')}`);
  if (!vb) return change('enum-widened', 'wider', `no longer limited to ${va.map(show).join(', ')}`);
  const key = (v: unknown) => JSON.stringify(v);
  const inB = new Set(vb.map(key));
  const inA = new Set(va.map(key));
  const removed = va.filter((v) => !inB.has(key(v)));
  const added = vb.filter((v) => !inA.has(key(v)));
  if (removed.length > 0) change('enum-narrowed', 'narrower', `value${removed.length > 1 ? 's' : ''} ${removed.map(show).join(', ')} removed`);
  if (added.length > 0) change('enum-widened', 'wider', `value${added.length > 1 ? 's' : ''} ${added.map(show).join(', ')} added`);
}

function compareBounds(a: Node, b: Node, change: Emit): void {
  for (const [keywords, tighter] of [
    [UPPER_BOUNDS, (x: number, y: number) => y < x],
    [LOWER_BOUNDS, (x: number, y: number) => y > x],
  ] as const) {
    for (const k of keywords) {
      const x = a[k];
      const y = b[k];
      if (x === y) continue;
      const narrower = x === undefined || (y !== undefined && tighter(x, y));
      const what = x === undefined ? `\`${k}\` ${y} added` : y === undefined ? `\`${k}\` ${x} removed` : `\`${k}\` changes from ${x} to ${y}`;
      change(narrower ? 'constraint-tightened' : 'constraint-loosened', narrower ? 'narrower' : 'wider', what);
    }
  }
  for (const k of OTHER_CONSTRAINTS) {
    if (equal(a[k], b[k])) continue;
    if (a[k] === undefined || (k === 'uniqueItems' && !a[k])) change('constraint-tightened', 'narrower', `\`${k}\` ${show(b[k])} added`);
    else if (b[k] === undefined || (k === 'uniqueItems' && !b[k])) change('constraint-loosened', 'wider', `\`${k}\` ${show(a[k])} removed`);
    else change('constraint-changed', 'changed', `\`${k}\` changes from ${show(a[k])} to ${show(b[k])}`);
  }
}

function compareObjects(scope: SchemaScope, a: Node, ptrA: string, b: Node, ptrB: string, member: string): void {
  const pa: Node = isObject(a.properties) ? a.properties : {};
  const pb: Node = isObject(b.properties) ? b.properties : {};
  const ra = new Set<string>(Array.isArray(a.required) ? a.required : []);
  const rb = new Set<string>(Array.isArray(b.required) ? b.required : []);
  const names = new Set([...Object.keys(pa), ...Object.keys(pb), ...ra, ...rb]);
  const child = (name: string) => (member ? `${member}.${name}` : name);
  const emit = (kind: ChangeKind, verdict: Verdict, name: string, what: string, where: { from?: string; to?: string }) =>
    scope.emit(kind, verdict, text(scope, child(name), what), where);
  for (const name of names) {
    const whereA = `${ptrA}/properties/${escapePointer(name)}`;
    const whereB = `${ptrB}/properties/${escapePointer(name)}`;
    const inA = name in pa || ra.has(name);
    const inB = name in pb || rb.has(name);
    if (inA && !inB) {
      // Clients lose a member they read (response) or a meaning they relied on (request).
      emit('member-removed', CLIENT, name, 'removed', { from: whereA });
      continue;
    }
    if (!inA && inB) {
      if (rb.has(name)) emit('member-added', judge(scope.direction, 'narrower'), name, 'added, and required', { to: whereB });
      else emit('member-added', SAFE, name, 'added (optional)', { to: whereB });
      continue;
    }
    if (!ra.has(name) && rb.has(name)) emit('member-required', judge(scope.direction, 'narrower'), name, 'now required', { to: whereB });
    if (ra.has(name) && !rb.has(name)) emit('member-optional', judge(scope.direction, 'wider'), name, 'no longer required', { to: whereB });
    // A member listed in `required` without a schema may hold anything: compare it as `true`.
    if (name in pa || name in pb) compareSchema(scope, pa[name] ?? true, whereA, pb[name] ?? true, whereB, child(name));
  }
  const apA = a.additionalProperties ?? true;
  const apB = b.additionalProperties ?? true;
  if (typeof apA === 'boolean' && typeof apB === 'boolean') {
    if (apA && !apB) scope.emit('constraint-tightened', judge(scope.direction, 'narrower'), text(scope, member, 'no longer allows members it does not list'), { to: ptrB });
    if (!apA && apB) scope.emit('constraint-loosened', judge(scope.direction, 'wider'), text(scope, member, 'now allows members it does not list'), { to: ptrB });
  } else if (isObject(apA) && isObject(apB)) {
    compareSchema(scope, apA, `${ptrA}/additionalProperties`, apB, `${ptrB}/additionalProperties`, member ? `${member}.*` : '*');
  } else {
    scope.emit('constraint-changed', judge(scope.direction, 'changed'), text(scope, member, '`additionalProperties` changes'), { to: ptrB });
  }
}

function compareItems(scope: SchemaScope, a: Node, ptrA: string, b: Node, ptrB: string, member: string, change: Emit): void {
  if (a.items === undefined && b.items === undefined) return;
  if (a.items === undefined) return change('constraint-tightened', 'narrower', '`items` added');
  if (b.items === undefined) return change('constraint-loosened', 'wider', '`items` removed');
  compareSchema(scope, a.items, `${ptrA}/items`, b.items, `${ptrB}/items`, `${member}[]`);
}

function compareAlternatives(scope: SchemaScope, keyword: 'oneOf' | 'anyOf', a: Node, ptrA: string, b: Node, ptrB: string, member: string, change: Emit): void {
  const xa: unknown[] | undefined = Array.isArray(a[keyword]) ? a[keyword] : undefined;
  const xb: unknown[] | undefined = Array.isArray(b[keyword]) ? b[keyword] : undefined;
  if (!xa && !xb) return;
  if (!xa) return change('constraint-tightened', 'narrower', `\`${keyword}\` added`);
  if (!xb) return change('constraint-loosened', 'wider', `\`${keyword}\` removed`);
  // Alternatives pair by the component they name (or their title), then by position: a
  // reordering is no change, and a changed alternative is compared with its own former self.
  const la = xa.map((x, i) => branchLabel(scope.from, x, i));
  const lb = xb.map((x, i) => branchLabel(scope.to, x, i));
  const paired = new Set<number>();
  xa.forEach((x, i) => {
    const j = lb.indexOf(la[i]!);
    const where = { from: `${ptrA}/${keyword}/${i}` };
    if (j < 0) {
      scope.emit('alternative-removed', judge(scope.direction, 'narrower'), text(scope, member, `alternative ${la[i]} removed`), where);
      return;
    }
    paired.add(j);
    compareSchema(scope, x, `${ptrA}/${keyword}/${i}`, xb[j], `${ptrB}/${keyword}/${j}`, `${member}(${la[i]})`);
  });
  lb.forEach((label, j) => {
    if (!paired.has(j)) scope.emit('alternative-added', judge(scope.direction, 'wider'), text(scope, member, `alternative ${label} added`), { to: `${ptrB}/${keyword}/${j}` });
  });
}
