// Renders client/generated/document.ts from the bundled document: the facts the client needs at run
// time, which type declarations cannot carry (each operation's method, path, origin, parameters and
// security; the document's default base URL; the client and proxy error codes and their meanings).
//
// It throws, rather than guesses, on anything in the document it does not know how to carry: a server
// other than the two it knows, a request body that is not JSON, a body member whose name is also a
// parameter's (the client's input flattens both into one object).

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const WRONG_TYPE_EXTENSION = 'x-ignore-wrong-type';
/** Redocly's extension for a meaning per enum value; the reference docs render it as a table. */
export const ENUM_DESCRIPTIONS = 'x-enumDescriptions';
const TS_TYPE: Record<string, string> = { number: 'number', boolean: 'boolean', string: 'string' };

interface Operation {
  id: string;
  method: string;
  path: string;
  apiKey: boolean;
  origin: 'api' | 'proxy';
  pathParams: string[];
  queryParams: string[];
  body: 'none' | 'required' | 'optional';
  errors: Array<[status: string, codes: string[]]>;
  strict: Array<{ name: string; type: string; required: boolean; description?: string }>;
}

export interface Rendered {
  text: string;
  /** Client error codes the document gives no meaning for. */
  withoutMeaning: string[];
}

/** Follows `$ref`s within the bundle; refuses an external or unresolved one. */
function dereferencer(doc: Json): (node: Json) => Json {
  return (node) => {
    let current = node;
    for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
      if (hops > 20) throw new Error(`$ref cycle at ${node.$ref}`);
      const ref = current.$ref as string;
      if (!ref.startsWith('#/')) throw new Error(`external $ref ${ref} in the bundle`);
      current = ref
        .slice(2)
        .split('/')
        .reduce<Json>((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      if (current === undefined) throw new Error(`unresolved $ref ${ref}`);
    }
    return current;
  };
}

/**
 * The codes the document gives an operation, per error status, in the document's order. The codes an
 * error schema allows are the narrowest enum or const on `code` through $ref and allOf (the shared
 * Error schema allows every code; each operation narrows it). Also what the TypeScript code samples
 * branch on (scripts/code-samples.ts), so the samples and the client's types list the same codes.
 */
export function errorCodes(doc: Json, op: Json, id: string = op.operationId): Array<[status: string, codes: string[]]> {
  const deref = dereferencer(doc);
  const codesOf = (schema: Json): string[] => {
    const s = deref(schema);
    const own = s.properties?.code ? deref(s.properties.code) : undefined;
    let codes: string[] | undefined = own?.const !== undefined ? [own.const] : own?.enum;
    for (const part of s.allOf ?? []) {
      const narrowed = codesOf(part);
      if (narrowed.length > 0) codes = codes ? codes.filter((c) => narrowed.includes(c)) : narrowed;
    }
    if (!codes && own?.anyOf) codes = own.anyOf.flatMap((branch: Json) => deref(branch).enum ?? []);
    return [...new Set(codes ?? [])];
  };
  return Object.entries<Json>(op.responses ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, response]) => {
      const schema = deref(response).content?.['application/json']?.schema;
      const codes = schema ? codesOf(schema) : [];
      if (codes.length === 0) throw new Error(`${id}: the ${status} answer gives no code`);
      return [status, codes] as [string, string[]];
    });
}

export function renderDocumentModule(doc: Json): Rendered {
  const deref = dereferencer(doc);

  // Top-level members of an object schema, through $ref and allOf (anyOf/oneOf branches are not merged).
  const members = (schema: Json) => {
    const out = new Map<string, { schema: Json; required: boolean }>();
    const visit = (node: Json) => {
      const s = deref(node);
      const required = new Set<string>(s.required ?? []);
      for (const [name, member] of Object.entries<Json>(s.properties ?? {})) {
        out.set(name, { schema: member, required: required.has(name) || (out.get(name)?.required ?? false) });
      }
      for (const part of s.allOf ?? []) visit(part);
    };
    visit(schema);
    return out;
  };

  const originOf = (pathItem: Json, operation: Json, path: string): 'api' | 'proxy' => {
    const servers: Json[] | undefined = operation.servers ?? pathItem.servers;
    if (!servers) return 'api';
    if (servers.length === 1 && servers[0]!.url === '{proxy_origin}') return 'proxy';
    throw new Error(`${path} names servers the client does not know (${JSON.stringify(servers.map((s) => s.url))})`);
  };

  const rootSecurity: Json[] = doc.security ?? [];
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries<Json>(doc.paths ?? {})) {
    const item = deref(rawItem);
    for (const method of METHODS) {
      const op: Json | undefined = item[method];
      if (!op) continue;
      const id = op.operationId as string | undefined;
      if (!id) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref);
      // A header parameter (`Idempotency-Key`) is not a member of a call's input: the client sends its headers itself.
      for (const p of params) if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') throw new Error(`${id}: parameter ${p.name} in ${p.in} is not supported`);
      let body = op.requestBody ? deref(op.requestBody) : undefined;
      // A body of any type with no schema is one the operation ignores (the retired createLogin): send none.
      if (body && !body.content?.['application/json']) {
        const ignored = Object.keys(body.content ?? {}).join() === '*/*' && Object.keys(body.content['*/*'].schema ?? {}).length === 0;
        if (!ignored) throw new Error(`${id}: a request body that is not application/json`);
        body = undefined;
      }
      const bodyMembers = body ? members(body.content['application/json'].schema) : new Map<string, { schema: Json; required: boolean }>();
      for (const p of params) if (bodyMembers.has(p.name)) throw new Error(`${id}: body member ${p.name} is also a parameter`);
      const strict = [...bodyMembers]
        .map(([name, m]) => ({ name, required: m.required, schema: deref(m.schema) }))
        .filter((m) => m.schema[WRONG_TYPE_EXTENSION] !== undefined)
        .map((m) => {
          const type = TS_TYPE[m.schema[WRONG_TYPE_EXTENSION]];
          if (!type) throw new Error(`${id}.${m.name}: unknown ${WRONG_TYPE_EXTENSION} ${m.schema[WRONG_TYPE_EXTENSION]}`);
          return { name: m.name, type, required: m.required, description: m.schema.description as string | undefined };
        });
      const security: Json[] = op.security ?? rootSecurity;
      operations.push({
        id,
        method,
        path,
        apiKey: security.some((requirement) => Object.keys(requirement).length > 0),
        origin: originOf(item, op, path),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        body: body ? (body.required ? 'required' : 'optional') : 'none',
        errors: errorCodes(doc, op, id),
        strict,
      });
    }
  }
  operations.sort((a, b) => a.id.localeCompare(b.id));

  const baseUrl = doc.servers?.[0]?.variables?.base_url?.default as string | undefined;
  if (!baseUrl) throw new Error('servers[0] has no base_url default');
  const clientCodes = doc.components?.schemas?.ClientErrorCode ? deref(doc.components.schemas.ClientErrorCode) : undefined;
  const codes = clientCodes?.enum as string[] | undefined;
  if (!codes) throw new Error('no ClientErrorCode schema with an enum');
  const meanings: Record<string, unknown> = clientCodes![ENUM_DESCRIPTIONS] ?? {};
  for (const code of Object.keys(meanings)) if (!codes.includes(code)) throw new Error(`${ENUM_DESCRIPTIONS} names ${code}, which is not in ClientErrorCode`);
  const meaningOf = (code: string) => (typeof meanings[code] === 'string' ? (meanings[code] as string).trim().replace(/\s+/g, ' ') : undefined);
  const withoutMeaning = codes.filter((code) => meaningOf(code) === undefined);

  const q = (s: string) => JSON.stringify(s);
  const comment = (text: string | undefined, indent: string) =>
    text ? `${indent}/**\n${text.trim().split('\n').map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */\n` : '';
  const meaningsType = withoutMeaning.length === 0 ? 'Record' : 'Partial<Record';
  const meaningsClose = withoutMeaning.length === 0 ? '' : '>';

  const out: string[] = [];
  out.push(`/**
 * Generated from the API's bundled OpenAPI document by the repository's \`npm run generate\`. Do not
 * edit by hand: change the document and regenerate (\`npm run check:generated\` fails when it is stale).
 */
import type { components } from './schema.js';

/** The document's default \`base_url\` (its first server): the local reference server. */
export const DEFAULT_BASE_URL = ${q(baseUrl)};

/**
 * Every operation of the document, by operationId. \`apiKey\`: the operation's security asks for the
 * API key. \`origin\`: \`api\` is \`{base_url}\`; \`proxy\` is the proxy's HTTP origin (\`{proxy_origin}\`).
 * \`errors\`: the codes the document gives for each error status.
 */
export const OPERATIONS = {`);
  for (const op of operations) {
    out.push(
      `  ${op.id}: { method: ${q(op.method)}, path: ${q(op.path)}, apiKey: ${op.apiKey}, origin: ${q(op.origin)}, ` +
        `pathParams: [${op.pathParams.map(q).join(', ')}], queryParams: [${op.queryParams.map(q).join(', ')}], body: ${q(op.body)},\n` +
        `    errors: { ${op.errors.map(([status, codes]) => `${status}: [${codes.map(q).join(', ')}]`).join(', ')} } },`,
    );
  }
  out.push(`} as const;

/**
 * Request-body members the document marks \`${WRONG_TYPE_EXTENSION}\`: the service ignores a value of another
 * type, so the wire schema takes any value, but the client's input takes only this type.
 */
export interface StrictBodyMembers {`);
  for (const op of operations.filter((o) => o.strict.length > 0)) {
    out.push(`  ${op.id}: {`);
    for (const m of op.strict) out.push(`${comment(m.description, '    ')}    ${m.name}${m.required ? `: ${m.type}` : `?: ${m.type} | undefined`};`);
    out.push('  };');
  }
  out.push(`}

/** The client and proxy error codes (\`ClientErrorCode\`, specification section 7.2), in the document's order. */
export const CLIENT_ERROR_CODES = [
${codes.map((c) => `  ${q(c)},`).join('\n')}
] as const satisfies readonly components['schemas']['ClientErrorCode'][];

/**
 * The one-line meaning of each code, from the schema's \`${ENUM_DESCRIPTIONS}\`${
   withoutMeaning.length === 0
     ? '.'
     : `. The document gives it for\n * ${codes.length - withoutMeaning.length} of the ${codes.length} codes; the others have none here until the document has it.`
 }
 */
export const CLIENT_ERROR_MEANINGS: Readonly<${meaningsType}<components['schemas']['ClientErrorCode'], string>${meaningsClose}> = {`);
  for (const code of codes) {
    const meaning = meaningOf(code);
    if (meaning !== undefined) out.push(`  ${code}: ${q(meaning)},`);
  }
  out.push('};\n');
  out.push(resultShapesModule(doc, deref, operations, q));
  out.push(webhookSignatureModule(doc, deref, q));
  return { text: out.join('\n'), withoutMeaning };
}

/** What the client checks of a body: its JSON type, its constant values, and its required members' own. */
interface Shape {
  name?: string;
  types?: string[];
  values?: unknown[];
  required?: Record<string, Shape>;
}

const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * The shapes a body may take, one per branch of the schema's top-level `oneOf` or `anyOf`: each
 * branch's JSON type and required members, with each member's type and constant values, through
 * `$ref` and `allOf`. One level of members only: enough to tell the answers of one operation apart
 * (the index from the lookup, a pending poll from an approved one) without a validator in the client.
 */
export function bodyShapes(schema: Json, deref: (node: Json) => Json): Shape[] {
  const s = deref(schema);
  const branches: Json[] | undefined = s.oneOf ?? s.anyOf;
  if (branches) return branches.flatMap((branch) => bodyShapes(branch, deref));
  const shape: Shape = { ...(s.title ? { name: s.title as string } : {}), ...valueShape(s, deref) };
  const required = new Map<string, Json>();
  const visit = (node: Json) => {
    const n = deref(node);
    for (const name of n.required ?? []) required.set(name, n.properties?.[name] ?? required.get(name) ?? {});
    for (const part of n.allOf ?? []) visit(part);
  };
  visit(s);
  if (required.size > 0) shape.required = Object.fromEntries([...required].map(([name, member]) => [name, valueShape(member, deref)]));
  return [shape];
}

/** A value's JSON types and constant values, where its schema gives them (a union of its branches'). */
function valueShape(schema: Json, deref: (node: Json) => Json): Shape {
  const s = deref(schema);
  if (s.const !== undefined) return { values: [s.const] };
  if (Array.isArray(s.enum)) return { values: s.enum };
  const own = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? (s.type as string[]) : undefined;
  if (own) {
    for (const type of own) if (!JSON_TYPES.has(type)) throw new Error(`unknown JSON type ${type}`);
    return { types: own };
  }
  const branches: Json[] | undefined = s.oneOf ?? s.anyOf;
  if (branches) {
    const parts = branches.map((branch) => valueShape(branch, deref));
    // A branch that allows anything makes the union allow anything.
    if (parts.some((p) => !p.types && !p.values)) return {};
    const types = [...new Set(parts.flatMap((p) => p.types ?? []))];
    const values = parts.flatMap((p) => p.values ?? []);
    return { ...(types.length > 0 ? { types } : {}), ...(values.length > 0 ? { values } : {}) };
  }
  for (const part of s.allOf ?? []) {
    const shape = valueShape(part, deref);
    if (shape.types || shape.values) return shape;
  }
  return {};
}

/** The shapes of each operation's 2xx answers, which the client holds an answer to before returning it. */
function resultShapesModule(doc: Json, deref: (node: Json) => Json, operations: Operation[], q: (s: string) => string): string {
  const out: string[] = [
    `/** The shape of a body, as the client checks it (one level of members; see RESULT_SHAPES). */
export interface Shape {
  /** The schema's title, when it has one. */
  readonly name?: string;
  /** JSON types the value may have (\`integer\` is a whole number). */
  readonly types?: readonly string[];
  /** The only values it may have. */
  readonly values?: readonly unknown[];
  /** Members it must have, each with its own shape. */
  readonly required?: Readonly<Record<string, Shape>>;
}

/**
 * The shapes each operation's 2xx answers may take, one per branch of their schemas: an answer must
 * match one. The client checks its JSON type and required members, one level deep, so that a body of
 * another operation (a mock's first example, a redirect's target) is refused rather than returned.
 */
export const RESULT_SHAPES: Readonly<Record<string, readonly Shape[]>> = {`,
  ];
  for (const op of operations) {
    const item = Object.values<Json>(doc.paths).map(deref).find((i) => i[op.method]?.operationId === op.id)!;
    const shapes = Object.entries<Json>(item[op.method].responses ?? {})
      .filter(([status]) => status.startsWith('2'))
      .flatMap(([, response]) => {
        const schema = deref(response).content?.['application/json']?.schema;
        return schema ? bodyShapes(schema, deref) : [];
      });
    out.push(`  ${op.id}: ${JSON.stringify(shapes)},`);
  }
  out.push('};\n');
  return out.join('\n');
}

/**
 * The webhook signature header (section 6 items 3 and 6), from the parameter of the document's webhook
 * that carries `x-signature-format`: its name and format, which `verifyWebhookRequest` uses by default.
 */
function webhookSignatureModule(doc: Json, deref: (node: Json) => Json, q: (s: string) => string): string {
  const headers = Object.values<Json>(doc.webhooks ?? {})
    .flatMap((item) => METHODS.map((m) => deref(item)[m]).filter(Boolean))
    .flatMap((op: Json) => (op.parameters ?? []).map(deref))
    .filter((p: Json) => p.in === 'header' && p['x-signature-format']);
  const names = [...new Set(headers.map((p: Json) => p.name as string))];
  if (names.length !== 1) throw new Error(`the document's webhooks give ${names.length} signature headers; the client knows how to read one`);
  const header = headers[0]!;
  const format = header['x-signature-format'];
  if (format.algorithm !== 'HMAC-SHA256' || format.signedPayload !== '{t}.{body}') throw new Error(`the client verifies HMAC-SHA256 over {t}.{body}, not ${format.algorithm} over ${format.signedPayload}`);
  if (!['seconds', 'milliseconds'].includes(format.timestampUnit) || !['hex', 'base64'].includes(format.signatureEncoding)) throw new Error('x-signature-format: unknown timestampUnit or signatureEncoding');
  if (!/^[^{}]*\{t\}[^{}]*\{signature\}[^{}]*$/.test(format.value)) throw new Error(`x-signature-format value ${format.value} does not carry {t} then {signature}`);
  const { types, shapes } = webhookEvents(doc, deref);
  return `/**
 * The webhook signature header of the document's webhooks (\`x-signature-format\`): its name, the
 * template of its value, the unit of \`t\` and the encoding of the signature, an HMAC-SHA256 over
 * \`t\`, a period and the raw body. \`verifyWebhookRequest\` reads it by default.
 */
export const WEBHOOK_SIGNATURE = {
  header: ${q(header.name)},
  value: ${q(format.value)},
  timestampUnit: ${q(format.timestampUnit)},
  signatureEncoding: ${q(format.signatureEncoding)},
} as const;

/**
 * The event types the document describes, which \`constructWebhookEvent\` accepts: the \`type\` values
 * its event schemas allow, or, where a schema leaves \`type\` open, those of the webhook's examples.
 */
export const WEBHOOK_EVENT_TYPES = [${types.map(q).join(', ')}] as const;

/** The shapes of a delivery's body (its schema's branches), which \`constructWebhookEvent\` checks. */
export const WEBHOOK_EVENT_SHAPES: readonly Shape[] = ${JSON.stringify(shapes)};

/** The envelope of every webhook delivery (the document's \`WebhookEvent\`). */
export type WebhookEvent = components['schemas']['WebhookEvent'];
`;
}

/**
 * The event types of the document's webhooks and the shapes of their bodies. A schema whose \`type\`
 * member has constant values names its types; one that leaves it a plain string describes its kinds
 * only in its examples (section 6 item 5 shows none), so those are read instead.
 */
function webhookEvents(doc: Json, deref: (node: Json) => Json): { types: string[]; shapes: Shape[] } {
  const bodies = Object.values<Json>(doc.webhooks ?? {})
    .flatMap((item) => METHODS.map((m) => deref(item)[m]).filter(Boolean))
    .map((op: Json) => deref(op.requestBody ?? {}).content?.['application/json'])
    .filter(Boolean);
  const shapes = bodies.flatMap((body: Json) => bodyShapes(body.schema, deref));
  const named = shapes.map((shape) => shape.required?.type?.values);
  const examples = bodies.flatMap((body: Json) => Object.values<Json>(body.examples ?? {}).map((e) => deref(e).value?.type));
  const types = named.every((values) => values !== undefined) ? named.flat() : examples;
  const distinct = [...new Set(types)];
  if (distinct.length === 0 || distinct.some((t) => typeof t !== 'string')) throw new Error("the document's webhooks name no event type (a const or enum on type, or an example's type)");
  return { types: distinct as string[], shapes };
}
