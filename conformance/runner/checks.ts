import type { ApiDocument, Node } from './document.js';
import type { Schemas } from './schemas.js';
import type { Canaries } from './canaries.js';
import { codeOf, type Exchange } from './exchange.js';
import { CaseFailure } from './outcome.js';

/**
 * The checks every response of every case goes through, whatever the case is about: the status is
 * documented for the operation, the body is JSON of the documented schema, the headers are as
 * documented, `Retry-After` is exactly where the specification puts it, an error names a code the
 * operation lists with a sentence for people, and no stored secret comes back in any encoding.
 */
export function checkResponse(doc: ApiDocument, schemas: Schemas, canaries: Canaries, ex: Exchange): CaseFailure | undefined {
  const { response } = ex;
  const leak = canaries.scan(response.headers, response.text);
  if (leak) {
    return new CaseFailure('no stored secret in any response', `a ${leak.kind} in the ${leak.where} (${leak.encoding})`, { sections: ['1', '2.1', '5'] }, ex);
  }
  if (!ex.operationId) return undefined;
  const op = doc.operation(ex.operationId);
  const documented = doc.response(ex.operationId, response.status);
  if (!documented) {
    return new CaseFailure(
      `a status the document gives ${op.operationId}: ${doc.statuses(op.operationId).join(', ')}`,
      `${response.status} ${response.statusText}`,
      { pointer: `${op.pointer}/responses`, sections: ['7.1'] },
      ex,
    );
  }
  const types = Object.keys(documented.node.content ?? {});
  if (types.length > 0) {
    const type = response.headers['content-type'] ?? '';
    const media = types.find((t) => t.toLowerCase() === type.split(';')[0]!.trim().toLowerCase());
    if (!media) {
      return new CaseFailure(`Content-Type ${types.join(' or ')}`, type === '' ? 'no Content-Type' : `Content-Type ${type}`, { pointer: `${documented.pointer}/content`, sections: ['4', '7'] }, ex);
    }
    // Of the documented types, the one the request asked for: a JSON client never gets a page.
    const accept = (ex.request.headers.accept ?? '*/*').toLowerCase();
    if (types.length > 1 && !accept.includes('*/*') && !accept.includes(media.toLowerCase())) {
      return new CaseFailure(`Content-Type ${accept} (the request's Accept)`, `Content-Type ${type}`, { pointer: `${documented.pointer}/content`, sections: ['4', '4.11'] }, ex);
    }
  }
  const isJson = /^application\/json\s*(;|$)/i.test(response.headers['content-type'] ?? '');
  // A page for a browser (the account-holder links' text/html) has no schema beyond its type.
  if (types.includes('application/json') && isJson) {
    if (response.json === undefined) {
      return new CaseFailure('a JSON body', response.text === '' ? 'an empty body' : 'a body that is not JSON', { pointer: `${documented.pointer}/content`, sections: ['4', '7'] }, ex);
    }
    const schemaPointer = `${documented.pointer}/content/application~1json/schema`;
    const problems = schemas.validate(schemaPointer, response.json);
    if (problems.length > 0) {
      return new CaseFailure(`a body valid against the documented schema`, problems.join('; '), { pointer: schemaPointer, sections: op.sections }, ex);
    }
  }
  if (response.status >= 400 && isJson) {
    const failure = checkError(doc, ex, documented.pointer);
    if (failure) return failure;
  }
  return checkHeaders(doc, ex, documented.node, documented.pointer) ?? checkRetryAfter(doc, ex);
}

function checkError(doc: ApiDocument, ex: Exchange, pointer: string): CaseFailure | undefined {
  const code = codeOf(ex.response);
  const listed = doc.errorCodes(ex.operationId!, ex.response.status);
  if (code === undefined || (listed.length > 0 && !listed.includes(code))) {
    return new CaseFailure(
      `an error code ${ex.operationId} lists for ${ex.response.status}: ${listed.join(', ')}`,
      code === undefined ? 'no code' : `code ${code}`,
      { pointer: `${pointer}/content/application~1json/schema`, sections: ['7', '7.1'] },
      ex,
    );
  }
  const message = (ex.response.json as { error?: unknown }).error;
  if (!isSentence(message, code)) {
    return new CaseFailure(
      'a human-readable `error` beside the code',
      `error ${JSON.stringify(message)}`,
      { pointer: '#/components/schemas/Error/properties/error', sections: ['7'] },
      ex,
    );
  }
  return undefined;
}

/** Words for people: letters and spaces, not the code again, not a stack trace. */
function isSentence(message: unknown, code: string): boolean {
  if (typeof message !== 'string') return false;
  const text = message.trim();
  return text !== '' && text !== code && /[A-Za-z]{2,}/.test(text) && /\s/.test(text) && !/\n\s+at\s/.test(text);
}

function checkHeaders(doc: ApiDocument, ex: Exchange, response: Node, pointer: string): CaseFailure | undefined {
  for (const [name, raw] of Object.entries<Node>(response.headers ?? {})) {
    const { node: header, pointer: headerPointer } = doc.resolveAt(raw, `${pointer}/headers/${name}`);
    const value = ex.response.headers[name.toLowerCase()];
    const schema = doc.resolve(header?.schema) ?? {};
    const isNoStore = schema.const === 'no-store';
    const where = { pointer: headerPointer, sections: name.toLowerCase() === 'cache-control' ? (isNoStore ? ['5'] : ['4.2']) : ['7.1', '8.3'] };
    if (value === undefined) {
      // Whether Retry-After must be present depends on the code: the rule below decides.
      if (header?.required && name.toLowerCase() !== 'retry-after') return new CaseFailure(`a ${name} header`, `no ${name} header`, where, ex);
      continue;
    }
    if (schema.const !== undefined && value !== String(schema.const)) return new CaseFailure(`${name}: ${schema.const}`, `${name}: ${value}`, where, ex);
    if (Array.isArray(schema.enum) && !schema.enum.map(String).includes(value)) {
      return new CaseFailure(`${name}: one of ${schema.enum.join(' | ')}`, `${name}: ${value}`, where, ex);
    }
  }
  return undefined;
}

/**
 * Sections 7.1 and 8.3: `Retry-After` (whole seconds, at least 1) comes with a refusal whose limit
 * carries it, and never with one whose limit does not (`too_many_pending`, `daily_limit`, the recipe
 * budget). Which limit answers with which code, and whether it carries the header, is read from
 * the operation's `x-limits`.
 */
function checkRetryAfter(doc: ApiDocument, ex: Exchange): CaseFailure | undefined {
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
