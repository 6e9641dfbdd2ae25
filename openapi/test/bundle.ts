import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BUNDLE = join(ROOT, 'dist', 'openapi.json');

export type Node = Record<string, any>;

export interface BundledOperation {
  operationId: string;
  method: string;
  path: string;
  operation: Node;
  /** Whether the operation's effective `security` asks for a credential. */
  secured: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The bundle written by `npm run bundle`; tests read the document, never a copy of its values. */
export function loadBundle(): Node {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing; run "npm run bundle" first`);
  return JSON.parse(readFileSync(BUNDLE, 'utf8')) as Node;
}

/** Follows local `$ref`s (`#/components/...`): the bundle keeps components instead of inlining them. */
export function deref<T = Node>(doc: Node, node: unknown): T {
  let current: any = node;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/') || hops > 16) throw new Error(`cannot follow $ref ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<any>((at, key) => at?.[key], doc);
  }
  return current as T;
}

export function operations(doc: Node): BundledOperation[] {
  const result: BundledOperation[] = [];
  for (const [path, rawItem] of Object.entries<Node>(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    for (const method of METHODS) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      const security: Node[] = operation.security ?? doc.security ?? [];
      result.push({
        operationId: operation.operationId,
        method,
        path,
        operation,
        secured: security.some((requirement) => Object.keys(requirement).length > 0),
      });
    }
  }
  return result;
}

/** The named examples of one response's JSON body, `$ref`s followed, in document order. */
export function responseExamples(doc: Node, response: Node): Array<{ name: string; value: unknown }> {
  const media = deref(doc, response).content?.['application/json'];
  if (!media) return [];
  return Object.entries<Node>(media.examples ?? {}).map(([name, example]) => ({ name, value: deref(doc, example).value }));
}
