import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiDocument } from '../runner/document.js';
import { Schemas } from '../runner/schemas.js';
import { Canaries } from '../runner/canaries.js';
import { judgeResponse, type Judge } from '../runner/checks.js';
import { sameMeaning } from '../runner/header-values.js';
import { reference } from '../runner/basis.js';
import type { Exchange } from '../runner/exchange.js';
import type { Judgement } from '../runner/basis.js';
import { CaseContext, PRECONDITION_REFUSED, type RunEnvironment } from '../runner/context.js';
import { CaseFailure, NotRun, ReferenceDeparture } from '../runner/outcome.js';
import { startReference, type ReferenceServer } from './support/processes.js';
import { conform } from './support/run.js';

/**
 * The two judgements. The document's `x-basis` marks give a view of it that holds only the
 * specification's rules; judging by the specification, a departure from anything else is a
 * deviation, and judging by the reference, it fails as before.
 */

const doc = ApiDocument.load();
const view = doc.specView();
const judges = (judgement: Judgement): Judge => ({
  judgement,
  reference: { view: 'reference', doc, schemas: new Schemas(doc) },
  spec: { view: 'spec', doc: view, schemas: new Schemas(view) },
});
const BY = { spec: judges('spec'), reference: judges('reference') };

function exchange(operationId: string, status: number, body: unknown, headers: Record<string, string> = {}, request: Record<string, string> = {}): Exchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    operationId,
    request: { method: 'GET', url: 'http://vault.test/', headers: { accept: 'application/json', ...request } },
    response: {
      status,
      statusText: '',
      headers: { 'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json', ...headers },
      body: Buffer.from(text),
      text,
      json: typeof body === 'string' ? undefined : body,
      durationMs: 1,
    },
  };
}

const verdicts = (ex: Exchange) => ({ spec: judgeResponse(BY.spec, new Canaries(), ex), reference: judgeResponse(BY.reference, new Canaries(), ex) });
const NO_STORE = { 'cache-control': 'no-store' };
const PHONE = Object.fromEntries(['phone', 'phone_country', 'phone_national', 'phone_area', 'phone_prefix', 'phone_line'].map((f) => [f, `tok_${f}`]));
const FILED = { requestId: 'sreq_1', status: 'pending', expiresAt: 1767700800000 };

describe("the specification's view of the document", () => {
  const schema = (d: ApiDocument, name: string) => d.doc.components.schemas[name];

  it('when a constraint is marked as the reference choice, then the view leaves it out and keeps the rest', () => {
    expect(schema(doc, 'CardEntry').required).toEqual(['anySite', 'tokens']);
    expect(schema(view, 'CardEntry').required).toEqual(['anySite']);
    expect(schema(view, 'SignupRequestFiled').additionalProperties).toBeUndefined();
    expect(schema(view, 'SignupRequestDenied').additionalProperties).toBe(false);
    expect(schema(view, 'RecipeLookup').additionalProperties).toBe(false);
    expect(schema(view, 'TokenCatalog').properties.relatedLogins.items).toBeUndefined();
    expect(view.response('getSignupApproval', 200)!.node.content['text/html']).toBeUndefined();
    expect(doc.response('getSignupApproval', 200)!.node.content['text/html']).toBeDefined();
    expect(view.response('getCvvRequest', 404)!.node.headers['Cache-Control']).toBeUndefined();
    expect(view.response('getTokenCatalog', 200)!.node.headers['Cache-Control']).toBeDefined();
    expect(view.errorCodes('getTokenCatalog', 431)).toEqual([]);
    expect(doc.errorCodes('getTokenCatalog', 431)).toEqual(['bad_request']);
  });
});

describe('header values by meaning', () => {
  it.each([
    ['cache-control', 'public, max-age=300', 'max-age=300, public', 'equals', true],
    ['cache-control', 'public, max-age=300', 'Public, MAX-AGE=300', 'equals', true],
    ['cache-control', 'no-store', 'no-store, private', 'holds', true],
    ['cache-control', 'no-store', 'no-store, private', 'equals', false],
    ['cache-control', 'no-store', 'private, max-age=0', 'holds', false],
    ['cache-control', 'public, max-age=300', 'public, max-age=30', 'holds', false],
    ['vary', 'Accept', 'Accept-Encoding, accept', 'holds', true],
    ['vary', 'Accept', 'Accept-Encoding', 'holds', false],
  ] as const)('%s: documented %j, received %j, %s: %s', (name, documented, received, how, same) => {
    expect(sameMeaning(name, documented, received, how)).toBe(same);
  });
});

describe('a response judged both ways', () => {
  it('when the reference server answers, then neither judgement finds anything', () => {
    for (const v of Object.values(verdicts(exchange('fileSignupRequest', 202, FILED, NO_STORE)))) expect(v).toEqual({ deviations: [] });
  });

  it.each([
    ['an extra member in the 202 envelope', exchange('fileSignupRequest', 202, { ...FILED, traceId: 't' }, NO_STORE), /has a member the document does not allow: "traceId"/],
    ['a one-word error', exchange('getTokenCatalog', 401, { code: 'unauthorized', error: 'Unauthorized' }, NO_STORE), /an `error` in a sentence/],
    ['Cache-Control with one more directive', exchange('getTokenCatalog', 401, { code: 'unauthorized', error: 'No key.' }, { 'cache-control': 'no-store, private' }), /Cache-Control: no-store/],
    ['card tokens under other names', exchange('getTokenCatalog', 200, { cards: [{ anySite: true, pan: 'tok_1' }], logins: [], identity: { tokens: PHONE, missing: [] }, addresses: [] }, NO_STORE), /must have required property 'tokens'/],
    ['a link answered in JSON to a browser', exchange('getCvvRequest', 200, {}, { ...NO_STORE }, { accept: 'text/html' }), /the request's Accept/],
    ['410 with its own code for a used link', exchange('getCvvRequest', 410, { code: 'link_used', error: 'Used.' }, NO_STORE), /a status the document gives getCvvRequest/],
    ['its own code for an unknown link', exchange('getPurchaseApproval', 404, { code: 'link_unknown', error: 'No such link.' }, NO_STORE), /code: must be equal to one of the allowed values/],
    ['an empty 431 of an edge to a raw head', { ...exchange('getTokenCatalog', 431, '', {}), layer: true }, /Content-Type/],
    ['an HTML 400 of an edge to a raw head', { ...exchange('getTokenCatalog', 400, '<h1>Bad Request</h1>', {}), layer: true }, /a status the document gives/],
  ])('when a deployment sends %s, then it is a deviation by the specification and a failure by the reference', (_what, ex, message) => {
    const { spec, reference: strict } = verdicts(ex);
    expect(spec.failure).toBeUndefined();
    expect(spec.deviations.map((d) => `${d.expected} / ${d.received}`).join('\n')).toMatch(message);
    expect(spec.deviations.every((d) => d.where.basis?.kind === 'reference')).toBe(true);
    expect(strict.failure).toBeInstanceOf(CaseFailure);
    expect(`${strict.failure!.expected} / ${strict.failure!.received}`).toMatch(message);
  });

  it.each([
    ['no Cache-Control on an authenticated answer', exchange('getTokenCatalog', 401, { code: 'unauthorized', error: 'No key.' }), /a Cache-Control header/],
    ['an empty error', exchange('getTokenCatalog', 401, { code: 'unauthorized', error: ' ' }, NO_STORE), /human-readable `error`/],
    ['a code the operation does not list', exchange('getTokenCatalog', 401, { code: 'forbidden', error: 'No key.' }, NO_STORE), /an error code getTokenCatalog lists|\/code: must be equal to one of the allowed values/],
    ['a fractional Retry-After', exchange('getTokenCatalog', 429, { code: 'rate_limited', error: 'Slow down.' }, { ...NO_STORE, 'retry-after': '1.5' }), /whole seconds/],
    ['no Retry-After with rate_limited', exchange('getTokenCatalog', 429, { code: 'rate_limited', error: 'Slow down.' }, NO_STORE), /Retry-After with rate_limited/],
    ['a lookup with a fifth slot', exchange('getRecipes', 200, { merchant: null, platform: null, signup: null, signupPlatform: null, extra: null }, NO_STORE, {}), /documented schema/],
    ['a page to a JSON client', exchange('getCvvRequest', 200, '<p>hi</p>', NO_STORE), /Content-Type/],
    ['a denied poll with another member', exchange('getSignupRequest', 200, { status: 'denied', reason: 'x' }, NO_STORE), /documented schema/],
  ])('when a deployment sends %s, then both judgements fail it', (_what, ex, message) => {
    for (const v of Object.values(verdicts(ex))) {
      expect(v.failure).toBeInstanceOf(CaseFailure);
      expect(`${v.failure!.expected} / ${v.failure!.received}`).toMatch(message);
    }
  });
});

describe("a case's own assertions", () => {
  const basis = reference('An example of the reference choice.');
  const context = (judgement: Judgement, proves?: typeof basis) =>
    new CaseContext({ judgement, doc, judge: BY[judgement] } as unknown as RunEnvironment, { id: 'getTokenCatalog/example', sections: ['4.1'], basis: proves, needs: {}, costs: {} }, 1, { pace: false, honourRetryAfter: false });

  it('when a reference rule does not hold, then judging by the specification records a deviation and goes on', () => {
    const ctx = context('spec');
    ctx.check(false, 'something the reference does', 'something else', { basis });
    ctx.expectEqual(1, 2, 'one:', { basis });
    expect(ctx.deviations.map((d) => d.expected)).toEqual(['something the reference does', 'one: 2']);
    expect(() => ctx.check(false, 'a rule of the specification', 'broken', { sections: ['4.1'] })).toThrow(CaseFailure);
    expect(() => context('spec', basis).expectStatus(exchange('getTokenCatalog', 200, {}), 429, { basis })).toThrow(ReferenceDeparture);
  });

  it('when a case only builds on a reference choice the deployment does not share, then judging by the specification it is not run, never passed', () => {
    const ctx = context('spec');
    const departed = (() => {
      try {
        ctx.expectStatus(exchange('getTokenCatalog', 200, {}), 429, { basis: reference('A choice the case builds on.', 'a sample of the deployment') });
      } catch (e) {
        return e;
      }
    })();
    expect(departed).toBeInstanceOf(NotRun);
    expect((departed as NotRun).kind).toBe('capability');
    expect((departed as NotRun).label).toBe(PRECONDITION_REFUSED);
    expect((departed as NotRun).message).toMatch(/To run it: a sample of the deployment/);
    expect(ctx.deviations.map((d) => d.expected)).toEqual(['status 429']);
  });

  it('when the deployment refuses what a rule depends on, then the case is not run with the remedy; judging by the reference, a binding refusal fails', () => {
    expect(() => context('spec').precondition(false, 'a contribution accepted', '400 invalid_recipe', 'a sample', undefined, { basis })).toThrow(NotRun);
    expect(() => context('reference').precondition(false, 'a contribution accepted', '400 invalid_recipe', 'a sample', undefined, { basis })).toThrow(CaseFailure);
    expect(() => context('reference').precondition(false, 'a sample with a page', 'none', 'a page')).toThrow(NotRun);
  });

  it('when a link succeeds with another 2xx, then judging by the specification it is a deviation; a refusal fails', () => {
    const ctx = context('spec');
    ctx.expectStatus(exchange('decidePurchaseApproval', 201, { state: 'approved' }, NO_STORE), 200);
    expect(ctx.deviations.map((d) => `${d.expected} / ${d.received}`)).toEqual(['status 200 / 201']);
    expect(() => ctx.expectStatus(exchange('decidePurchaseApproval', 404, { code: 'not_found', error: 'No link.' }, NO_STORE), 200)).toThrow(CaseFailure);
    expect(() => ctx.expectStatus(exchange('getTokenCatalog', 201, {}, NO_STORE), 200)).toThrow(CaseFailure);
    expect(() => context('reference').expectStatus(exchange('decidePurchaseApproval', 201, {}, NO_STORE), 200)).toThrow(CaseFailure);
  });

  it('when a used link refuses with another 4xx, then judging by the specification it passes with a deviation; a 2xx fails', () => {
    const ctx = context('spec');
    ctx.expectRefused(exchange('getCvvRequest', 410, { code: 'link_used', error: 'Used.' }, NO_STORE), 'not_found', basis, { status: 404, sections: ['4.11'] });
    expect(ctx.deviations.map((d) => `${d.expected} / ${d.received}`)).toEqual(['404 not_found / 410 link_used']);
    expect(() => ctx.expectRefused(exchange('getCvvRequest', 200, {}, NO_STORE), 'not_found', basis, { status: 404, sections: ['4.11'] })).toThrow(CaseFailure);
    expect(() => context('reference').expectRefused(exchange('getCvvRequest', 410, { code: 'link_used', error: 'Used.' }, NO_STORE), 'not_found', basis, { status: 404 })).toThrow(CaseFailure);
  });

  it('when a reference rule does not hold, then judging by the reference fails the case', () => {
    const ctx = context('reference');
    expect(() => ctx.check(false, 'something the reference does', 'something else', { basis })).toThrow(CaseFailure);
    expect(ctx.deviations).toEqual([]);
  });
});

describe('the reference server judged by the specification', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReference({ VAULT_CLOCK: 'manual' });
  });
  afterAll(() => server?.stop());

  it('when the whole catalogue runs, then every case passes and nothing departs from its own choices', async () => {
    const run = await conform(['--base-url', server.base, '--admin-token', server.adminToken, '--spend', '--jobs', '4', '--seed', '4', '--judge', 'spec']);
    expect(run.failed, run.output).toEqual([]);
    expect(run.errors, run.output).toEqual([]);
    expect(run.judgement).toBe('spec');
    expect(run.results.flatMap((r) => r.deviations.map((d) => `${r.id}: ${d.expected} / ${d.received}`))).toEqual([]);
    expect(run.output).toContain('judged by the specification');
  }, 300_000);
});
