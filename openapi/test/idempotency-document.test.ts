import { describe, expect, it } from 'vitest';
import { basisOfMark, specView } from '../../conformance/runner/spec-view.js';
import { REQUIREMENTS } from '../../conformance/requirements/index.js';
import { deref, loadBundle, operations, type Node } from './bundle.js';

/**
 * The `Idempotency-Key` header in the document: one parameter component, optional on every POST of
 * the API but the retired one, with its 409 and 422 answers on each; all of it marked as the
 * reference server's (`x-basis`), so that the specification's view the conformance runner judges
 * other deployments by requires none of it: the view keeps a response constraint only where a
 * requirement of the catalogue states it, and none speaks of this header.
 */

const doc = loadBundle();
const HEADER = 'idempotency-key';
const isKey = (p: Node) => p?.in === 'header' && String(p.name).toLowerCase() === HEADER;
/** The operations whose document lists the header (the reference server honours exactly these). */
const takers = (d: Node) => operations(d).filter((op) => (op.operation.parameters ?? []).some((p: Node) => isKey(deref(d, p))));
/** The `code` constraint of an error response's narrowing member, as written. */
const codeOf = (d: Node, response: unknown) => deref(d, deref(d, response).content['application/json'].schema).allOf.find((m: Node) => m.properties?.code || m.required?.includes('code'))?.properties?.code;

describe('the Idempotency-Key parameter', () => {
  it('when the POST operations are read, then each but the retired createLogin takes the header, optional, from one component', () => {
    const posts = operations(doc).filter((op) => op.method === 'post');
    expect(takers(doc).map((op) => op.operationId).sort()).toEqual(posts.filter((op) => !op.operation.deprecated).map((op) => op.operationId).sort());
    for (const op of takers(doc)) {
      const raw = op.operation.parameters.find((p: Node) => isKey(deref(doc, p)));
      expect(raw).toEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    }
    expect(doc.components.parameters.IdempotencyKey.required).toBe(false);
  });

  it('when an operation takes the header, then it documents every answer the header lists, each code in ApiErrorCode', () => {
    const lists: Record<string, string[]> = doc.components.parameters.IdempotencyKey['x-error-codes'];
    expect(Object.keys(lists).sort()).toEqual(['409', '422']);
    for (const op of takers(doc)) {
      for (const [status, codes] of Object.entries(lists)) {
        const code = codeOf(doc, op.operation.responses[status]);
        const documented: string[] = code.enum ?? [code.const];
        for (const c of codes) expect(documented, `${op.operationId} ${status}`).toContain(c);
      }
      expect(deref(doc, op.operation.responses['409']).headers['Retry-After'], op.operationId).toBeDefined();
    }
    expect(doc.components.schemas.ApiErrorCode.enum).toEqual(expect.arrayContaining(['idempotency_key_in_use', 'idempotency_key_reused']));
  });
});

describe("the specification's view (conformance/runner/spec-view.ts)", () => {
  const view = specView(doc);
  const marks = (node: Node) => Object.entries<Node>(node['x-basis'] ?? {}).map(([path, mark]) => [path, basisOfMark(mark)?.kind]);

  it('when the header is read, then its name and value are marked as the reference\'s own, and no requirement speaks of it', () => {
    expect(marks(doc.components.parameters.IdempotencyKey)).toEqual([
      ['name', 'reference'],
      ['schema', 'reference'],
    ]);
    expect(REQUIREMENTS.filter((r) => /idempoten/i.test(`${r.id} ${r.says}`))).toEqual([]);
  });

  it('when the view is taken, then the 409 and 422 answers pin no code and ask for no Retry-After, and still carry the code every error has', () => {
    for (const name of ['IdempotencyKeyReused', 'IdempotencyKeyInUse', 'LinkIdempotencyKeyReused', 'LinkIdempotencyKeyInUse']) {
      expect(codeOf(doc, doc.components.responses[name]), name).toMatchObject({ const: expect.stringMatching(/^idempotency_key_/) });
      const code = codeOf(view, view.components.responses[name]) ?? {};
      expect(code.const, name).toBeUndefined();
      expect(code.enum, name).toBeUndefined();
      expect(deref(view, view.components.responses[name].content['application/json'].schema.allOf[1]).required, name).toEqual(['code']);
    }
    expect(doc.components.headers.RetryAfterKeyInUse.required).toBe(true);
    expect(view.components.headers.RetryAfterKeyInUse.required).toBeUndefined();
    // Where a requirement lists an endpoint's errors, a status only the key brings is marked the
    // reference's, so that list leaves its code out.
    const keyCodes = new Set(['idempotency_key_in_use', 'idempotency_key_reused']);
    for (const op of takers(doc)) {
      const opMarks = op.operation['x-basis'] ?? {};
      if (!opMarks.responses) continue;
      for (const status of ['409', '422']) {
        const code = codeOf(doc, op.operation.responses[status]);
        const codes: string[] = code.enum ?? [code.const];
        const onlyTheKey = codes.every((c) => keyCodes.has(c));
        expect(basisOfMark(opMarks[`responses/${status}`])?.kind === 'reference', `${op.operationId} ${status}`).toBe(onlyTheKey);
      }
    }
    // On the two 409s a requirement gives, the key's code is no more pinned than theirs.
    for (const op of ['setLoginUsername', 'rotateLoginPassword']) {
      const response = operations(view).find((o) => o.operationId === op)!.operation.responses['409'];
      expect(codeOf(view, response)?.enum, op).toBeUndefined();
    }
  });
});
