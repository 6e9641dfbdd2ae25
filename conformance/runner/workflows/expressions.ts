import { query, type JsonValue } from 'jsonpath-rfc9535';

/**
 * The parts of Arazzo 1.0 that the workflows of this package use: runtime expressions (`$inputs`,
 * `$steps.<id>.outputs`, `$outputs`, `$statusCode`, `$response.body#/pointer`,
 * `$response.header.<name>`) and success criteria (simple conditions with `==`, `!=`, `<`, `<=`,
 * `>`, `>=` and `&&`; `regex`; `jsonpath` by RFC 9535, over the context as a one-element list, as
 * Redocly's Respect reads it). Anything else is refused by name, never guessed at.
 */

export interface Scope {
  inputs: Record<string, unknown>;
  steps: Record<string, { outputs: Record<string, unknown> }>;
  /** The outputs of the workflow a step ran (a step with `workflowId`). */
  outputs?: Record<string, unknown>;
  response?: { status: number; headers: Record<string, string>; body: unknown };
}

export class UnsupportedExpression extends Error {}

function pointer(value: unknown, ptr: string): unknown {
  if (ptr === '' || ptr === '/') return ptr === '' ? value : (value as Record<string, unknown>)?.[''];
  let at: unknown = value;
  for (const raw of ptr.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The value of one runtime expression. */
export function evaluate(expression: string, scope: Scope): unknown {
  const e = expression.trim();
  if (e === '$statusCode') return scope.response?.status;
  if (e.startsWith('$response.body')) {
    const ptr = e.slice('$response.body'.length);
    return ptr.startsWith('#') ? pointer(scope.response?.body, ptr.slice(1)) : scope.response?.body;
  }
  if (e.startsWith('$response.header.')) return scope.response?.headers[e.slice('$response.header.'.length).toLowerCase()];
  const dotted = /^\$(inputs|outputs|steps)\.(.+)$/.exec(e);
  if (dotted) {
    const [, root, rest] = dotted as unknown as [string, 'inputs' | 'outputs' | 'steps', string];
    const [path, ptr] = rest.split('#') as [string, string | undefined];
    let at: unknown = root === 'inputs' ? scope.inputs : root === 'outputs' ? scope.outputs : scope.steps;
    for (const part of path.split('.')) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
    return ptr === undefined ? at : pointer(at, ptr);
  }
  throw new UnsupportedExpression(`the runtime expression ${e} is not one this runner reads`);
}

/** A literal or an expression on one side of a condition. */
function operand(text: string, scope: Scope): unknown {
  const t = text.trim();
  if (t.startsWith('$')) return evaluate(t, scope);
  if (t === 'null') return null;
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  const quoted = /^'(.*)'$|^"(.*)"$/.exec(t);
  if (quoted) return quoted[1] ?? quoted[2];
  throw new UnsupportedExpression(`cannot read "${t}" in a condition`);
}

const OPERATORS = ['==', '!=', '>=', '<=', '>', '<'] as const;

function compare(left: unknown, op: (typeof OPERATORS)[number], right: unknown): boolean {
  // An absent value is null, as Arazzo's conditions compare it (`$response.header.Retry-After == null`).
  const a = left === undefined ? null : left;
  const b = right === undefined ? null : right;
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    default: {
      if (typeof a !== 'number' || typeof b !== 'number') return false;
      return op === '>=' ? a >= b : op === '<=' ? a <= b : op === '>' ? a > b : a < b;
    }
  }
}

/** A simple condition: comparisons joined by `&&`. */
export function condition(text: string, scope: Scope): boolean {
  return text.split('&&').every((part) => {
    const op = OPERATORS.find((o) => part.includes(` ${o} `));
    if (!op) return Boolean(operand(part, scope));
    const [left, right] = part.split(` ${op} `) as [string, string];
    return compare(operand(left, scope), op, operand(right, scope));
  });
}

export interface Criterion {
  condition: string;
  context?: string;
  type?: 'simple' | 'regex' | 'jsonpath' | { type: string };
}

/** Whether one success criterion holds. */
export function holds(criterion: Criterion, scope: Scope): boolean {
  const type = typeof criterion.type === 'object' ? criterion.type.type : (criterion.type ?? 'simple');
  if (type === 'simple') return condition(criterion.condition, scope);
  const context = criterion.context ? evaluate(criterion.context, scope) : undefined;
  if (type === 'regex') return typeof context === 'string' && new RegExp(criterion.condition).test(context);
  if (type === 'jsonpath') return query([(context ?? null) as JsonValue], criterion.condition).length > 0;
  throw new UnsupportedExpression(`the criterion type ${type} is not one this runner reads`);
}

/** A value of a request with its runtime expressions replaced: a string that is one expression becomes its value. */
export function resolveValue(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return /^\$(inputs|steps|outputs|response|statusCode)\b/.test(value) ? evaluate(value, scope) : value;
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, scope));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValue(v, scope)]));
  return value;
}
