import type { ApiDocument, Node, OperationInfo } from './document.js';
import type { Schemas } from './schemas.js';
import type { Canaries } from './canaries.js';
import { binds, http, reference, spec, type Basis, type Judgement, type Rule } from './basis.js';
import { codeOf, type Exchange } from './exchange.js';
import { CaseFailure, type Deviation } from './outcome.js';
import { sameMeaning, type Comparison } from './header-values.js';
import { basisOfMark } from './spec-view.js';
import { ACCEPT_ENCODING } from './answer-decoding.js';
import type { RequirementId } from '../requirements/index.js';

/**
 * The checks every response of every case goes through, whatever the case is about. They run
 * against two views of the document: the specification's, which holds only the constraints a
 * requirement states (spec-view.ts), and the reference's, the whole document. Judging by the
 * specification, a problem of the first view fails the case and one found only by the second is a
 * deviation; judging by the reference, any problem fails it. Every problem of the first view names
 * the requirement whose words justify it.
 */

/** One view of the document with its schemas: `spec` holds only what a requirement states. */
export interface Oracle {
  view: 'spec' | 'reference';
  doc: ApiDocument;
  schemas: Schemas;
}

export interface Judge {
  judgement: Judgement;
  spec: Oracle;
  reference: Oracle;
}

export interface Verdict {
  failure?: CaseFailure;
  deviations: Deviation[];
  /** The requirements the specification's checks of this answer applied, which held. */
  held: RequirementId[];
}

export interface JudgeOptions {
  /**
   * The case proves a choice of the reference: by the specification, any refusal (4xx) of its
   * requests is a departure from that choice, whatever the form of the answer.
   */
  provesReferenceChoice?: boolean;
}

/** The requirements every answer is checked for, whatever its case (besides what the document's marks state). */
export const EVERY_ANSWER: RequirementId[] = [
  'service-never-shows-real-values',
  'bodies-are-json',
  'errors-have-code-and-error',
  'rate-limited-retry-after',
  'too-many-pending-no-retry-after',
  'daily-limit-no-retry-after',
  'submit-budget-no-retry-after',
  'http-content-coding-as-declared',
  'http-content-coding-accepted',
];

const NEVER_SHOWN = spec('service-never-shows-real-values');
const JSON_BODIES = spec('bodies-are-json');
const ERROR_BODIES = spec('errors-have-code-and-error');

/** A constraint of the reference's document that no requirement states. */
const DOCUMENT = reference("The reference server's document states it; no requirement of the specification does.");

export function judgeResponse(judge: Judge, canaries: Canaries, ex: Exchange, options: JudgeOptions = {}): Verdict {
  const wire = wireFailure(ex);
  if (wire) return { failure: wire, deviations: [], held: [] };
  // A compressed leak is still a leak: the scan reads the decoded body.
  const leak = canaries.scan(ex.response.headers, ex.response.text);
  if (leak) {
    return { failure: new CaseFailure('no stored secret in any response', `a ${leak.kind} in the ${leak.where} (${leak.encoding})`, NEVER_SHOWN, ex), deviations: [], held: [] };
  }
  const held: RequirementId[] = ['service-never-shows-real-values'];
  if (!ex.operationId) return { deviations: [], held };
  const strict = referenceProblems(judge.reference, ex);
  if (judge.judgement === 'reference') return { failure: strict[0], deviations: [], held };
  const binding = refusalOfAChoice(ex, options) ? { problems: [], applied: [] } : specProblems(judge.spec, judge.reference.doc, ex);
  const key = (p: CaseFailure) => `${p.expected}\n${p.received}`;
  const failed = new Set(binding.problems.map(key));
  const deviations = strict
    .filter((p) => !failed.has(key(p)))
    .map((p): Deviation => ({ expected: p.expected, received: p.received, where: binds(p.where) ? { ...DOCUMENT, ...(p.where.pointer ? { pointer: p.where.pointer } : {}) } : p.where, exchange: ex }));
  return { failure: binding.problems[0], deviations, held: binding.problems.length > 0 ? [] : [...held, ...binding.applied] };
}

/**
 * A 4xx answer to a raw request head (an HTTP layer or an edge in front of the deployment may
 * answer it: RFC 9110 §15.5 lets a server refuse a request it will not read, in any form), or to a
 * request of a case that proves a choice of the reference: by the specification only the refusal
 * itself is asked for, so its status, media type and body are the reference's choice.
 */
function refusalOfAChoice(ex: Exchange, options: JudgeOptions): boolean {
  const refused = ex.response.status >= 400 && ex.response.status <= 499;
  return refused && (ex.layer === true || options.provesReferenceChoice === true);
}

/** A JSON media type: application/json or a +json type (RFC 6839), with any parameters. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const bare = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return bare === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(bare);
}

// By the specification ------------------------------------------------------------------------------

/** What the specification asks of every answer, each problem naming its requirement; and the requirements applied. */
function specProblems(oracle: Oracle, full: ApiDocument, ex: Exchange): { problems: CaseFailure[]; applied: RequirementId[] } {
  const { doc } = oracle;
  const { response } = ex;
  const op = doc.operation(ex.operationId!);
  const marks: Node = op.raw['x-basis'] ?? {};
  const problems: CaseFailure[] = [];
  const applied = new Set<RequirementId>();
  const apply = (rule: Basis) => {
    if (rule.kind !== 'reference') for (const id of rule.requirements) applied.add(id);
  };

  // The codes an endpoint lists are read from the whole document: the view keeps no enum of `code`.
  const status = statusProblem(full, op, marks, ex, apply);
  if (status) problems.push(status);

  // Section 4: every body is JSON, of any JSON media type; a page the request asked for by name is its own affair.
  const type = response.headers['content-type'];
  const bare = (type ?? '').split(';')[0]!.trim().toLowerCase();
  const asked = (ex.request.headers.accept ?? '').toLowerCase();
  if (response.body.length > 0) {
    if (!isJsonMediaType(type)) {
      if (bare !== '' && asked.includes(bare) && !bare.includes('json')) return { problems, applied: [...applied] };
      problems.push(new CaseFailure('a JSON body (application/json or a +json media type)', type ? `Content-Type ${type}` : 'no Content-Type', { ...JSON_BODIES, pointer: `${op.pointer}/responses` }, ex));
      return { problems, applied: [...applied] };
    }
    if (response.json === undefined) {
      problems.push(new CaseFailure('a JSON body', 'a body that is not JSON', { ...JSON_BODIES, pointer: `${op.pointer}/responses` }, ex));
      return { problems, applied: [...applied] };
    }
    apply(JSON_BODIES);
  }

  const documented = doc.response(op.operationId, response.status);
  const schema = documented?.node?.content?.['application/json']?.schema;
  if (documented && schema && response.json !== undefined) {
    const schemaPointer = `${documented.pointer}/content/application~1json/schema`;
    for (const found of oracle.schemas.validate(schemaPointer, response.json)) {
      const rule = found.basis && binds(found.basis) ? found.basis : undefined;
      if (rule) problems.push(new CaseFailure('a body valid against the documented schema', found.message, { ...rule, pointer: schemaPointer }, ex));
    }
  }
  if (response.status >= 400 && response.json !== undefined) {
    const body = response.json as { code?: unknown; error?: unknown };
    // Section 7: a code to branch on, and words for people, whatever the wording.
    if (typeof body !== 'object' || body === null || typeof body.code !== 'string') {
      problems.push(new CaseFailure('an error body with `code`, a string', `code ${JSON.stringify((body as Node)?.code)}`, { ...ERROR_BODIES, pointer: '#/components/schemas/Error' }, ex));
    } else if (typeof body.error !== 'string' || body.error.trim() === '') {
      problems.push(new CaseFailure('a human-readable `error` beside the code', `error ${JSON.stringify(body.error)}`, { ...ERROR_BODIES, pointer: '#/components/schemas/Error/properties/error' }, ex));
    } else apply(ERROR_BODIES);
  }
  if (documented) problems.push(...headerProblems(oracle, ex, documented.node, documented.pointer, 'holds', apply));
  const retry = retryAfterProblem(doc, ex, apply);
  if (retry) problems.push(retry);
  return { problems, applied: [...applied] };
}

/**
 * The status, where a requirement gives it: a success of the status the operation's requirement
 * names (`responses/2xx` marked on the operation), and an error code of those the endpoint lists
 * (`responses` marked with the requirement that lists them), with the status the document pairs
 * with it. Anywhere else the status is not the specification's to give.
 */
function statusProblem(doc: ApiDocument, op: OperationInfo, marks: Node, ex: Exchange, apply: (b: Basis) => void): CaseFailure | undefined {
  const status = ex.response.status;
  if (status >= 200 && status <= 299) {
    const given = Object.keys(marks)
      .filter((k) => /^responses\/2\d\d$/.test(k))
      .map((k) => ({ status: Number(k.slice('responses/'.length)), basis: basisOfMark(marks[k]) }))
      .filter((g): g is { status: number; basis: Basis } => g.basis !== undefined && binds(g.basis));
    if (given.length === 0) return undefined;
    const match = given.find((g) => g.status === status);
    if (match) {
      apply(match.basis);
      return undefined;
    }
    return new CaseFailure(`status ${given.map((g) => g.status).join(' or ')}`, `${status} ${ex.response.statusText}`, { ...given[0]!.basis, pointer: `${op.pointer}/responses` }, ex);
  }
  const code = codeOf(ex.response);
  const errors = basisOfMark(marks.responses);
  if (status < 400 || status > 499 || code === undefined || !errors || !binds(errors)) return undefined;
  const listed = listedCodes(doc, op, marks);
  const statuses = listed.get(code);
  const rule = { ...errors, pointer: `${op.pointer}/responses` };
  if (!statuses) return new CaseFailure(`an error code ${op.operationId} lists: ${[...listed.keys()].join(', ')}`, `${status} ${code}`, rule, ex);
  if (!statuses.includes(status)) return new CaseFailure(`${code} with status ${statuses.join(' or ')}`, `${status} ${code}`, rule, ex);
  apply(errors);
  return undefined;
}

/** The codes an operation's requirements list, each with its statuses: every documented error answer not marked as the reference's. */
function listedCodes(doc: ApiDocument, op: OperationInfo, marks: Node): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const status of doc.statuses(op.operationId)) {
    if (Number(status) < 400 || basisOfMark(marks[`responses/${status}`])?.kind === 'reference') continue;
    for (const code of doc.errorCodes(op.operationId, status)) out.set(code, [...(out.get(code) ?? []), Number(status)]);
  }
  return out;
}

// By the reference ----------------------------------------------------------------------------------

/** Every problem of a response against the reference's whole document, most basic first. */
function referenceProblems(oracle: Oracle, ex: Exchange): CaseFailure[] {
  const { doc } = oracle;
  const { response } = ex;
  const op = doc.operation(ex.operationId!);
  const documented = doc.response(op.operationId, response.status);
  if (!documented) {
    return [new CaseFailure(`a status the document gives ${op.operationId}: ${doc.statuses(op.operationId).join(', ')}`, `${response.status} ${response.statusText}`, { ...DOCUMENT, pointer: `${op.pointer}/responses` }, ex)];
  }
  const problems: CaseFailure[] = [];
  const media = mediaProblem(ex, documented.node, documented.pointer);
  if (media) return [media];
  const isJson = /^application\/json\s*(;|$)/i.test(response.headers['content-type'] ?? '');
  const types = Object.keys(documented.node.content ?? {});
  if (types.includes('application/json') && isJson) {
    if (response.json === undefined) {
      return [new CaseFailure('a JSON body', response.text === '' ? 'an empty body' : 'a body that is not JSON', { ...DOCUMENT, pointer: `${documented.pointer}/content` }, ex)];
    }
    const schemaPointer = `${documented.pointer}/content/application~1json/schema`;
    for (const found of oracle.schemas.validate(schemaPointer, response.json)) {
      problems.push(new CaseFailure('a body valid against the documented schema', found.message, { ...(found.basis ?? DOCUMENT), pointer: schemaPointer }, ex));
    }
  }
  if (response.status >= 400 && isJson) problems.push(...errorProblems(oracle, ex, documented.pointer));
  problems.push(...headerProblems(oracle, ex, documented.node, documented.pointer, 'equals', () => undefined));
  const retry = retryAfterProblem(doc, ex, () => undefined);
  if (retry) problems.push(retry);
  return problems;
}

/** The response's media type is one the document gives, and (where it gives several) the one asked for. */
function mediaProblem(ex: Exchange, documented: Node, pointer: string): CaseFailure | undefined {
  const types = Object.keys(documented.content ?? {});
  if (types.length === 0) return undefined;
  const type = ex.response.headers['content-type'] ?? '';
  const bare = type.split(';')[0]!.trim().toLowerCase();
  const accept = (ex.request.headers.accept ?? '*/*').toLowerCase();
  const media = types.find((t) => t.toLowerCase() === bare);
  const rule = { ...DOCUMENT, pointer: `${pointer}/content` };
  if (!media) return new CaseFailure(`Content-Type ${types.join(' or ')}`, type === '' ? 'no Content-Type' : `Content-Type ${type}`, rule, ex);
  // Of the documented types, the one the request asked for: a JSON client never gets a page.
  if (types.length > 1 && !accept.includes('*/*') && !accept.includes(media.toLowerCase())) {
    return new CaseFailure(`Content-Type ${accept} (the request's Accept)`, `Content-Type ${type}`, rule, ex);
  }
  return undefined;
}

function errorProblems(oracle: Oracle, ex: Exchange, pointer: string): CaseFailure[] {
  const code = codeOf(ex.response);
  const listed = oracle.doc.errorCodes(ex.operationId!, ex.response.status);
  const out: CaseFailure[] = [];
  if (code === undefined || (listed.length > 0 && !listed.includes(code))) {
    out.push(new CaseFailure(`an error code ${ex.operationId} lists for ${ex.response.status}: ${listed.join(', ')}`, code === undefined ? 'no code' : `code ${code}`, { ...DOCUMENT, pointer: `${pointer}/content/application~1json/schema` }, ex));
  }
  const message = (ex.response.json as { error?: unknown }).error;
  if (typeof message !== 'string' || !isSentence(message, code ?? '')) {
    const basis = reference('Section 7 asks only for a human-readable `error`, whose wording may change; the reference server writes a sentence.');
    out.push(new CaseFailure('an `error` in a sentence: words and spaces, not the code again, not a stack trace', `error ${JSON.stringify(message)}`, { ...basis, pointer: '#/components/schemas/Error/properties/error' }, ex));
  }
  return out;
}

/** Words for people: letters and spaces, not the code again, not a stack trace. */
function isSentence(message: string, code: string): boolean {
  const text = message.trim();
  return text !== code && /[A-Za-z]{2,}/.test(text) && /\s/.test(text) && !/\n\s+at\s/.test(text);
}

// Both ----------------------------------------------------------------------------------------------

function headerProblems(oracle: Oracle, ex: Exchange, response: Node, pointer: string, how: Comparison, apply: (b: Basis) => void): CaseFailure[] {
  const { doc } = oracle;
  const out: CaseFailure[] = [];
  for (const [name, raw] of Object.entries<Node>(response.headers ?? {})) {
    const { node: header, pointer: headerPointer } = doc.resolveAt(raw, `${pointer}/headers/${name}`);
    const value = ex.response.headers[name.toLowerCase()];
    const schema = doc.resolve(header?.schema) ?? {};
    const basis = headerBasis(response, header, name);
    // By the specification, only what a requirement states is there to check.
    if (how === 'holds' && (!basis || !binds(basis))) continue;
    const rule: Rule = { ...(basis ?? DOCUMENT), pointer: headerPointer };
    if (value === undefined) {
      // Whether Retry-After must be present depends on the code: the rule below decides.
      if (header?.required && name.toLowerCase() !== 'retry-after') out.push(new CaseFailure(`a ${name} header`, `no ${name} header`, rule, ex));
      continue;
    }
    const allowed: string[] = schema.const !== undefined ? [String(schema.const)] : Array.isArray(schema.enum) ? schema.enum.map(String) : [];
    if (allowed.length > 0 && !allowed.some((v) => sameMeaning(name, v, value, how))) {
      out.push(new CaseFailure(`${name}: ${allowed.join(' | ')}${how === 'holds' && allowed.length === 1 ? ' (these directives or tokens, with others beside them)' : ''}`, `${name}: ${value}`, rule, ex));
    } else if (basis) apply(basis);
  }
  return out;
}

/** Where a header's rule on this response is written: the response's own mark, else the header's. */
function headerBasis(response: Node, header: Node, name: string): Basis | undefined {
  const marks = { ...(header?.['x-basis'] ?? {}) };
  const own = basisOfMark(response?.['x-basis']?.[`headers/${name}`]);
  if (own) return own;
  return basisOfMark(marks['schema/const'] ?? marks['schema/enum'] ?? marks.required);
}

/** The requirement that puts Retry-After on a refusal of a limit, or keeps it off, by the limit's code. */
const RETRY_AFTER_RULES: Record<string, Basis> = {
  present: spec('rate-limited-retry-after'),
  too_many_pending: spec('too-many-pending-no-retry-after'),
  daily_limit: spec('daily-limit-no-retry-after'),
  rate_limited: spec('submit-budget-no-retry-after'),
};

/**
 * Sections 7.1 and 8.3: `Retry-After` (whole seconds, at least 1) comes with a refusal whose limit
 * carries it, and never with one whose limit does not (`too_many_pending`, `daily_limit`, the recipe
 * budget). Which limit answers with which code, and whether it carries the header, is read from
 * the operation's `x-limits`.
 */
function retryAfterProblem(doc: ApiDocument, ex: Exchange, apply: (b: Basis) => void): CaseFailure | undefined {
  const code = codeOf(ex.response);
  const value = ex.response.headers['retry-after'];
  if (ex.response.status < 400 || code === undefined) return undefined;
  const limits = doc.limitsOf(ex.operationId!).filter((l) => l.code === code && l.status === ex.response.status);
  if (limits.length === 0) return undefined;
  const carrying = limits.find((l) => l.retryAfter === true);
  // The catalog's own bullet says it too (section 4.1).
  const basis = (carrying ? (ex.operationId === 'getTokenCatalog' ? spec('rate-limited-retry-after', 'tokens-rate-limited-retry-after') : RETRY_AFTER_RULES.present) : RETRY_AFTER_RULES[code]) ?? DOCUMENT;
  const rule = { ...basis, pointer: `#/x-limits/${(carrying ?? limits[0]!).id}/retryAfter` };
  if (carrying) {
    if (value === undefined) return new CaseFailure(`Retry-After with ${code}`, 'no Retry-After', rule, ex);
    if (!/^[1-9][0-9]*$/.test(value.trim())) return new CaseFailure('Retry-After in whole seconds, at least 1', `Retry-After: ${value}`, rule, ex);
    apply(basis);
    return undefined;
  }
  if (value !== undefined) return new CaseFailure(`no Retry-After with ${code}`, `Retry-After: ${value}`, rule, ex);
  apply(basis);
  return undefined;
}

/** An answer whose body does not decode fails its case: nothing in it can be checked, a leak included. */
export function wireFailure(ex: Exchange): CaseFailure | undefined {
  const problem = ex.response.wire?.undecodable;
  if (!problem) return undefined;
  const coding = ex.response.wire?.contentEncoding ?? '';
  const unaccepted = ex.response.wire?.unaccepted === true;
  return new CaseFailure(
    unaccepted ? `a Content-Encoding the request accepted (${ACCEPT_ENCODING}) or none` : `a body encoded as Content-Encoding: ${coding} says`,
    problem,
    http(unaccepted ? 'http-content-coding-accepted' : 'http-content-coding-as-declared'),
    ex,
  );
}
