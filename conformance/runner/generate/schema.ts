import type { ApiDocument, Node } from '../document.js';

/**
 * The members of a request body as the document states them: each one's own schema (with `$ref`s
 * followed and `allOf` merged), whether it is required, the code a bad value of it gets, and
 * whether a value of the wrong type is ignored rather than refused.
 */
export interface Member {
  name: string;
  schema: Node;
  required: boolean;
  /** `x-error-code` of the member (or of the schema it refers to), else the operation's validation code. */
  code: string;
  /** `x-ignore-wrong-type`: a value not of this type is ignored. */
  ignoredUnless?: string;
}

export interface BodyShape {
  members: Member[];
  /** `additionalProperties: false`: no other member is allowed. */
  closed: boolean;
  /** Where the body schema is written, to validate against. */
  pointer: string;
}

function merged(doc: ApiDocument, node: Node): Node {
  const s = doc.resolve(node) ?? {};
  const parts = [s, ...((s.allOf ?? []) as Node[]).map((p) => merged(doc, p))];
  const out: Node = { ...s, properties: {}, required: [] };
  for (const p of parts) {
    Object.assign(out.properties, p.properties ?? {});
    out.required.push(...(p.required ?? []));
    if (p.additionalProperties === false) out.additionalProperties = false;
  }
  return out;
}

function memberSchema(doc: ApiDocument, node: Node): Node {
  // A member written as `$ref` plus siblings (a description) keeps the referred schema's rules.
  const own = node ?? {};
  const referred = own.$ref ? doc.resolve({ $ref: own.$ref }) : {};
  return { ...referred, ...Object.fromEntries(Object.entries(own).filter(([k]) => k !== '$ref')) };
}

export function bodyShape(doc: ApiDocument, operationId: string): BodyShape | undefined {
  const body = doc.requestBody(operationId);
  if (!body) return undefined;
  const validationCode = doc.operation(operationId).raw['x-validation-error-code'] ?? 'bad_request';
  const schema = merged(doc, body.node.schema);
  const members = Object.entries<Node>(schema.properties ?? {}).map(([name, raw]) => {
    const s = memberSchema(doc, raw);
    return {
      name,
      schema: s,
      required: (schema.required as string[]).includes(name),
      code: s['x-error-code'] ?? validationCode,
      ignoredUnless: s['x-ignore-wrong-type'],
    };
  });
  return { members, closed: schema.additionalProperties === false, pointer: `${body.pointer}/schema` };
}
