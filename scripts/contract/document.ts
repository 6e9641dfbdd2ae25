// Reading a bundled document (dist/openapi.json, or a released copy) for comparison: its
// operations, keyed so that the same operation matches across versions, and `$ref`s followed with
// the pointer of where each node really lives.
import { merge } from 'allof-merge';

export type Node = Record<string, any>;

export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** `/v1/logins/requests/{id}` → `v1`; the version segment every versioned path starts with. */
const VERSION_SEGMENT = /^\/v(\d+)(?=\/|$)/;

export interface Operation {
  /** `POST /v*\/logins/requests/{}`: equal for the same operation in two versions of the document. */
  key: string;
  method: string;
  path: string;
  operationId: string | null;
  /** JSON Pointer of the operation object. */
  pointer: string;
  operation: Node;
  /** Parameters of the path item and of the operation, the operation's winning. */
  parameters: Node[];
}

export const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

export function escapePointer(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(...tokens: Array<string | number>): string {
  return tokens.map((t) => `/${escapePointer(t)}`).join('');
}

function tokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function at(doc: unknown, pointer: string): unknown {
  return tokens(pointer).reduce<unknown>((node, token) => (isObject(node) || Array.isArray(node) ? (node as any)[token] : undefined), doc);
}

/** The longest prefix of `pointer` that exists in `doc`: merged schemas can name a place the bundle does not have. */
export function existingPointer(doc: unknown, pointer: string): string {
  const parts = tokens(pointer);
  while (parts.length > 0 && at(doc, pointerOf(...parts)) === undefined) parts.pop();
  return pointerOf(...parts);
}

/** Follows local `$ref`s; returns the node and the pointer of where it lives. */
export function follow(doc: Node, node: unknown, pointer: string): { node: unknown; pointer: string; name?: string } {
  let current = node;
  let where = pointer;
  let name: string | undefined;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/') || hops > 32) throw new Error(`cannot follow $ref ${ref} at ${where}`);
    where = ref.slice(1);
    name = /^\/components\/[^/]+\/([^/]+)$/.exec(where)?.[1] ?? name;
    current = at(doc, where);
  }
  return { node: current, pointer: where, name };
}

/** The major version a path carries (`/v1/...` → 1), or undefined for an unversioned path (`/health`). */
export function pathMajor(path: string): number | undefined {
  const match = VERSION_SEGMENT.exec(path);
  return match ? Number(match[1]) : undefined;
}

/**
 * The key of an operation: the version segment and the names of path parameters do not matter,
 * so `/v1/x/{id}` in 1.x and `/v2/x/{token}` in 2.0 are the same operation moved.
 */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(VERSION_SEGMENT, '/v*').replace(/\{[^}]*\}/g, '{}')}`;
}

export function operations(doc: Node): Map<string, Operation> {
  const result = new Map<string, Operation>();
  for (const [path, rawItem] of Object.entries<Node>(doc.paths ?? {})) {
    const item = follow(doc, rawItem, pointerOf('paths', path));
    if (!isObject(item.node)) continue;
    const shared: Node[] = Array.isArray(item.node.parameters) ? item.node.parameters : [];
    for (const method of METHODS) {
      const operation = item.node[method];
      if (!isObject(operation)) continue;
      const own: Node[] = Array.isArray(operation.parameters) ? operation.parameters : [];
      const id = (p: Node) => {
        const resolved = follow(doc, p, '').node as Node;
        return `${resolved?.in}:${resolved?.name}`;
      };
      const overridden = new Set(own.map(id));
      result.set(operationKey(method, path), {
        key: operationKey(method, path),
        method: method.toUpperCase(),
        path,
        operationId: typeof operation.operationId === 'string' ? operation.operationId : null,
        pointer: pointerOf(...tokens(item.pointer), method),
        operation,
        parameters: [...shared.filter((p) => !overridden.has(id(p))), ...own],
      });
    }
  }
  return result;
}

/**
 * The document with every `allOf` merged into one schema (allof-merge), so that moving a member
 * from one `allOf` branch to another, or narrowing `Error.code` inline, compares by what the
 * schema accepts rather than by how it is spelled. `$ref`s stay, so pointers still name components.
 */
export function mergeAllOf(doc: Node): Node {
  const problems: string[] = [];
  const merged = merge(structuredClone(doc), {
    mergeRefSibling: true,
    mergeCombinarySibling: true,
    onMergeError: (message: string, path: Array<string | number>) => problems.push(`${message} at ${pointerOf(...path)}`),
  }) as Node;
  if (problems.length > 0) throw new Error(`the document's allOf schemas cannot be merged:\n  ${problems.join('\n  ')}`);
  return merged;
}

export function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
}
