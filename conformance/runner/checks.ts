import type { ApiDocument, Node } from './document.js';
import type { Schemas } from './schemas.js';
import type { Canaries } from './canaries.js';
import { binds, http, reference, type Basis, type Judgement } from './basis.js';
import { codeOf, type Exchange } from './exchange.js';
import { CaseFailure, type Deviation } from './outcome.js';
import { sameMeaning, type Comparison } from './header-values.js';
import { basisOfMark } from './spec-view.js';
import { ACCEPT_ENCODING } from './wire.js';

/**
 * The checks every response of every case goes through, whatever the case is about: the status is
 * documented for the operation, the body is JSON of the documented schema, the headers are as
 * documented, `Retry-After` is exactly where the specification puts it, an error names a code the
 * operation lists with words for people, and no stored secret comes back in any encoding.
 *
 * They run against two views of the document: the specification's (only the rules whose basis is
 * the specification or HTTP) and the reference's (the whole document). Judging by the
 * specification, a problem of the first view fails the case and one found only by the second is a
 * deviation; judging by the reference, any problem fails it.
 */

/** One view of the document with its schemas: `spec` holds only what binds every deployment. */
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
}

export interface JudgeOptions {
  /**
   * The case proves a choice of the reference: by the specification, any refusal (4xx) of its
   * requests is a departure from that choice, whatever the form of the answer.
   */
  provesReferenceChoice?: boolean;
}

export function judgeResponse(judge: Judge, canaries: Canaries, ex: Exchange, options: JudgeOptions = {}): Verdict {
  const wire = wireFailure(ex);
  if (wire) return { failure: wire, deviations: [] };
  // A compressed leak is still a leak: the scan reads the decoded body.
  const leak = canaries.scan(ex.response.headers, ex.response.text);
  if (leak) {
    return { failure: new CaseFailure('no stored secret in any response', `a ${leak.kind} in the ${leak.where} (${leak.encoding})`, { sections: ['1', '2.1', '5'] }, ex), deviations: [] };
  }
  if (!ex.operationId) return { deviations: [] };
  const strict = problemsOf(judge.reference, ex);
  if (judge.judgement === 'reference') return { failure: strict[0], deviations: [] };
  const binding = refusalOfAChoice(ex, options) ? [] : problemsOf(judge.spec, ex);
  const key = (p: CaseFailure) => `${p.expected}\n${p.received}`;
  const failed = new Set(binding.map(key));
  const deviations = strict
    .filter((p) => !failed.has(key(p)))
    .map((p): Deviation => ({ expected: p.expected, received: p.received, where: { ...p.where, basis: p.where.basis && !binds(p.where.basis) ? p.where.basis : reference(UNMARKED) }, exchange: ex }));
  return { failure: binding[0], deviations };
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

/**
 * Section 4.11 shows none of the answers of the account-holder links but the two 400 codes of its
 * rules: the statuses and codes the document gives their operations are the reference's.
 */
export const UNLISTED_ANSWERS = reference("Section 4.11 shows none of the answers of the account-holder links (section 7.1 has no rows for them but the approval-link rules' 400 codes); the statuses and codes the document lists for them are the reference's.");

export function answersUnlisted(op: { sections: string[] }): boolean {
  return op.sections.includes('4.11');
}

const UNMARKED = "a constraint of the document that the specification's view leaves out";

/** Every problem of a response against one view of the document, most basic first. */
function problemsOf(oracle: Oracle, ex: Exchange): CaseFailure[] {
  const { doc } = oracle;
  const { response } = ex;
  const op = doc.operation(ex.operationId!);
  const documented = doc.response(op.operationId, response.status);
  if (!documented) {
    if (oracle.view === 'spec' && answersUnlisted(op)) return [];
    const basis = answersUnlisted(op) ? { sections: [], basis: UNLISTED_ANSWERS } : { sections: ['7.1'] };
    return [new CaseFailure(`a status the document gives ${op.operationId}: ${doc.statuses(op.operationId).join(', ')}`, `${response.status} ${response.statusText}`, { pointer: `${op.pointer}/responses`, ...basis }, ex)];
  }
  const problems: CaseFailure[] = [];
  const media = mediaProblem(oracle, ex, documented.node, documented.pointer);
  if (media) return [media];
  const isJson = /^application\/json\s*(;|$)/i.test(response.headers['content-type'] ?? '');
  const types = Object.keys(documented.node.content ?? {});
  if (types.includes('application/json') && isJson) {
    if (response.json === undefined) {
      return [new CaseFailure('a JSON body', response.text === '' ? 'an empty body' : 'a body that is not JSON', { pointer: `${documented.pointer}/content`, sections: ['4', '7'] }, ex)];
    }
    const schemaPointer = `${documented.pointer}/content/application~1json/schema`;
    // A link's error names a code of its own choosing (section 4.11): the checks of section 7 below are what bind it.
    const unlistedError = oracle.view === 'spec' && answersUnlisted(op) && response.status >= 400;
    for (const found of unlistedError ? [] : oracle.schemas.validate(schemaPointer, response.json)) {
      problems.push(new CaseFailure('a body valid against the documented schema', found.message, { pointer: schemaPointer, sections: op.sections, basis: found.basis }, ex));
    }
  }
  if (response.status >= 400 && isJson) problems.push(...errorProblems(oracle, ex, documented.pointer));
  problems.push(...headerProblems(oracle, ex, documented.node, documented.pointer));
  const retry = retryAfterProblem(doc, ex);
  if (retry) problems.push(retry);
  return problems;
}

/** The response's media type is one the view documents, and (where it documents several) the one asked for. */
function mediaProblem(oracle: Oracle, ex: Exchange, documented: Node, pointer: string): CaseFailure | undefined {
  const types = Object.keys(documented.content ?? {});
  if (types.length === 0) return undefined;
  const type = ex.response.headers['content-type'] ?? '';
  const bare = type.split(';')[0]!.trim().toLowerCase();
  const accept = (ex.request.headers.accept ?? '*/*').toLowerCase();
  const media = types.find((t) => t.toLowerCase() === bare);
  const marks = documented['x-basis'] ?? {};
  if (!media) {
    // A type only the reference offers (a page for a browser) is its choice, when the request asked for it by name.
    const referenceOnly = oracle.view === 'spec' && Object.keys(marks).some((k) => k === `content/${bare.replace(/\//g, '~1')}`);
    if (referenceOnly && accept.includes(bare)) return undefined;
    return new CaseFailure(`Content-Type ${types.join(' or ')}`, type === '' ? 'no Content-Type' : `Content-Type ${type}`, { pointer: `${pointer}/content`, sections: ['4', '7'] }, ex);
  }
  // Of the documented types, the one the request asked for: a JSON client never gets a page.
  if (types.length > 1 && !accept.includes('*/*') && !accept.includes(media.toLowerCase())) {
    const page = types.find((t) => t !== 'application/json');
    const basis = basisOfMark(marks[`content/${(page ?? '').replace(/\//g, '~1')}`]);
    return new CaseFailure(`Content-Type ${accept} (the request's Accept)`, `Content-Type ${type}`, { pointer: `${pointer}/content`, sections: ['4', '4.11'], basis }, ex);
  }
  return undefined;
}

function errorProblems(oracle: Oracle, ex: Exchange, pointer: string): CaseFailure[] {
  const code = codeOf(ex.response);
  const listed = oracle.doc.errorCodes(ex.operationId!, ex.response.status);
  const out: CaseFailure[] = [];
  const unlisted = answersUnlisted(oracle.doc.operation(ex.operationId!));
  // Section 7 asks every error for a code; which codes a link answers is the reference's, but the approval rules' own two.
  const bound = !unlisted || ['declared_not_offered', 'declared_required'].includes(code ?? '');
  if (code === undefined || (listed.length > 0 && !listed.includes(code) && (oracle.view === 'reference' || bound))) {
    out.push(
      new CaseFailure(
        `an error code ${ex.operationId} lists for ${ex.response.status}: ${listed.join(', ')}`,
        code === undefined ? 'no code' : `code ${code}`,
        { pointer: `${pointer}/content/application~1json/schema`, sections: ['7', '7.1'], ...(code !== undefined && !bound ? { basis: UNLISTED_ANSWERS } : {}) },
        ex,
      ),
    );
  }
  const message = (ex.response.json as { error?: unknown }).error;
  // Section 7 asks for a human-readable `error` and lets its wording change: any words will do.
  if (typeof message !== 'string' || message.trim() === '') {
    out.push(new CaseFailure('a human-readable `error` beside the code', `error ${JSON.stringify(message)}`, { pointer: '#/components/schemas/Error/properties/error', sections: ['7'] }, ex));
  } else if (oracle.view === 'reference' && !isSentence(message, code ?? '')) {
    const basis = reference('Section 7 asks only for a human-readable `error`, whose wording may change; the reference server writes a sentence.');
    out.push(new CaseFailure('an `error` in a sentence: words and spaces, not the code again, not a stack trace', `error ${JSON.stringify(message)}`, { pointer: '#/components/schemas/Error/properties/error', sections: [], basis }, ex));
  }
  return out;
}

/** Words for people: letters and spaces, not the code again, not a stack trace. */
function isSentence(message: string, code: string): boolean {
  const text = message.trim();
  return text !== code && /[A-Za-z]{2,}/.test(text) && /\s/.test(text) && !/\n\s+at\s/.test(text);
}

function headerProblems(oracle: Oracle, ex: Exchange, response: Node, pointer: string): CaseFailure[] {
  const { doc } = oracle;
  const how: Comparison = oracle.view === 'spec' ? 'holds' : 'equals';
  const out: CaseFailure[] = [];
  for (const [name, raw] of Object.entries<Node>(response.headers ?? {})) {
    const { node: header, pointer: headerPointer } = doc.resolveAt(raw, `${pointer}/headers/${name}`);
    const value = ex.response.headers[name.toLowerCase()];
    const schema = doc.resolve(header?.schema) ?? {};
    const basis = headerBasis(response, header, name);
    const where = { pointer: headerPointer, sections: basis?.kind === 'spec' ? basis.sections : [], basis };
    if (value === undefined) {
      // Whether Retry-After must be present depends on the code: the rule below decides.
      if (header?.required && name.toLowerCase() !== 'retry-after') out.push(new CaseFailure(`a ${name} header`, `no ${name} header`, where, ex));
      continue;
    }
    const allowed: string[] = schema.const !== undefined ? [String(schema.const)] : Array.isArray(schema.enum) ? schema.enum.map(String) : [];
    if (allowed.length > 0 && !allowed.some((v) => sameMeaning(name, v, value, how))) {
      out.push(new CaseFailure(`${name}: ${allowed.join(' | ')}${how === 'holds' && allowed.length === 1 ? ' (these directives or tokens, with others beside them)' : ''}`, `${name}: ${value}`, where, ex));
    }
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

/**
 * Sections 7.1 and 8.3: `Retry-After` (whole seconds, at least 1) comes with a refusal whose limit
 * carries it, and never with one whose limit does not (`too_many_pending`, `daily_limit`, the recipe
 * budget). Which limit answers with which code, and whether it carries the header, is read from
 * the operation's `x-limits`.
 */
function retryAfterProblem(doc: ApiDocument, ex: Exchange): CaseFailure | undefined {
  const code = codeOf(ex.response);
  const value = ex.response.headers['retry-after'];
  if (ex.response.status < 400 || code === undefined) return undefined;
  const limits = doc.limitsOf(ex.operationId!).filter((l) => l.code === code && l.status === ex.response.status);
  if (limits.length === 0) return undefined;
  const carrying = limits.find((l) => l.retryAfter === true);
  const where = { pointer: `#/x-limits/${(carrying ?? limits[0]!).id}/retryAfter`, sections: ['7.1', '8.3'] };
  if (carrying) {
    if (value === undefined) return new CaseFailure(`Retry-After with ${code}`, 'no Retry-After', where, ex);
    if (!/^[1-9][0-9]*$/.test(value.trim())) return new CaseFailure('Retry-After in whole seconds, at least 1', `Retry-After: ${value}`, where, ex);
    return undefined;
  }
  if (value !== undefined) return new CaseFailure(`no Retry-After with ${code}`, `Retry-After: ${value}`, where, ex);
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
    { sections: [], basis: http(unaccepted ? 'RFC 9110 §12.5.3' : 'RFC 9110 §8.4') },
    ex,
  );
}
