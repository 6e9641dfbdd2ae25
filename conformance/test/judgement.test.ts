import { describe, expect, it } from 'vitest';
import { ApiDocument } from '../runner/document.js';
import { Schemas } from '../runner/schemas.js';
import { Canaries } from '../runner/canaries.js';
import { judgeResponse, type Judge } from '../runner/checks.js';
import { sameMeaning } from '../runner/header-values.js';
import { reference, spec, type Basis } from '../runner/basis.js';
import type { Exchange } from '../runner/exchange.js';
import type { Judgement } from '../runner/basis.js';
import { CaseContext, PRECONDITION_REFUSED, type RunEnvironment } from '../runner/context.js';
import { CaseFailure, NotRun, ReferenceDeparture } from '../runner/outcome.js';

/**
 * The two judgements. The document's `x-basis` marks give a view of it that holds only what a
 * requirement of the catalogue states; judging by the specification, a departure from anything
 * else is a deviation, and every failure names the requirement it broke. Judging by the
 * reference, the whole document binds.
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

  it('when a constraint names no requirement, then the view leaves it out; what a requirement states it keeps', () => {
    expect(schema(doc, 'CardEntry').required).toEqual(['anySite', 'tokens']);
    expect(schema(view, 'CardEntry').required).toEqual(['anySite']);
    expect(schema(view, 'CardEntry').properties.anySite.type).toBe('boolean');
    // A member whose shape the specification does not give is not type-checked: cards may be a list or an object.
    expect(schema(doc, 'TokenCatalog').properties.cards.type).toBe('array');
    expect(schema(view, 'TokenCatalog').properties.cards.type).toBeUndefined();
    expect(schema(view, 'SignupRequestFiled').additionalProperties).toBeUndefined();
    // "Nothing else" reads two ways: the closed object is the reference's reading.
    expect(schema(view, 'SignupRequestDenied').additionalProperties).toBeUndefined();
    expect(schema(view, 'RecipeLookup').additionalProperties).toBe(false);
    expect(schema(view, 'LoginLabel').pattern).toBe(schema(doc, 'LoginLabel').pattern);
    expect(schema(view, 'Token').minLength).toBeUndefined();
    expect(schema(view, 'SignupRequestStatus').oneOf).toBeUndefined();
    expect(schema(view, 'TokenCatalog').properties.relatedLogins.items).toEqual({});
    expect(view.response('getCvvRequest', 404)!.node.headers['Cache-Control']).toBeUndefined();
    expect(view.response('getTokenCatalog', 401)!.node.headers['Cache-Control']).toBeUndefined();
    expect(view.response('getTokenCatalog', 200)!.node.headers['Cache-Control']).toBeDefined();
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
    for (const v of Object.values(verdicts(exchange('fileSignupRequest', 202, FILED, NO_STORE)))) {
      expect(v.failure).toBeUndefined();
      expect(v.deviations).toEqual([]);
    }
  });

  const MATCHED = { cards: [{ anySite: true, tokens: { number: 'tok_1', securityCode: 'tok_2' } }], logins: [], identity: { tokens: PHONE, missing: [] }, addresses: [] };
  it.each([
    ['an extra member in the 202 envelope', exchange('fileSignupRequest', 202, { ...FILED, traceId: 't' }, NO_STORE), /has a member the document does not allow: "traceId"/],
    ['a one-word error', exchange('getTokenCatalog', 401, { code: 'unauthorized', error: 'Unauthorized' }, NO_STORE), /an `error` in a sentence/],
    ['Cache-Control with one more directive', exchange('getTokenCatalog', 200, MATCHED, { 'cache-control': 'no-store, private' }), /Cache-Control: no-store/],
    ['no Cache-Control on a refused key', exchange('getTokenCatalog', 401, { code: 'unauthorized', error: 'No key.' }), /a Cache-Control header/],
    ['card tokens under other names', exchange('getTokenCatalog', 200, { ...MATCHED, cards: [{ anySite: true, pan: 'tok_1' }] }, NO_STORE), /must have required property 'tokens'/],
    ['cards keyed by label, not listed', exchange('getTokenCatalog', 200, { ...MATCHED, cards: { visa: { anySite: true, tokens: { number: 'tok_1' } } } }, NO_STORE), /must be array/],
    ['an error as application/problem+json', exchange('getTokenCatalog', 401, { code: 'unauthorized', error: 'No key.' }, { ...NO_STORE, 'content-type': 'application/problem+json' }), /Content-Type/],
    ['a meta member with a request id', exchange('getSignupRequest', 200, { status: 'denied', meta: { requestId: 'r1' } }, NO_STORE), /does not allow: "meta"/],
    ['a link answered in JSON to a browser', exchange('getCvvRequest', 200, {}, { ...NO_STORE }, { accept: 'text/html' }), /the request's Accept/],
    ['410 with its own code for a used link', exchange('getCvvRequest', 410, { code: 'link_used', error: 'Used.' }, NO_STORE), /a status the document gives getCvvRequest/],
    ['its own code for an unknown link', exchange('getPurchaseApproval', 404, { code: 'link_unknown', error: 'No such link.' }, NO_STORE), /code: must be equal to one of the allowed values/],
    ['an approval it cannot complete answered 409', exchange('decideSignupApproval', 409, { code: 'approval_blocked', error: 'No free label.' }, NO_STORE), /an error code decideSignupApproval lists for 409/],
    ['a purchase decision answered 204 with no body', { ...exchange('decidePurchaseApproval', 204, ''), response: { ...exchange('decidePurchaseApproval', 204, '').response, headers: {}, body: Buffer.alloc(0), text: '' } }, /a status the document gives decidePurchaseApproval/],
    ['a decision answered 202', exchange('decidePurchaseApproval', 202, { status: 'approved' }, NO_STORE), /a status the document gives decidePurchaseApproval/],
    ['an empty 431 of an edge to a raw head', { ...exchange('getTokenCatalog', 431, '', {}), layer: true }, /Content-Type/],
    ['an HTML 400 of an edge to a raw head', { ...exchange('getTokenCatalog', 400, '<h1>Bad Request</h1>', {}), layer: true }, /a status the document gives/],
  ])('when a deployment sends %s, then it is a deviation by the specification and a failure by the reference', (_what, ex, message) => {
    const { spec: bySpec, reference: strict } = verdicts(ex);
    expect(bySpec.failure).toBeUndefined();
    expect(bySpec.deviations.map((d) => `${d.expected} / ${d.received}`).join('\n')).toMatch(message);
    expect(bySpec.deviations.every((d) => d.where.kind === 'reference')).toBe(true);
    expect(strict.failure).toBeInstanceOf(CaseFailure);
  });

  it.each([
    ['no Cache-Control on a catalog', exchange('getTokenCatalog', 200, MATCHED), /a Cache-Control header/, 'auth-no-store'],
    ['a catalog answered 201', exchange('getTokenCatalog', 201, MATCHED, NO_STORE), /status 200|a status the document gives/, 'tokens-answer-200'],
    ['a contribution answered 200', exchange('submitRecipe', 200, { id: 's1', status: 'pending' }, NO_STORE), /status 202|a status the document gives/, 'submit-answer-202-pending'],
    ['an empty error', exchange('getTokenCatalog', 401, { code: 'unauthorized', error: ' ' }, NO_STORE), /human-readable `error`|an `error` in a sentence/, 'errors-have-code-and-error'],
    ['an error without a code', exchange('getTokenCatalog', 401, { error: 'No key.' }, NO_STORE), /`code`, a string|required property 'code'/, 'errors-have-code-and-error'],
    ['a code the operation does not list', exchange('getTokenCatalog', 401, { code: 'forbidden', error: 'No key.' }, NO_STORE), /an error code getTokenCatalog lists|must be equal to one of the allowed values/, 'tokens-errors'],
    ['a listed code with another status', exchange('getTokenCatalog', 400, { code: 'invalid_api_key', error: 'No key.' }, NO_STORE), /invalid_api_key with status 401|a status the document gives/, 'tokens-errors'],
    ['a fractional Retry-After', exchange('getTokenCatalog', 429, { code: 'rate_limited', error: 'Slow down.' }, { ...NO_STORE, 'retry-after': '1.5' }), /whole seconds/, 'rate-limited-retry-after'],
    ['no Retry-After with rate_limited', exchange('getTokenCatalog', 429, { code: 'rate_limited', error: 'Slow down.' }, NO_STORE), /Retry-After with rate_limited/, 'rate-limited-retry-after'],
    ['Retry-After on the recipe budget', exchange('submitRecipe', 429, { code: 'rate_limited', error: 'Budget spent.' }, { ...NO_STORE, 'retry-after': '60' }), /no Retry-After with rate_limited/, 'submit-budget-no-retry-after'],
    ['a lookup with a fifth slot', exchange('getRecipes', 200, { merchant: null, platform: null, signup: null, signupPlatform: null, extra: null }, NO_STORE, {}), /documented schema/, ['lookup-four-slots', 'recipes-index']],
    ['a page to a JSON client', exchange('getCvvRequest', 200, '<p>hi</p>', NO_STORE), /a JSON body|Content-Type/, 'bodies-are-json'],
    ['JSON sent as text/plain', exchange('getTokenCatalog', 200, MATCHED, { ...NO_STORE, 'content-type': 'text/plain' }), /a JSON body|Content-Type/, 'bodies-are-json'],
    ['a pending poll without expiresAt', exchange('getSignupRequest', 200, { status: 'pending' }, NO_STORE), /expiresAt/, 'poll-pending-expires-at'],
  ] as [string, Exchange, RegExp, string | string[]][])('when a deployment sends %s, then both judgements fail it, and by the specification it names its requirement', (_what, ex, message, requirement) => {
    for (const v of Object.values(verdicts(ex))) {
      expect(v.failure).toBeInstanceOf(CaseFailure);
      expect(`${v.failure!.expected} / ${v.failure!.received}`).toMatch(message);
    }
    const failure = verdicts(ex).spec.failure!;
    expect(failure.where.kind).not.toBe('reference');
    // The body of GET /v1/recipes is the index or a lookup: a problem may be told against either.
    const named = (failure.where as Extract<Basis, { requirements: unknown }>).requirements as string[];
    expect(named.some((id) => (Array.isArray(requirement) ? requirement : [requirement]).includes(id)), named.join()).toBe(true);
  });
});

describe("a case's own assertions", () => {
  const basis = reference('An example of the reference choice.');
  const context = (judgement: Judgement, proves?: typeof basis) =>
    new CaseContext(
      { judgement, doc, judge: BY[judgement] } as unknown as RunEnvironment,
      { id: 'getTokenCatalog/example', requirements: proves ? [] : ['tokens-answer-200'], sections: ['4.1'], basis: proves, needs: {}, costs: {} },
      1,
      { pace: false, honourRetryAfter: false },
    );

  it('when a reference rule does not hold, then judging by the specification records a deviation and goes on', () => {
    const ctx = context('spec');
    ctx.check(false, 'something the reference does', 'something else', basis);
    ctx.expectEqual(1, 2, 'one:', basis);
    expect(ctx.deviations.map((d) => d.expected)).toEqual(['something the reference does', 'one: 2']);
    expect(() => ctx.check(false, 'a rule of the specification', 'broken', spec('tokens-url-narrows'))).toThrow(CaseFailure);
    expect(ctx.tried.broken.has('tokens-url-narrows')).toBe(true);
    expect(() => context('spec', basis).expectStatus(exchange('getTokenCatalog', 200, {}), 429, basis)).toThrow(ReferenceDeparture);
  });

  it('when an assertion holds, then its requirement is counted as tried', () => {
    const ctx = context('spec');
    ctx.check(true, 'anything', 'nothing', spec('tokens-host-alias'));
    ctx.expectStatus(exchange('getTokenCatalog', 200, {}), 200, spec('tokens-answer-200'));
    expect([...ctx.tried.held].sort()).toEqual(['tokens-answer-200', 'tokens-host-alias']);
  });

  it('when a case only builds on a reference choice the deployment does not share, then judging by the specification it is not run, never passed', () => {
    const ctx = context('spec');
    const departed = (() => {
      try {
        ctx.expectStatus(exchange('getTokenCatalog', 200, {}), 429, reference('A choice the case builds on.', 'a sample of the deployment'));
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
    expect(() => context('spec').precondition(false, 'a contribution accepted', '400 invalid_recipe', 'a sample', undefined, basis)).toThrow(NotRun);
    expect(() => context('reference').precondition(false, 'a contribution accepted', '400 invalid_recipe', 'a sample', undefined, basis)).toThrow(CaseFailure);
    expect(() => context('reference').precondition(false, 'a sample with a page', 'none', 'a page')).toThrow(NotRun);
  });

  it('when a link succeeds with another 2xx, or none, then judging by the specification the reference\'s 200 is a deviation; a refusal fails', () => {
    const ctx = context('spec');
    const ok = { status: 200, basis };
    ctx.expectSuccess(exchange('decidePurchaseApproval', 201, { state: 'approved' }, NO_STORE), spec('link-purchase-approval'), ok);
    ctx.expectSuccess({ ...exchange('decidePurchaseApproval', 204, ''), response: { ...exchange('decidePurchaseApproval', 204, '').response, body: Buffer.alloc(0), text: '' } }, spec('link-purchase-approval'), ok);
    expect(ctx.deviations.map((d) => `${d.expected} / ${d.received}`)).toEqual(['status 200 / 201', 'status 200 / 204']);
    expect(() => ctx.expectSuccess(exchange('decidePurchaseApproval', 404, { code: 'not_found', error: 'No link.' }, NO_STORE), spec('link-purchase-approval'), ok)).toThrow(CaseFailure);
    expect(() => ctx.expectStatus(exchange('getTokenCatalog', 201, {}, NO_STORE), 200, spec('tokens-answer-200'))).toThrow(CaseFailure);
    expect(() => context('reference').expectSuccess(exchange('decidePurchaseApproval', 201, {}, NO_STORE), spec('link-purchase-approval'), ok)).toThrow(CaseFailure);
  });

  it('when a used link refuses with another 4xx, then judging by the specification it passes with a deviation; a 2xx fails', () => {
    const ctx = context('spec');
    ctx.expectRefused(exchange('getCvvRequest', 410, { code: 'link_used', error: 'Used.' }, NO_STORE), 'not_found', basis, { ...spec('links-single-use'), status: 404 });
    expect(ctx.deviations.map((d) => `${d.expected} / ${d.received}`)).toEqual(['404 not_found / 410 link_used']);
    expect(() => ctx.expectRefused(exchange('getCvvRequest', 200, {}, NO_STORE), 'not_found', basis, { ...spec('links-single-use'), status: 404 })).toThrow(CaseFailure);
    expect(() => context('reference').expectRefused(exchange('getCvvRequest', 410, { code: 'link_used', error: 'Used.' }, NO_STORE), 'not_found', basis, { ...spec('links-single-use'), status: 404 })).toThrow(CaseFailure);
  });

  it('when a reference rule does not hold, then judging by the reference fails the case', () => {
    const ctx = context('reference');
    expect(() => ctx.check(false, 'something the reference does', 'something else', basis)).toThrow(CaseFailure);
    expect(ctx.deviations).toEqual([]);
  });
});
