import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { contract } from './support.js';
import { schemaValidator } from '../domain/registry.js';
import { submissionProblems } from '../domain/recipes.js';
import { answerProblem } from './answers.js';

/**
 * The document tells the whole truth: a body the specification closes is closed in its schema, so a
 * leaked member breaks the contract for every validator; and every rule the server checks on a
 * recipe is in the schema, so generated clients and outside tools know it.
 */

const valid = (name: string, value: unknown) => schemaValidator(contract(), name)(value).length === 0;

describe('closed bodies', () => {
  const login = { label: 'acme', website: 'acme.com', extraWebsites: [], hasEmail: true, hasTotp: false, tokens: { password: 'tok_pw_1', email: 'tok_em_1' } };
  const policy = { length: 24, classes: ['lowercase', 'uppercase', 'digit'] };
  const closed: [string, Record<string, unknown>][] = [
    ['SignupRequestDenied', { status: 'denied' }],
    ['SignupRequestExpired', { status: 'expired' }],
    ['RecipeSubmissionAccepted', { id: 'sub_1', status: 'pending' }],
    ['SignupRequestFiled', { requestId: 'sreq_1', status: 'pending', expiresAt: 1 }],
    ['LoginEnvelope', { login }],
    ['RotatePasswordResult', { login, passwordPolicy: policy, rotated: true }],
  ];

  it('when a body the specification gives whole carries another member, then the document refuses it', () => {
    for (const [name, body] of closed) {
      expect(valid(name, body), name).toBe(true);
      expect(valid(name, { ...body, email: 'jane@example.com' }), `${name} with a leaked email`).toBe(false);
      expect(valid(name, { ...body, password: 'hunter2hunter2' }), `${name} with a leaked password`).toBe(false);
    }
  });

  it('when a denied or expired poll carries a login, then the poll schema refuses it', () => {
    for (const status of ['denied', 'expired']) {
      expect(valid('SignupRequestStatus', { status }), status).toBe(true);
      expect(valid('SignupRequestStatus', { status, login, passwordPolicy: policy }), status).toBe(false);
    }
  });

  it('when the specification says a body is not shown, then its schema stays open and says so', () => {
    const schemas = contract().doc.components.schemas;
    for (const name of ['LoginEntry', 'TokenCatalog', 'Recipe', 'CvvRequest', 'ChallengeRequest', 'PurchaseApproval', 'SignupApproval', 'LinkDecisionResult', 'ProxyHealth']) {
      const schema = contract().resolve(schemas[name]);
      expect(schema.additionalProperties, name).toBeUndefined();
      expect(String(schema.description).replace(/\s+/g, ' '), name).toMatch(/not (specified|shown)|kept as sent/);
    }
  });
});

describe('recipe rules in the schema', () => {
  const base = { status: 'partial' };
  // Each body validated against RecipeSubmissionRequest before these rules were in the schema.
  const refused: [string, Record<string, unknown>][] = [
    ['a signup: key with nothing after it', { ...base, key: 'signup:', kind: 'signup' }],
    ['a signup-platform key with nothing after it', { ...base, key: 'signup:', kind: 'signup-platform' }],
    ['a signup recipe whose platform is a merchant platform', { ...base, key: 'signup:acme.com', kind: 'signup', platform: 'shopify' }],
    ['a merchant recipe with a signup: key', { ...base, key: 'signup:acme.com', kind: 'merchant' }],
    ['a platform recipe with a signup: key', { ...base, key: 'signup:pay', kind: 'platform' }],
    ['a merchant recipe naming a signup-platform', { ...base, key: 'acme.com', kind: 'merchant', platform: 'signup:auth0' }],
    ['the reserved platform key custom', { ...base, key: 'custom', kind: 'platform' }],
    ['the reserved signup-platform key signup:custom', { ...base, key: 'signup:custom', kind: 'signup-platform' }],
    ['a key with a space', { ...base, key: 'my shop.com', kind: 'merchant' }],
    ['a match host with a scheme', { ...base, key: 'acme.com', kind: 'merchant', match: { hosts: ['https://acme.com'] } }],
    ['a match host with a wildcard', { ...base, key: 'acme.com', kind: 'merchant', match: { hosts: ['*.acme.com'] } }],
  ];

  it('when a recipe breaks a rule the server checks, then the schema refuses it too, in the words the server answers', () => {
    for (const [what, recipe] of refused) {
      expect(valid('RecipeSubmissionRequest', recipe), what).toBe(false);
      expect(valid('RecipeSubmissionRequest', { recipe }), `${what}, wrapped`).toBe(false);
      const problems = submissionProblems(contract(), recipe);
      expect(problems.length, what).toBeGreaterThan(0);
      for (const p of problems) expect(p.message, what).not.toMatch(/must match pattern|must NOT be valid/);
    }
  });

  it('when recipes of every kind, key, platform and host are drawn, then the server accepts exactly those the schema accepts', () => {
    const recipe = fc.record(
      {
        key: fc.constantFrom('acme.com', 'signup:acme.com', 'signup:', 'custom', 'signup:custom', 'shopify', 'signup:auth0', 'my shop', 'x\u0007y'),
        kind: fc.constantFrom('merchant', 'platform', 'signup', 'signup-platform'),
        status: fc.constantFrom('verified', 'partial', 'unverified', 'dead-end'),
        platform: fc.constantFrom('custom', 'shopify', 'signup:auth0', 'signup:', ''),
        match: fc.record({ hosts: fc.array(fc.constantFrom('www.acme.com', 'exÿ.com', 'ACME.COM.', 'a_b.com', 'https://acme.com', '-a.com', 'a..b'), { minLength: 1, maxLength: 2 }) }),
      },
      { requiredKeys: ['key', 'kind', 'status'] },
    );
    fc.assert(
      fc.property(recipe, fc.boolean(), (r, wrapped) => {
        const body = wrapped ? { recipe: r } : r;
        expect(submissionProblems(contract(), body).length === 0, JSON.stringify(body)).toBe(valid('RecipeSubmissionRequest', body));
      }),
      { numRuns: 1000 },
    );
  });

  it('when a verification claim comes with a blank note, then the schema refuses it as the server does', () => {
    const recipe = { key: 'acme.com', kind: 'merchant', status: 'partial' };
    for (const note of [undefined, '', '  \n\t ']) expect(valid('RecipeSubmissionRequest', { recipe, verificationRequested: true, note }), JSON.stringify(note)).toBe(false);
    expect(valid('RecipeSubmissionRequest', { recipe, verificationRequested: true, note: ' ok ' })).toBe(true);
  });
});

describe('the answer check of the test server', () => {
  it('when an answer is undocumented or breaks its schema, then the check names it; a documented one passes', () => {
    const check = (method: string, path: string, status: number, body: unknown) => answerProblem(contract(), true, method, path, status, JSON.stringify(body));
    expect(check('POST', '/v1/recipes', 400, { code: 'invalid_recipe', error: 'The recipe failed validation.' })).toMatch(/schema refuses/);
    expect(check('POST', '/v1/recipes', 400, { code: 'invalid_recipe', error: 'x', errors: [{ path: '', message: 'is not valid JSON' }] })).toBeUndefined();
    expect(check('GET', '/v1/recipes', 400, { code: 'bad_request', error: 'x' })).toMatch(/does not document/);
    expect(check('GET', '/v1/logins/requests/sreq_1', 200, { status: 'denied', login: {} })).toMatch(/schema refuses/);
    expect(check('POST', '/_fixtures/accounts', 413, { code: 'bad_request', error: 'x' })).toBeUndefined();
    expect(check('GET', '/v1/unknown', 404, { code: 'not_found', error: 'x' })).toBeUndefined();
  });
});
