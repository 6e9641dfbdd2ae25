// vault/constraint-basis: every constraint of a response that could over-state the specification
// carries its basis in `x-basis` (extensions.md): a requirement of the conformance catalogue
// (conformance/requirements/, of the specification or of HTTP), or the reference server's own
// choice. The conformance runner keeps in its view of the document only what a requirement
// states, so an unmarked constraint binds nobody but the reference; the ones that could be
// mistaken for a rule are asked for a mark here, so that the choice is made in the open.
//
// Lessons:
// - The kinds that over-state are the ones a reader cannot tell from a rule: a `required` member
//   whose name the specification never gives, a closed object, a header value, a page beside the
//   JSON. A type or an enum of a member the specification names is written there too, so it is
//   not asked for here; a mark still works on it when there is one.
// - A mark on a node with no such constraint is refused too: a stale mark reads as a rule.
import { follow, isObject, member, reporter } from './resolve.js';

// A requirement's id; that it exists in the catalogue is the runner's test (conformance/test/requirements.test.ts).
const REQUIREMENT_ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const JSON_MEDIA = 'application/json';
const COMBINATORS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
// `if` and `not` only test a value (a `required` there is a condition), so they constrain nothing.
const SUBSCHEMAS = ['items', 'additionalProperties', 'then', 'else', 'contains', 'unevaluatedProperties'];

/** `required/<member>` and JSON-pointer-like segments, `~1` for `/` and `~0` for `~`. */
function segments(key) {
  return key.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** What is wrong with one basis value, or undefined. */
function basisProblem(value) {
  if (!isObject(value)) return 'is not an object naming one basis ({spec}, {http} or {reference})';
  const kinds = ['spec', 'http', 'reference'].filter((k) => k in value);
  if (kinds.length !== 1 || Object.keys(value).length !== 1) return 'names more or less than one basis: give exactly one of spec, http or reference';
  if (kinds[0] === 'spec' || kinds[0] === 'http') {
    const ids = Array.isArray(value[kinds[0]]) ? value[kinds[0]] : [value[kinds[0]]];
    if (ids.length === 0 || !ids.every((s) => typeof s === 'string' && REQUIREMENT_ID.test(s))) return `gives ${kinds[0]} without naming requirements of the catalogue by id ("tokens-no-store")`;
    if (kinds[0] === 'http' && !ids.every((s) => s.startsWith('http-'))) return 'gives http with a requirement that is not one of HTTP\'s ("http-...")';
  }
  if (kinds[0] === 'reference' && (typeof value.reference !== 'string' || value.reference.trim().length < 10)) return 'gives reference without saying why (what the specification does say)';
  return undefined;
}

/** Whether the constraint `key` exists in `entry` (a followed node): `required/<m>` or a path of members. */
function constraintExists(ctx, entry, key) {
  const parts = segments(key);
  if (parts[0] === 'required' && parts.length === 2) return Array.isArray(entry.node?.required) && entry.node.required.includes(parts[1]);
  let at = entry;
  for (const part of parts) {
    if (!isObject(at.node) || !(part in at.node)) return false;
    at = member(ctx, at, part);
  }
  return true;
}

/** The constraints of a schema node that lint asks a basis for. */
function schemaConstraints(schema) {
  const out = [];
  for (const name of Array.isArray(schema.required) ? schema.required : []) out.push(`required/${name}`);
  if (schema.additionalProperties === false) out.push('additionalProperties');
  if (schema.unevaluatedProperties === false) out.push('unevaluatedProperties');
  return out;
}


/** Whether a mark of `marks` covers `key`, or a path above it (`properties` covers `properties/x/...`). */
function covered(marks, key) {
  return Object.keys(marks).some((m) => m === key || key.startsWith(`${m}/`));
}

function walkSchema(ctx, entry, report, visited) {
  if (!isObject(entry.node)) return;
  const id = `${entry.location.source.absoluteRef}#${entry.location.pointer}`;
  if (visited.has(id)) return;
  visited.add(id);
  const schema = entry.node;
  const marks = isObject(schema['x-basis']) ? schema['x-basis'] : {};
  for (const key of schemaConstraints(schema)) {
    if (!covered(marks, key)) report(`\`${key}\` of a response schema has no basis: add \`x-basis: {${key}: {spec: <requirement id>} | {reference: <why>}}\` (extensions.md).`, entry.location);
  }
  const reference = (path) => Object.entries(marks).some(([m, v]) => (path === m || path.startsWith(`${m}/`)) && isObject(v) && 'reference' in v);
  // What the reference alone constrains is left out of the specification's view whole, so the
  // constraints below it need no marks of their own.
  for (const [name] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
    if (!reference(`properties/${name}`)) walkSchema(ctx, member(ctx, member(ctx, entry, 'properties'), name), report, visited);
  }
  for (const key of COMBINATORS) {
    if (Array.isArray(schema[key]) && !reference(key)) schema[key].forEach((_, i) => walkSchema(ctx, member(ctx, member(ctx, entry, key), i), report, visited));
  }
  for (const key of SUBSCHEMAS) if (isObject(schema[key]) && !reference(key)) walkSchema(ctx, member(ctx, entry, key), report, visited);
}

function checkHeader(ctx, header, name, report) {
  if (!isObject(header.node)) return;
  const schema = member(ctx, header, 'schema').node ?? {};
  const constraints = [header.node.required === true ? 'required' : '', 'const' in schema ? 'schema/const' : '', Array.isArray(schema.enum) ? 'schema/enum' : ''].filter(Boolean);
  const marks = isObject(header.node['x-basis']) ? header.node['x-basis'] : {};
  for (const key of constraints) {
    if (!covered(marks, key)) report(`\`${key}\` of the ${name} header has no basis: add \`x-basis: {${key}: ...}\` to the header, or \`headers/${name}\` to the response (extensions.md).`, header.location);
  }
}

function checkResponse(ctx, response, report, visited) {
  if (!isObject(response.node)) return;
  const marks = isObject(response.node['x-basis']) ? response.node['x-basis'] : {};
  const headers = member(ctx, response, 'headers');
  for (const name of Object.keys(isObject(headers.node) ? headers.node : {})) {
    if (!covered(marks, `headers/${name}`)) checkHeader(ctx, member(ctx, headers, name), name, report);
  }
  const content = member(ctx, response, 'content');
  for (const type of Object.keys(isObject(content.node) ? content.node : {})) {
    const key = `content/${type.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (type !== JSON_MEDIA && !covered(marks, key)) {
      report(`The ${type} answer beside the JSON has no basis: add \`x-basis: {${key}: ...}\` to the response (extensions.md).`, content.location.child([type]));
    }
    if (!covered(marks, key)) walkSchema(ctx, member(ctx, member(ctx, content, type), 'schema'), report, visited);
  }
}

export function ConstraintBasis() {
  const seen = new Set();
  const visited = new Set();
  return {
    // Every mark, wherever it is: well formed, and naming a constraint its node has.
    any: {
      enter(node, ctx) {
        if (!isObject(node) || !('x-basis' in node)) return;
        const report = reporter(ctx, seen);
        const marks = node['x-basis'];
        const at = ctx.location.child(['x-basis']);
        if (!isObject(marks) || Object.keys(marks).length === 0) return report('`x-basis` is an object of constraint paths to their basis (extensions.md).', at);
        const self = follow(ctx, node, ctx.location);
        for (const [key, value] of Object.entries(marks)) {
          const problem = basisProblem(value);
          if (problem) report(`\`x-basis\` of \`${key}\` ${problem}.`, at.child([key]));
          if (!constraintExists(ctx, self, key)) report(`\`x-basis\` names \`${key}\`, which this node does not have: remove the stale mark.`, at.child([key]).key());
        }
      },
    },
    // Every constraint a response reaches that could over-state: marked.
    Operation: {
      enter(operation, ctx) {
        const report = reporter(ctx, seen);
        const responses = member(ctx, { node: operation, location: ctx.location }, 'responses');
        for (const status of Object.keys(isObject(responses.node) ? responses.node : {})) checkResponse(ctx, member(ctx, responses, status), report, visited);
      },
    },
  };
}
