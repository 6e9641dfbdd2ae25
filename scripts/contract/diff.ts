// Every change between two bundles of the document, each classified as breaking or not for
// clients and for servers (change.ts says how). Operations are compared one by one; what the
// document states once for all of them (limits, plans, security schemes, published schemas) is
// compared at the document level.
import { BOTH, type Change, type ChangeKind, CLIENT, judge, operationLabel, SAFE, SERVER, type Verdict } from './change.js';
import { equal, existingPointer, follow, isObject, mergeAllOf, type Node, type Operation, operations, pointerOf } from './document.js';
import { allowedValues, compareSchema, type SchemaScope } from './schema-diff.js';

const JSON_MEDIA_TYPE = /^application\/(.+\+)?json$/;

interface Context {
  from: Node;
  to: Node;
  rawFrom: Node;
  rawTo: Node;
  changes: Change[];
  /** Component schemas the operations' comparisons reached (by name or title). */
  visited: Set<string>;
  /**
   * Error codes added by this change, each with why no client can be broken by it when every
   * operation that added it spared it (`sparedAnswer`), or false when one did not.
   */
  addedCodes: Map<string, Set<Spared> | false>;
}

/** Why an added error code breaks no client: only a new optional parameter gets it, or it is a 5xx answer. */
type Spared = 'gated' | 'server-error';

type Emit = (kind: ChangeKind, verdict: Verdict, message: string, pointer: { from?: string; to?: string }) => void;

export function diffDocuments(rawFrom: Node, rawTo: Node): Change[] {
  const ctx: Context = { from: mergeAllOf(rawFrom), to: mergeAllOf(rawTo), rawFrom, rawTo, changes: [], visited: new Set(), addedCodes: new Map() };
  const before = operations(ctx.from);
  const after = operations(ctx.to);
  for (const [key, a] of before) {
    const b = after.get(key);
    if (!b) emitter(ctx, a)('operation-removed', CLIENT, 'operation removed', { from: a.pointer });
    else compareOperation(ctx, a, b);
  }
  for (const [key, b] of after) {
    if (!before.has(key)) emitter(ctx, b)('operation-added', SAFE, `operation added: ${b.operation.summary ?? ''}`.trim(), { to: b.pointer });
  }
  compareDocument(ctx, emitter(ctx, null));
  return ctx.changes;
}

function emitter(ctx: Context, op: Operation | null): Emit {
  return (kind, verdict, message, pointer) => {
    const where = { operationId: op?.operationId ?? null, method: op?.method ?? null, path: op?.path ?? null };
    ctx.changes.push({
      ...where,
      kind,
      breaking: verdict.breaking,
      audience: verdict.audience,
      message: `${operationLabel(where)}: ${message}`,
      pointer: pointer.to !== undefined ? existingPointer(ctx.rawTo, pointer.to) : existingPointer(ctx.rawFrom, pointer.from ?? ''),
    });
  };
}

/** The documentation parts of one operation that changed, reported once as `docs-changed`. */
function docsCollector() {
  const parts = new Set<string>();
  return { parts, add: (part: string) => parts.add(part) };
}

function compareOperation(ctx: Context, a: Operation, b: Operation): void {
  const emit = emitter(ctx, b);
  const docs = docsCollector();
  const oa = a.operation;
  const ob = b.operation;
  if (a.operationId !== b.operationId) {
    // The operationId names the client call and the handler: renaming it breaks generated clients.
    emit('operation-id-changed', CLIENT, `operationId changes from \`${a.operationId}\` to \`${b.operationId}\``, { to: `${b.pointer}/operationId` });
  }
  if (!oa.deprecated && ob.deprecated) emit('operation-deprecated', SAFE, `deprecated${ob['x-sunset'] ? `, sunset ${ob['x-sunset']}` : ''}`, { to: `${b.pointer}/deprecated` });
  if (oa.deprecated && !ob.deprecated) emit('operation-undeprecated', SAFE, 'no longer deprecated', { to: b.pointer });
  if (oa.deprecated && ob.deprecated && oa['x-sunset'] !== ob['x-sunset']) {
    const earlier = String(ob['x-sunset']) < String(oa['x-sunset']);
    emit('sunset-changed', earlier ? CLIENT : SAFE, `sunset moves from ${oa['x-sunset']} to ${ob['x-sunset']}`, { to: `${b.pointer}/x-sunset` });
  }
  compareSecurity(ctx, oa, ob, b, emit);
  compareOperationLimits(ctx, oa, ob, b, emit);
  if (!equal(oa['x-validation-error-code'], ob['x-validation-error-code'])) {
    emit('validation-code-changed', BOTH, `the code of a request that fails validation changes from \`${oa['x-validation-error-code']}\` to \`${ob['x-validation-error-code']}\``, { to: b.pointer });
  }
  compareParameters(ctx, a, b, emit, docs.add);
  compareRequestBody(ctx, a, b, emit, docs.add);
  compareResponses(ctx, a, b, emit, docs.add, gatedAnswers(ctx, a, b));
  for (const key of ['summary', 'description', 'tags', 'x-spec-sections', 'externalDocs']) {
    if (!equal(oa[key], ob[key])) docs.add(key === 'x-spec-sections' ? 'specification sections' : key);
  }
  if (docs.parts.size > 0) emit('docs-changed', SAFE, `documentation changed (${[...docs.parts].sort().join(', ')})`, { to: b.pointer });
}

function requirements(doc: Node, operation: Node): Set<string> {
  const list: Node[] = Array.isArray(operation.security) ? operation.security : Array.isArray(doc.security) ? doc.security : [];
  return new Set(
    list.map((req) =>
      Object.entries<string[]>(req)
        .map(([name, scopes]) => `${name}${scopes.length ? `(${[...scopes].sort().join(' ')})` : ''}`)
        .sort()
        .join(' and '),
    ),
  );
}

function compareSecurity(ctx: Context, oa: Node, ob: Node, b: Operation, emit: Emit): void {
  const ra = requirements(ctx.from, oa);
  const rb = requirements(ctx.to, ob);
  if (equal([...ra].sort(), [...rb].sort())) return;
  const anonymous = (r: Set<string>) => r.size === 0 || r.has('');
  const show = (r: Set<string>) => (anonymous(r) && r.size <= 1 ? 'none' : [...r].map((x) => x || 'none').join(' or '));
  // A credential newly asked for refuses the clients that send none; one no longer asked for is
  // refused by the servers that still ask for it.
  const verdict = anonymous(ra) && !anonymous(rb) ? CLIENT : !anonymous(ra) && anonymous(rb) ? SERVER : BOTH;
  emit('security-changed', verdict, `security changes from ${show(ra)} to ${show(rb)}`, { to: b.pointer });
}

function compareOperationLimits(ctx: Context, oa: Node, ob: Node, b: Operation, emit: Emit): void {
  const la = new Set<string>(Array.isArray(oa['x-limits']) ? oa['x-limits'] : []);
  const lb = new Set<string>(Array.isArray(ob['x-limits']) ? ob['x-limits'] : []);
  for (const id of lb) {
    if (la.has(id)) continue;
    const setting = ctx.to['x-limits']?.[id]?.deploymentSetting === true;
    emit('limit-added', setting ? SAFE : CLIENT, `limit \`${id}\` now applies`, { to: `${b.pointer}/x-limits` });
  }
  for (const id of la) if (!lb.has(id)) emit('limit-removed', SERVER, `limit \`${id}\` no longer applies`, { to: `${b.pointer}/x-limits` });
}

function parameterKey(doc: Node, raw: unknown): { key: string; node: Node; pointer: string } | undefined {
  const resolved = follow(doc, raw, '');
  if (!isObject(resolved.node)) return undefined;
  const p = resolved.node;
  return { key: `${p.in}:${p.in === 'header' ? String(p.name).toLowerCase() : p.name}`, node: p, pointer: resolved.pointer };
}

function compareParameters(ctx: Context, a: Operation, b: Operation, emit: Emit, docs: (part: string) => void): void {
  const index = (doc: Node, op: Operation) => {
    const map = new Map<string, { node: Node; pointer: string }>();
    op.parameters.forEach((raw, i) => {
      const p = parameterKey(doc, raw);
      // A parameter written inline lives in the operation; a `$ref`'d one in components.
      if (p) map.set(p.key, { node: p.node, pointer: p.pointer || `${op.pointer}/parameters/${i}` });
    });
    return map;
  };
  const pa = index(ctx.from, a);
  const pb = index(ctx.to, b);
  const name = (p: Node) => `parameter \`${p.name}\` (${p.in})`;
  for (const [key, x] of pa) {
    const y = pb.get(key);
    if (!y) {
      emit('parameter-removed', CLIENT, `${name(x.node)} removed`, { from: x.pointer });
      continue;
    }
    if (!x.node.required && y.node.required) emit('parameter-required', CLIENT, `${name(y.node)} now required`, { to: y.pointer });
    if (x.node.required && !y.node.required) emit('parameter-optional', SERVER, `${name(y.node)} no longer required`, { to: y.pointer });
    if (x.node.allowEmptyValue && !y.node.allowEmptyValue) emit('constraint-tightened', CLIENT, `${name(y.node)} no longer accepts an empty value`, { to: y.pointer });
    if (!x.node.allowEmptyValue && y.node.allowEmptyValue) emit('constraint-loosened', SERVER, `${name(y.node)} now accepts an empty value`, { to: y.pointer });
    for (const k of ['style', 'explode', 'allowReserved', 'content']) {
      if (!equal(x.node[k], y.node[k])) emit('constraint-changed', BOTH, `${name(y.node)}: \`${k}\` changes`, { to: y.pointer });
    }
    for (const k of ['description', 'example', 'examples', 'deprecated']) if (!equal(x.node[k], y.node[k])) docs(k === 'deprecated' ? 'parameter deprecation' : k === 'description' ? 'descriptions' : 'examples');
    compareSchema(schemaScope(ctx, 'request', name(y.node), false, emit, docs), x.node.schema, `${x.pointer}/schema`, y.node.schema, `${y.pointer}/schema`);
  }
  for (const [key, y] of pb) {
    if (pa.has(key)) continue;
    emit('parameter-added', y.node.required ? CLIENT : SAFE, `${name(y.node)} added${y.node.required ? ', and required' : ' (optional)'}`, { to: y.pointer });
  }
}

/**
 * The error answers (`<status> <code>`) of `b` that only a request carrying a parameter new to this
 * operation, and optional, can receive: those its `x-error-codes` lists. No client written against
 * the released document sends that parameter, so none of them can receive these answers.
 */
function gatedAnswers(ctx: Context, a: Operation, b: Operation): Set<string> {
  const before = new Set(a.parameters.map((raw) => parameterKey(ctx.from, raw)?.key));
  const gated = new Set<string>();
  for (const raw of b.parameters) {
    const p = parameterKey(ctx.to, raw);
    if (!p || p.node.required || before.has(p.key) || !isObject(p.node['x-error-codes'])) continue;
    for (const [status, codes] of Object.entries<unknown>(p.node['x-error-codes'])) {
      for (const code of Array.isArray(codes) ? codes : []) gated.add(`${status} ${code}`);
    }
  }
  return gated;
}

/**
 * Why an error answer new to an operation breaks no client, if it does not. Only a request with a
 * new optional parameter can get a gated answer. A 5xx answer is one every HTTP client must already
 * handle without its code, as an intermediary or a failing server sends any 5xx to any request: a
 * client that reads the new code gains, and one that does not handles the status as it did.
 */
function sparedAnswer(gated: Set<string>, status: string, code: string): Spared | undefined {
  if (gated.has(`${status} ${code}`)) return 'gated';
  return /^5\d\d$/.test(status) ? 'server-error' : undefined;
}

function schemaScope(ctx: Context, direction: 'request' | 'response', label: string, errorBody: boolean, emit: Emit, docs: (part: string) => void): SchemaScope {
  return { from: ctx.from, to: ctx.to, direction, label, errorBody, emit, docs, active: new Set(), visited: ctx.visited };
}

function compareRequestBody(ctx: Context, a: Operation, b: Operation, emit: Emit, docs: (part: string) => void): void {
  const ra = follow(ctx.from, a.operation.requestBody, `${a.pointer}/requestBody`);
  const rb = follow(ctx.to, b.operation.requestBody, `${b.pointer}/requestBody`);
  const xa = isObject(ra.node) ? ra.node : undefined;
  const xb = isObject(rb.node) ? rb.node : undefined;
  if (!xa && !xb) return;
  if (!xa) return emit('request-body-added', xb!.required ? CLIENT : SAFE, `request body added${xb!.required ? ', and required' : ' (optional)'}`, { to: rb.pointer });
  if (!xb) return emit('request-body-removed', CLIENT, 'request body removed', { from: ra.pointer });
  if (!xa.required && xb.required) emit('request-body-required', CLIENT, 'request body now required', { to: rb.pointer });
  if (xa.required && !xb.required) emit('request-body-optional', SERVER, 'request body no longer required', { to: rb.pointer });
  if (!equal(xa.description, xb.description)) docs('descriptions');
  compareContent(ctx, 'request', 'request body', xa.content, `${ra.pointer}/content`, xb.content, `${rb.pointer}/content`, false, emit, docs);
}

function compareContent(
  ctx: Context,
  direction: 'request' | 'response',
  label: string,
  ca: unknown,
  ptrA: string,
  cb: unknown,
  ptrB: string,
  errorBody: boolean,
  emit: Emit,
  docs: (part: string) => void,
): void {
  const ma: Node = isObject(ca) ? ca : {};
  const mb: Node = isObject(cb) ? cb : {};
  for (const type of Object.keys(ma)) {
    if (!(type in mb)) emit('media-type-removed', direction === 'request' ? CLIENT : BOTH, `${label}: media type \`${type}\` removed`, { from: `${ptrA}/${type.replace(/\//g, '~1')}` });
  }
  const keepsJson = Object.keys(ma).some((type) => JSON_MEDIA_TYPE.test(type) && type in mb);
  for (const type of Object.keys(mb)) {
    if (type in ma) continue;
    // A request may offer a new form; a response that gains one where it had a body sends clients
    // something new. Except a page for people beside the JSON: only a browser asks for text/html, so a
    // program keeps receiving the JSON it reads.
    const pageBesideJson = direction === 'response' && type === 'text/html' && keepsJson;
    const verdict = direction === 'request' || Object.keys(ma).length === 0 || pageBesideJson ? SAFE : CLIENT;
    emit('media-type-added', verdict, `${label}: media type \`${type}\` added`, { to: `${ptrB}/${type.replace(/\//g, '~1')}` });
  }
  for (const type of Object.keys(ma)) {
    if (!(type in mb)) continue;
    const at = `/${type.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const x = ma[type] as Node;
    const y = mb[type] as Node;
    if (!equal(x.examples, y.examples) || !equal(x.example, y.example)) docs('examples');
    const scope = schemaScope(ctx, direction, label, errorBody && JSON_MEDIA_TYPE.test(type), emit, docs);
    compareSchema(scope, x.schema, `${ptrA}${at}/schema`, y.schema, `${ptrB}${at}/schema`);
  }
}

/** The error codes a response documents: the values its JSON bodies allow for `code`. */
export function errorCodes(doc: Node, response: Node): Set<string> {
  const codes = new Set<string>();
  const collect = (raw: unknown) => {
    for (const code of allowedValues(doc, raw) ?? []) codes.add(String(code));
  };
  for (const [type, media] of Object.entries<Node>(isObject(response.content) ? response.content : {})) {
    if (!JSON_MEDIA_TYPE.test(type)) continue;
    const body = follow(doc, media.schema, '').node;
    const bodies = isObject(body) && Array.isArray(body.oneOf) ? body.oneOf : [body];
    for (const each of bodies) {
      const resolved = follow(doc, each, '').node;
      if (isObject(resolved) && isObject(resolved.properties)) collect(resolved.properties.code);
    }
  }
  return codes;
}

function compareResponses(ctx: Context, a: Operation, b: Operation, emit: Emit, docs: (part: string) => void, gated: Set<string>): void {
  const ra: Node = isObject(a.operation.responses) ? a.operation.responses : {};
  const rb: Node = isObject(b.operation.responses) ? b.operation.responses : {};
  const isError = (status: string) => /^[45]/.test(status);
  const codeAdded = (status: string, code: string, label: string, pointer: string) => {
    const spared = sparedAnswer(gated, status, code);
    const before = ctx.addedCodes.get(code) ?? new Set<Spared>();
    ctx.addedCodes.set(code, before !== false && spared !== undefined ? before.add(spared) : false);
    const why =
      spared === 'gated'
        ? ', answered only to a request with a parameter new to this operation (its `x-error-codes`)'
        : spared === 'server-error'
          ? ', a 5xx answer, which every client already handles as it handles any 5xx'
          : '';
    emit('error-code-added', spared ? SAFE : CLIENT, `${label}: error code \`${code}\` added${why}`, { to: pointer });
  };
  for (const status of Object.keys(ra)) {
    if (status in rb) continue;
    // Clients lose an outcome they were told of; servers that still answer it no longer conform.
    emit('response-removed', BOTH, `response ${status} removed`, { from: `${a.pointer}/responses/${status}` });
  }
  for (const status of Object.keys(rb)) {
    const y = follow(ctx.to, rb[status], `${b.pointer}/responses/${status}`);
    if (status in ra) continue;
    emit('response-added', SAFE, `response ${status} added`, { to: y.pointer });
    if (isError(status) && isObject(y.node)) {
      for (const code of errorCodes(ctx.to, y.node)) codeAdded(status, code, `response ${status}`, y.pointer);
    }
  }
  for (const status of Object.keys(ra)) {
    if (!(status in rb)) continue;
    const x = follow(ctx.from, ra[status], `${a.pointer}/responses/${status}`);
    const y = follow(ctx.to, rb[status], `${b.pointer}/responses/${status}`);
    if (!isObject(x.node) || !isObject(y.node)) continue;
    const label = `response ${status}`;
    if (!equal(x.node.description, y.node.description)) docs('descriptions');
    compareHeaders(ctx, label, x.node.headers, `${x.pointer}/headers`, y.node.headers, `${y.pointer}/headers`, emit, docs);
    if (isError(status)) {
      const ca = errorCodes(ctx.from, x.node);
      const cb = errorCodes(ctx.to, y.node);
      for (const code of cb) if (!ca.has(code)) codeAdded(status, code, label, y.pointer);
      for (const code of ca) if (!cb.has(code)) emit('error-code-removed', SERVER, `${label}: error code \`${code}\` removed`, { to: y.pointer });
    }
    compareContent(ctx, 'response', label, x.node.content, `${x.pointer}/content`, y.node.content, `${y.pointer}/content`, isError(status), emit, docs);
  }
}

function compareHeaders(ctx: Context, label: string, ha: unknown, ptrA: string, hb: unknown, ptrB: string, emit: Emit, docs: (part: string) => void): void {
  const index = (headers: unknown, doc: Node, ptr: string) =>
    new Map(Object.entries<unknown>(isObject(headers) ? headers : {}).map(([name, raw]) => [name.toLowerCase(), { ...follow(doc, raw, `${ptr}/${name}`), name }]));
  const xa = index(ha, ctx.from, ptrA);
  const xb = index(hb, ctx.to, ptrB);
  for (const [key, x] of xa) {
    const y = xb.get(key);
    const name = `${label} header \`${x.name}\``;
    if (!y) {
      emit('header-removed', CLIENT, `${name} removed`, { from: x.pointer });
      continue;
    }
    const rx = isObject(x.node) && x.node.required === true;
    const ry = isObject(y.node) && y.node.required === true;
    if (!rx && ry) emit('header-required', judge('response', 'narrower'), `${name} now always sent`, { to: y.pointer });
    if (rx && !ry) emit('header-optional', judge('response', 'wider'), `${name} no longer always sent`, { to: y.pointer });
    if (isObject(x.node) && isObject(y.node)) {
      for (const k of ['description', 'example', 'examples']) if (!equal(x.node[k], y.node[k])) docs(k === 'description' ? 'descriptions' : 'examples');
      compareSchema(schemaScope(ctx, 'response', name, false, emit, docs), x.node.schema, `${x.pointer}/schema`, y.node.schema, `${y.pointer}/schema`);
    }
  }
  for (const [key, y] of xb) {
    if (xa.has(key)) continue;
    const required = isObject(y.node) && y.node.required === true;
    emit('header-added', required ? judge('response', 'narrower') : SAFE, `${label} header \`${y.name}\` added${required ? ', always sent' : ''}`, { to: y.pointer });
  }
}

function compareDocument(ctx: Context, emit: Emit): void {
  const docs = docsCollector();
  for (const key of ['title', 'summary', 'description', 'termsOfService', 'contact', 'license']) if (!equal(ctx.from.info?.[key], ctx.to.info?.[key])) docs.add(`info ${key}`);
  for (const key of ['servers', 'tags', 'externalDocs']) if (!equal(ctx.from[key], ctx.to[key])) docs.add(key);
  compareSecuritySchemes(ctx, emit, docs.add);
  compareLimits(ctx, emit, docs.add);
  comparePlans(ctx, emit);
  comparePublishedSchemas(ctx, emit, docs.add);
  if (docs.parts.size > 0) emit('docs-changed', SAFE, `documentation changed (${[...docs.parts].sort().join(', ')})`, { to: '' });
}

function compareSecuritySchemes(ctx: Context, emit: Emit, docs: (part: string) => void): void {
  const sa: Node = ctx.from.components?.securitySchemes ?? {};
  const sb: Node = ctx.to.components?.securitySchemes ?? {};
  const at = (name: string) => pointerOf('components', 'securitySchemes', name);
  for (const name of Object.keys(sa)) {
    if (!(name in sb)) {
      emit('security-scheme-changed', BOTH, `security scheme \`${name}\` removed`, { from: at(name) });
      continue;
    }
    const strip = ({ description, ...rest }: Node) => rest;
    if (!equal(strip(sa[name]), strip(sb[name]))) emit('security-scheme-changed', BOTH, `security scheme \`${name}\` changes how a credential is sent`, { to: at(name) });
    else if (!equal(sa[name].description, sb[name].description)) docs('security scheme descriptions');
  }
  for (const name of Object.keys(sb)) if (!(name in sa)) emit('security-scheme-changed', SAFE, `security scheme \`${name}\` added`, { to: at(name) });
}

/**
 * Limits: a lower figure refuses clients sooner, a higher one is refused by servers that keep
 * the old figure. A figure marked as a deployment setting is only a default (specification
 * section 9 item 4), so clients could never rely on it.
 */
function compareLimits(ctx: Context, emit: Emit, docs: (part: string) => void): void {
  const la: Node = ctx.from['x-limits'] ?? {};
  const lb: Node = ctx.to['x-limits'] ?? {};
  const at = (id: string) => pointerOf('x-limits', id);
  for (const id of Object.keys(la)) if (!(id in lb)) emit('limit-removed', SERVER, `limit \`${id}\` removed`, { from: at(id) });
  for (const id of Object.keys(lb)) if (!(id in la)) emit('limit-added', lb[id].deploymentSetting ? SAFE : CLIENT, `limit \`${id}\` added`, { to: at(id) });
  for (const id of Object.keys(la)) {
    const x: Node = la[id];
    const y: Node | undefined = lb[id];
    if (!y) continue;
    for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (equal(x[key], y[key])) continue;
      if (key === 'description' || key === 'sections') {
        docs('limit descriptions');
        continue;
      }
      const what = `limit \`${id}\`: \`${key}\` changes from ${JSON.stringify(x[key])} to ${JSON.stringify(y[key])}`;
      if (y.deploymentSetting && ['value', 'deploymentSetting'].includes(key)) emit('limit-changed', SAFE, what, { to: at(id) });
      else if (key === 'value' && typeof x.value === 'number' && typeof y.value === 'number' && x.kind !== 'range') {
        emit('limit-changed', y.value < x.value ? CLIENT : SERVER, what, { to: at(id) });
      } else emit('limit-changed', BOTH, what, { to: at(id) });
    }
  }
}

function comparePlans(ctx: Context, emit: Emit): void {
  const pa: Node = ctx.from['x-plans'] ?? {};
  const pb: Node = ctx.to['x-plans'] ?? {};
  const figure = (v: unknown) => (v === null ? Infinity : v === true ? 1 : v === false ? 0 : Number(v));
  for (const plan of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
    const at = pointerOf('x-plans', plan);
    if (!(plan in pb)) {
      emit('limit-removed', CLIENT, `plan \`${plan}\` removed`, { from: at });
      continue;
    }
    if (!(plan in pa)) {
      emit('limit-added', SAFE, `plan \`${plan}\` added`, { to: at });
      continue;
    }
    for (const key of new Set([...Object.keys(pa[plan]), ...Object.keys(pb[plan])])) {
      const x = pa[plan][key];
      const y = pb[plan][key];
      if (equal(x, y)) continue;
      const verdict = figure(y) < figure(x) ? CLIENT : figure(y) > figure(x) ? SERVER : BOTH;
      emit('limit-changed', verdict, `plan \`${plan}\`: \`${key}\` changes from ${JSON.stringify(x)} to ${JSON.stringify(y)}`, { to: `${at}/${key}` });
    }
  }
}

/**
 * Component schemas that no operation's comparison reached, such as `ClientErrorCode` (the codes
 * a client library raises, published but never sent by the API), are compared on their own.
 * They must run after the operations, which fill `ctx.visited`.
 */
function comparePublishedSchemas(ctx: Context, emit: Emit, docs: (part: string) => void): void {
  const sa: Node = ctx.from.components?.schemas ?? {};
  const sb: Node = ctx.to.components?.schemas ?? {};
  const reached = new Set(ctx.visited);
  const at = (name: string) => pointerOf('components', 'schemas', name);
  for (const name of Object.keys(sa)) {
    if (reached.has(name)) continue;
    if (!(name in sb)) emit('schema-removed', CLIENT, `published schema \`${name}\` removed`, { from: at(name) });
    else {
      // Published values reach integrators as responses do, except the error codes the operations
      // added only as answers that break no client (see the operations' `error-code-added`).
      const spared = sparedValues(ctx, sa[name], sb[name]);
      const b = spared.length > 0 ? { ...sb[name], enum: sb[name].enum.filter((v: unknown) => !spared.includes(v)) } : sb[name];
      const byReason = new Map<string, unknown[]>();
      for (const value of spared) {
        const reasons = [...(ctx.addedCodes.get(value as string) as Set<Spared>)].sort();
        const why = reasons.map((r) => (r === 'gated' ? 'to requests with a parameter new to their operations' : 'as 5xx answers')).join(' or ');
        byReason.set(why, [...(byReason.get(why) ?? []), value]);
      }
      for (const [why, values] of byReason) {
        const list = values.map((v) => `\`${String(v)}\``).join(', ');
        emit('enum-widened', SAFE, `published schema \`${name}\`: value${values.length > 1 ? 's' : ''} ${list} added, answered only ${why}`, { to: at(name) });
      }
      compareSchema(schemaScope(ctx, 'response', `published schema \`${name}\``, false, emit, docs), sa[name], at(name), b, at(name));
    }
  }
  for (const name of Object.keys(sb)) if (!(name in sa) && !reached.has(name)) emit('schema-added', SAFE, `published schema \`${name}\` added`, { to: at(name) });
}

/** The values an enum gained that are error codes every operation added only as answers that break no client. */
function sparedValues(ctx: Context, a: Node, b: Node): unknown[] {
  if (!isObject(a) || !isObject(b) || !Array.isArray(b.enum)) return [];
  const before: unknown[] = Array.isArray(a.enum) ? a.enum : [];
  return b.enum.filter((v: unknown) => typeof v === 'string' && !before.includes(v) && ctx.addedCodes.get(v) instanceof Set);
}
