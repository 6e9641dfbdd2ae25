import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { specView } from './spec-view.js';

/**
 * The bundled OpenAPI document the runner checks against. Every status, code, header, schema,
 * limit and plan figure a case expects is read from here; a case never writes one down.
 */

import type { Node } from './json.js';
import type { LimitDef } from './generated/limit.js';

export type { Node };

export type PlanName = 'Free' | 'Plus' | 'Enterprise';
export const PLANS: PlanName[] = ['Free', 'Plus', 'Enterprise'];

export type { LimitDef };

export interface OperationInfo {
  operationId: string;
  method: string;
  /** The path template, as the document spells it (`/v1/logins/requests/{id}`). */
  path: string;
  /** Needs `Authorization: Bearer <API key>`. */
  secured: boolean;
  /** The ids of the root `x-limits` that apply to it. */
  limits: string[];
  sections: string[];
  /** JSON pointer of the operation object. */
  pointer: string;
  /** Served from another origin than the API's (its path has `servers` of its own: the proxy's health check). */
  ownOrigin: boolean;
  raw: Node;
}

export interface ResolvedResponse {
  status: string;
  node: Node;
  /** Where the response object is written (after following `$ref`s). */
  pointer: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(...segments: string[]): string {
  return `#/${segments.map(escapePointer).join('/')}`;
}

/** Where the document is found: beside the built runner (the packaged copy), else the repository's bundle. */
export function defaultDocumentPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', 'openapi.json'), join(here, '..', '..', 'dist', 'openapi.json')];
  return candidates.find((c) => existsSync(c)) ?? candidates[0]!;
}

export class ApiDocument {
  readonly operations = new Map<string, OperationInfo>();
  /** The operations of the root `webhooks`, by operationId: what the service sends, never calls the runner makes. */
  readonly webhookOperations = new Map<string, Node>();
  readonly limits = new Map<string, LimitDef>();
  readonly plans: Record<PlanName, Record<string, number | boolean | null>>;
  readonly version: string;

  constructor(readonly doc: Node) {
    this.version = String(doc.info?.version ?? '');
    this.plans = doc['x-plans'] ?? {};
    for (const [id, def] of Object.entries<Node>(doc['x-limits'] ?? {})) this.limits.set(id, { id, ...def });
    const rootSecured = Array.isArray(doc.security) && doc.security.length > 0;
    for (const [path, item] of Object.entries<Node>(doc.paths ?? {})) {
      const pathItem = this.resolve(item);
      for (const method of METHODS) {
        const op = pathItem?.[method];
        if (!op?.operationId) continue;
        const security = op.security ?? (rootSecured ? doc.security : []);
        this.operations.set(op.operationId, {
          operationId: op.operationId,
          method: method.toUpperCase(),
          path,
          secured: Array.isArray(security) && security.some((s: Node) => Object.keys(s).length > 0),
          limits: op['x-limits'] ?? [],
          sections: op['x-spec-sections'] ?? [],
          pointer: pointerOf('paths', path, method),
          ownOrigin: Array.isArray(pathItem.servers) && pathItem.servers.length > 0,
          raw: op,
        });
      }
    }
    this.readWebhooks(doc);
  }

  /** Filled here, after the paths, so that nothing that walks `operations` ever calls a webhook. */
  private readWebhooks(doc: Node): void {
    for (const item of Object.values<Node>(doc.webhooks ?? {})) {
      for (const method of METHODS) {
        const op = this.resolve(item)?.[method];
        if (op?.operationId) this.webhookOperations.set(op.operationId, op);
      }
    }
  }

  /** The same document with only the rules of the specification and HTTP (spec-view.ts). */
  specView(): ApiDocument {
    return new ApiDocument(specView(this.doc));
  }

  static load(file = defaultDocumentPath()): ApiDocument {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new Error(`cannot read the OpenAPI document ${file}`);
    }
    return new ApiDocument(JSON.parse(text));
  }

  /** Follows `$ref`s (local ones only, as in a bundle) and says where it ended. */
  resolveAt(node: Node, pointer: string): { node: Node; pointer: string } {
    let n = node;
    let at = pointer;
    const seen = new Set<string>();
    while (n && typeof n === 'object' && typeof n.$ref === 'string') {
      const ref: string = n.$ref;
      if (!ref.startsWith('#/') || seen.has(ref)) throw new Error(`unresolvable $ref ${ref}`);
      seen.add(ref);
      at = ref;
      n = ref
        .slice(2)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((o: Node, k) => (o === undefined ? undefined : o[k]), this.doc);
    }
    return { node: n, pointer: at };
  }

  resolve(node: Node): Node {
    return this.resolveAt(node, '#').node;
  }

  operation(operationId: string): OperationInfo {
    const op = this.operations.get(operationId);
    if (!op) throw new Error(`the document has no operation ${operationId}`);
    return op;
  }

  /** The documented response of an operation for a status, or undefined when the status is not documented. */
  response(operationId: string, status: number | string): ResolvedResponse | undefined {
    const op = this.operation(operationId);
    const key = String(status);
    const raw = op.raw.responses?.[key];
    if (raw === undefined) return undefined;
    const { node, pointer } = this.resolveAt(raw, `${op.pointer}/responses/${key}`);
    return { status: key, node, pointer };
  }

  statuses(operationId: string): string[] {
    return Object.keys(this.operation(operationId).raw.responses ?? {});
  }

  /** The codes an error response allows: the `enum` or `const` on `code`, in the schema or an `allOf` member. */
  errorCodes(operationId: string, status: number | string): string[] {
    const response = this.response(operationId, status);
    const schema = this.resolve(response?.node?.content?.['application/json']?.schema);
    const codes: string[] = [];
    const visit = (s: Node): void => {
      s = this.resolve(s);
      if (!s || typeof s !== 'object') return;
      const code = this.resolve(s.properties?.code);
      if (code?.const !== undefined) codes.push(code.const);
      if (Array.isArray(code?.enum)) codes.push(...code.enum);
      for (const member of s.allOf ?? []) visit(member);
    };
    visit(schema);
    return codes;
  }

  /** The status the document gives a code on an operation (the first one, in document order). */
  statusOfCode(operationId: string, code: string): number | undefined {
    for (const status of this.statuses(operationId)) {
      if (this.errorCodes(operationId, status).includes(code)) return Number(status);
    }
    return undefined;
  }

  limit(id: string): LimitDef {
    const l = this.limits.get(id);
    if (!l) throw new Error(`the document has no limit ${id}`);
    return l;
  }

  /** Limits of an operation, resolved. */
  limitsOf(operationId: string): LimitDef[] {
    return this.operation(operationId).limits.map((id) => this.limit(id));
  }

  /** The request body schema's pointer, when the operation takes a JSON body. */
  requestBody(operationId: string): { node: Node; pointer: string; required: boolean } | undefined {
    const op = this.operation(operationId);
    if (!op.raw.requestBody) return undefined;
    const body = this.resolveAt(op.raw.requestBody, `${op.pointer}/requestBody`);
    const media = body.node?.content?.['application/json'];
    if (!media) return undefined;
    return { node: media, pointer: `${body.pointer}/content/application~1json`, required: body.node.required === true };
  }
}
