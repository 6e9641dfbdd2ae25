import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { LimitDef } from './generated/limit.js';

/**
 * The bundled OpenAPI document, read once at start-up. Everything the server needs to know about
 * operations, limits, plans and error codes is read from here, never written a second time.
 */

export const DEFAULT_BUNDLE = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'openapi.json');

export type JsonObject = Record<string, any>;

export type { LimitDef };

export type PlanName = 'Free' | 'Plus' | 'Enterprise';

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  secured: boolean;
  requiresSignupPermission: boolean;
  limits: LimitDef[];
  /** The operation takes a JSON body (an `application/json` request body): the only bodies the server reads. */
  readsJson: boolean;
  /** The cap of that body; every operation that reads one has it (checked when the document is read). */
  bodyLimit?: LimitDef;
  removedKeyPrefix?: string;
  validationErrorCode: string;
  /** Every documented response carries `Cache-Control: no-store` (the CacheControlNoStore header). */
  noStore: boolean;
  /** The per-minute limits (rate limits of a fixed window), which count requests rather than writes. */
  perMinuteLimits: LimitDef[];
  /** No request body and every parameter, the path item's included, in the query: the query is all a request carries to validate. */
  queryOnly: boolean;
  raw: JsonObject;
}

export interface Contract {
  doc: JsonObject;
  operations: Map<string, Operation>;
  limits: Map<string, LimitDef>;
  plans: Record<PlanName, Record<string, number | boolean | null>>;
  match(method: string, path: string): MatchResult;
  resolve(node: unknown): any;
  limit(id: string): LimitDef;
}

export type MatchResult =
  | { kind: 'operation'; operation: Operation; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'unknown-path' };

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export function loadContract(file = DEFAULT_BUNDLE): Contract {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`the bundled OpenAPI document ${file} is missing; run "npm run bundle" first`);
  }
  return buildContract(JSON.parse(text) as JsonObject);
}

export function buildContract(doc: JsonObject): Contract {
  const resolve = (node: unknown): any => {
    let n: any = node;
    const seen = new Set<string>();
    while (n && typeof n === 'object' && typeof n.$ref === 'string') {
      const ref: string = n.$ref;
      if (!ref.startsWith('#/') || seen.has(ref)) throw new Error(`unresolvable $ref ${ref}`);
      seen.add(ref);
      n = ref
        .slice(2)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((o: any, k) => (o === undefined ? undefined : o[k]), doc);
    }
    return n;
  };

  const limits = new Map<string, LimitDef>();
  for (const [id, def] of Object.entries((doc['x-limits'] ?? {}) as Record<string, Omit<LimitDef, 'id'>>)) {
    limits.set(id, { id, ...def });
  }
  const limit = (id: string): LimitDef => {
    const l = limits.get(id);
    if (!l) throw new Error(`the document has no limit ${id}`);
    return l;
  };

  const operations = new Map<string, Operation>();
  const staticPaths = new Map<string, Map<string, Operation>>();
  const paramPaths: { regex: RegExp; names: string[]; byMethod: Map<string, Operation> }[] = [];
  const rootSecurity = (doc.security ?? []) as unknown[];

  for (const [path, rawItem] of Object.entries((doc.paths ?? {}) as JsonObject)) {
    const item = resolve(rawItem);
    const byMethod = new Map<string, Operation>();
    for (const method of METHODS) {
      const op = item[method] as JsonObject | undefined;
      if (!op) continue;
      const security = (op.security ?? rootSecurity) as JsonObject[];
      const opLimits = ((op['x-limits'] ?? []) as string[]).map(limit);
      const readsJson = resolve(op.requestBody)?.content?.['application/json'] !== undefined;
      const bodyLimit = opLimits.find((l) => l.kind === 'body');
      // A body without a documented cap would be read without one; the document must say it.
      if (readsJson && bodyLimit?.value === undefined) throw new Error(`${op.operationId} takes a JSON body but its x-limits name no body cap`);
      const forbidden = resolve(op.responses?.['403']);
      const codes403 = forbidden ? errorCodesOf(resolve, forbidden) : [];
      const operation: Operation = {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        // An operation is open when one of its security alternatives is empty (`{}`).
        secured: security.length > 0 && !security.some((s) => Object.keys(s).length === 0),
        // The document says which operations need the permission: those that can answer 403 signup_not_enabled.
        requiresSignupPermission: codes403.includes('signup_not_enabled'),
        limits: opLimits,
        readsJson,
        bodyLimit,
        removedKeyPrefix: op['x-removed-key-prefix'],
        validationErrorCode: op['x-validation-error-code'] ?? 'bad_request',
        noStore: Object.values((op.responses ?? {}) as JsonObject).every(
          (r) => (resolve(r).headers?.['Cache-Control']?.$ref as string | undefined)?.endsWith('/CacheControlNoStore') === true,
        ),
        perMinuteLimits: opLimits.filter((l) => l.kind === 'rate' && l.window?.type === 'fixed'),
        queryOnly: op.requestBody === undefined && [...((item.parameters ?? []) as unknown[]), ...((op.parameters ?? []) as unknown[])].every((p) => resolve(p)?.in === 'query'),
        raw: op,
      };
      operations.set(operation.operationId, operation);
      byMethod.set(operation.method, operation);
    }
    if (path.includes('{')) {
      const names: string[] = [];
      const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      paramPaths.push({ regex: new RegExp(`^${pattern}$`), names, byMethod });
    } else {
      staticPaths.set(path, byMethod);
    }
  }

  const match = (method: string, path: string): MatchResult => {
    let byMethod = staticPaths.get(path);
    let params: Record<string, string> = {};
    if (!byMethod) {
      for (const p of paramPaths) {
        const m = p.regex.exec(path);
        if (!m) continue;
        try {
          params = Object.fromEntries(p.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
        } catch {
          return { kind: 'unknown-path' };
        }
        byMethod = p.byMethod;
        break;
      }
    }
    if (!byMethod) return { kind: 'unknown-path' };
    const operation = byMethod.get(method === 'HEAD' ? 'GET' : method);
    if (!operation) return { kind: 'method-not-allowed', allow: [...byMethod.keys()] };
    return { kind: 'operation', operation, params };
  };

  return {
    doc,
    operations,
    limits,
    plans: doc['x-plans'],
    match,
    resolve,
    limit,
  };
}

/** The codes an error response allows: the enum/const on `code` in the schema or any allOf member. */
export function errorCodesOf(resolve: (n: unknown) => any, response: JsonObject): string[] {
  const schema = resolve(response.content?.['application/json']?.schema);
  const codes: string[] = [];
  const visit = (s: any): void => {
    s = resolve(s);
    if (!s || typeof s !== 'object') return;
    const code = resolve(s.properties?.code);
    if (code?.const !== undefined) codes.push(code.const);
    if (Array.isArray(code?.enum)) codes.push(...code.enum);
    for (const member of s.allOf ?? []) visit(member);
  };
  visit(schema);
  return codes;
}
