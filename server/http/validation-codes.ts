import type { Contract, Operation } from '../contract.js';

/** One problem as express-openapi-validator reports it (`path` like `/body/email` or `/query/url`). */
export interface ValidatorProblem {
  path?: string;
  message: string;
  errorCode?: string;
}

/**
 * The code and the message of a request that failed the document's validation. The code is the
 * deepest `x-error-code` on the schema path of the first problem, else the operation's
 * `x-validation-error-code`; the message is the document's own sentence for that member
 * (`x-error-message` next to its `x-error-code`), otherwise each problem as a sentence about the
 * member it concerns, never the validator's raw words. Codes and sentences are read from the
 * document, never from a table here.
 */
export function describeProblems(contract: Contract, op: Operation, problems: ValidatorProblem[]): { code: string; message: string } {
  for (const problem of problems) {
    // A missing member is a malformed request, not a bad value of that member.
    if (problem.errorCode?.startsWith('required.')) continue;
    const code = documentedAt(contract, op, problem.path ?? '', 'x-error-code');
    if (code) return { code, message: documentedAt(contract, op, problem.path ?? '', 'x-error-message') ?? sentence(problem) };
  }
  const sentences = [...new Set(problems.map(sentence))];
  return { code: op.validationErrorCode, message: sentences.join(' ') || 'The request does not match the document.' };
}

function documentedAt(contract: Contract, op: Operation, path: string, member: string): string | undefined {
  const [, where, ...rest] = path.split('/');
  const segments = rest.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (where === 'body') {
    const schema = contract.resolve(op.raw.requestBody)?.content?.['application/json']?.schema;
    return deepest(contract, schema, segments, member);
  }
  if (where === 'query' || where === 'params' || where === 'path' || where === 'headers') {
    const location = where === 'params' ? 'path' : where === 'headers' ? 'header' : where;
    const param = ((op.raw.parameters ?? []) as unknown[])
      .map((p) => contract.resolve(p))
      .find((p) => p?.in === location && p?.name?.toLowerCase() === segments[0]?.toLowerCase());
    return param ? (param[member] ?? deepest(contract, param.schema, segments.slice(1), member)) : undefined;
  }
  return undefined;
}

function deepest(contract: Contract, schema: unknown, segments: string[], member: string): string | undefined {
  const s = contract.resolve(schema);
  if (!s || typeof s !== 'object') return undefined;
  const here: string | undefined = s[member];
  const [head, ...tail] = segments;
  let deeper: string | undefined;
  if (head !== undefined) {
    const child = s.properties?.[head] ?? (/^\d+$/.test(head) ? s.items : undefined);
    if (child !== undefined) deeper = deepest(contract, child, tail, member);
  }
  if (deeper === undefined) {
    for (const part of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
      deeper = deepest(contract, part, segments, member);
      if (deeper !== undefined) break;
    }
  }
  return deeper ?? here;
}

const TYPES: Record<string, string> = {
  string: 'a string',
  object: 'an object',
  array: 'an array',
  boolean: 'true or false',
  number: 'a number',
  integer: 'a whole number',
  null: 'null',
};

/** The validator's (Ajv's) words as the end of a sentence about a member. */
const PHRASES: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^must have required property '(.+)'$/, () => 'is required'],
  [/^must be equal to one of the allowed values: (.+)$/, (m) => `must be one of ${m[1]}`],
  [/^must NOT have fewer than (\d+) characters?$/, (m) => `must have at least ${m[1]} characters`],
  [/^must NOT have more than (\d+) characters?$/, (m) => `must have at most ${m[1]} characters`],
  [/^must NOT have fewer than (\d+) items?$/, (m) => `must have at least ${m[1]} entries`],
  [/^must NOT have more than (\d+) items?$/, (m) => `must have at most ${m[1]} entries`],
  [/^must be (\w+)(?:,(\w+))*$/, (m) => `must be ${m[0].slice('must be '.length).split(',').map((t) => TYPES[t] ?? t).join(' or ')}`],
  [/^must match pattern /, () => 'is not in the form the document gives for it'],
  [/^must match format "(.+)"$/, (m) => `must be a valid ${m[1]}`],
  [/^must NOT have additional properties$/, () => 'is not a member this body may have'],
  [/^must be >= (.+)$/, (m) => `must be at least ${m[1]}`],
  [/^must be <= (.+)$/, (m) => `must be at most ${m[1]}`],
  [/^must be > (.+)$/, (m) => `must be greater than ${m[1]}`],
  [/^must be < (.+)$/, (m) => `must be less than ${m[1]}`],
  [/^must be equal to constant$/, () => 'has a value the document does not allow'],
  [/^unsupported media type (.+)$/, (m) => `is ${m[1]}; send application/json`],
];

const PLACES: Record<string, string> = { query: 'query parameter', params: 'path parameter', path: 'path parameter', headers: 'header' };

/** One problem as a sentence: `decision must be one of approve, deny.` */
function sentence(problem: ValidatorProblem): string {
  const [, where = '', ...rest] = (problem.path ?? '').split('/');
  const member = rest.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
  const subject = member === '' ? (where === 'headers' ? 'The Content-Type header' : 'The body') : PLACES[where] ? `The ${PLACES[where]} ${member}` : member;
  const raw = problem.message.trim();
  const found = PHRASES.find(([pattern]) => pattern.test(raw));
  const phrase = found ? found[1](raw.match(found[0])!) : raw.replace(/\.$/, '');
  return `${subject} ${phrase}.`;
}
