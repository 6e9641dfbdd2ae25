import type { Contract, Operation } from '../contract.js';

/** One problem as express-openapi-validator reports it (`path` like `/body/email` or `/query/url`). */
export interface ValidatorProblem {
  path?: string;
  message: string;
  errorCode?: string;
}

/**
 * The specification's code for a request that failed the document's validation: the deepest
 * `x-error-code` on the schema path of the first problem, else the operation's
 * `x-validation-error-code`. Both are read from the document, never from a table here.
 */
export function codeForProblems(contract: Contract, op: Operation, problems: ValidatorProblem[]): string {
  for (const problem of problems) {
    // A missing member is a malformed request, not a bad value of that member.
    if (problem.errorCode?.startsWith('required.')) continue;
    const code = codeAt(contract, op, problem.path ?? '');
    if (code) return code;
  }
  return op.validationErrorCode;
}

function codeAt(contract: Contract, op: Operation, path: string): string | undefined {
  const [, where, ...rest] = path.split('/');
  const segments = rest.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (where === 'body') {
    const schema = contract.resolve(op.raw.requestBody)?.content?.['application/json']?.schema;
    return deepestCode(contract, schema, segments);
  }
  if (where === 'query' || where === 'params' || where === 'path' || where === 'headers') {
    const location = where === 'params' ? 'path' : where === 'headers' ? 'header' : where;
    const param = ((op.raw.parameters ?? []) as unknown[])
      .map((p) => contract.resolve(p))
      .find((p) => p?.in === location && p?.name?.toLowerCase() === segments[0]?.toLowerCase());
    return param ? (param['x-error-code'] ?? deepestCode(contract, param.schema, segments.slice(1))) : undefined;
  }
  return undefined;
}

function deepestCode(contract: Contract, schema: unknown, segments: string[]): string | undefined {
  const s = contract.resolve(schema);
  if (!s || typeof s !== 'object') return undefined;
  const here: string | undefined = s['x-error-code'];
  const [head, ...tail] = segments;
  let deeper: string | undefined;
  if (head !== undefined) {
    const child = s.properties?.[head] ?? (/^\d+$/.test(head) ? s.items : undefined);
    if (child !== undefined) deeper = deepestCode(contract, child, tail);
  }
  if (deeper === undefined) {
    for (const member of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
      deeper = deepestCode(contract, member, segments);
      if (deeper !== undefined) break;
    }
  }
  return deeper ?? here;
}
