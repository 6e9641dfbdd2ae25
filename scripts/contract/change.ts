// One change between two versions of the document, and who it breaks. This is also the shape of
// each entry of dist/contract/diff.json, which the conformance runner reads.

/** Whose code stops conforming: clients (integrators) or servers (implementations of the contract). */
export type Audience = 'client' | 'server' | 'both';

export type ChangeKind =
  | 'operation-added'
  | 'operation-removed'
  | 'operation-id-changed'
  | 'operation-deprecated'
  | 'operation-undeprecated'
  | 'sunset-changed'
  | 'security-changed'
  | 'security-scheme-changed'
  | 'parameter-added'
  | 'parameter-removed'
  | 'parameter-required'
  | 'parameter-optional'
  | 'request-body-added'
  | 'request-body-removed'
  | 'request-body-required'
  | 'request-body-optional'
  | 'media-type-added'
  | 'media-type-removed'
  | 'response-added'
  | 'response-removed'
  | 'header-added'
  | 'header-removed'
  | 'header-required'
  | 'header-optional'
  | 'error-code-added'
  | 'error-code-removed'
  | 'validation-code-changed'
  | 'member-added'
  | 'member-removed'
  | 'member-required'
  | 'member-optional'
  | 'type-changed'
  | 'enum-narrowed'
  | 'enum-widened'
  | 'alternative-added'
  | 'alternative-removed'
  | 'constraint-tightened'
  | 'constraint-loosened'
  | 'constraint-changed'
  | 'default-changed'
  | 'limit-added'
  | 'limit-removed'
  | 'limit-changed'
  | 'schema-added'
  | 'schema-removed'
  | 'docs-changed';

export interface Change {
  /** null for a change to the document as a whole (a limit, a security scheme, the info text). */
  operationId: string | null;
  method: string | null;
  path: string | null;
  kind: ChangeKind;
  breaking: boolean;
  /** For a breaking change, the side it breaks; `both` for a change that breaks neither. */
  audience: Audience;
  message: string;
  /** JSON Pointer of the change in the current bundle, or in the released one for something removed. */
  pointer: string;
}

/**
 * How a change moves what a document allows: `narrower` accepts or promises less than before,
 * `wider` more, `changed` something else (neither contains the other).
 */
export type Effect = 'narrower' | 'wider' | 'changed';
export type Direction = 'request' | 'response';

export interface Verdict {
  breaking: boolean;
  audience: Audience;
}

export const SAFE: Verdict = { breaking: false, audience: 'both' };

/**
 * A request that accepts less breaks the clients that sent what it no longer accepts; one that
 * accepts more breaks the servers that still refuse it. A response that promises more breaks the
 * clients that do not expect it; one that promises less breaks the servers that still send it.
 */
export function judge(direction: Direction, effect: Effect): Verdict {
  if (effect === 'changed') return { breaking: true, audience: 'both' };
  const client = (direction === 'request') === (effect === 'narrower');
  return { breaking: true, audience: client ? 'client' : 'server' };
}

export const CLIENT: Verdict = { breaking: true, audience: 'client' };
export const SERVER: Verdict = { breaking: true, audience: 'server' };
export const BOTH: Verdict = { breaking: true, audience: 'both' };

/** The label of an operation in messages: `POST /v1/logins/requests (fileSignupRequest)`. */
export function operationLabel(change: Pick<Change, 'method' | 'path' | 'operationId'>): string {
  if (!change.method || !change.path) return 'document';
  return `${change.method} ${change.path}${change.operationId ? ` (${change.operationId})` : ''}`;
}
