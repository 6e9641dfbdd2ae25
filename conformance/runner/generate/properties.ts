import { sameMeaning } from '../header-values.js';
import fc from 'fast-check';
import type { ApiDocument } from '../document.js';
import type { CaseContext, CallOptions } from '../context.js';
import type { CaseCosts, CaseNeeds } from '../case.js';
import type { Exchange } from '../exchange.js';
import { RunnerError } from '../outcome.js';
import { reference, spec, type Basis } from '../basis.js';
import { body, entries } from '../by-meaning.js';
import type { Stock } from './stock.js';
import { bodyShape, type Member } from './schema.js';
import { jsonText, RawNumber } from './json-text.js';
import {
  BROKEN_RULE,
  brokenUnderEveryReading,
  EMAIL,
  NOT_A_SITE,
  NOT_A_USERNAME,
  NOT_AN_EMAIL,
  PAGE,
  PASSWORD_RULES,
  SITE,
  TEXT_CHAR,
  USERNAME,
  WRONG_TYPED_RULES,
  emailOfLength,
  textOfLength,
  wrongType,
  EMAIL_MAX,
  EMAIL_MIN,
} from './values.js';

/**
 * Generated requests, per operation: valid ones (at the boundaries too), and ones that break
 * exactly one rule the document states, each with the answer the document gives that break. Where
 * the document says a violation is ignored (wrong-typed password rule fields, `$` names, unlisted
 * query parameters, an unparseable `url`), the request is a valid one.
 */

export interface Gen {
  ctx: CaseContext;
  stock: Stock;
  doc: ApiDocument;
}

/** One generated request, ready to send, with what the document says must come back. */
export interface Generated {
  /** The rule it breaks, or `valid` (with what makes it interesting). */
  rule: string;
  call: CallOptions;
  expect: { status: number; code?: string } | 'accepted';
  /**
   * The requirement the expected answer rests on. Without one, the expectation is the reference's
   * document's (a schema rule mapped to its code), which judging by the specification is a deviation only.
   */
  basis?: Basis;
  /** The break is a schema rule: the runner checks its own input fails the document's schema. */
  schemaRule?: boolean;
  /** The operation it is sent to, when a property spans several. */
  operationId?: string;
}

export interface Property {
  id: string;
  operationId: string;
  kind: 'negative' | 'positive' | 'sequence';
  needs: CaseNeeds;
  costs: CaseCosts;
  /** The rules it breaks (negative) or the valid shapes it tries (positive), for the report. */
  rules: string[];
  weight: number;
  /** Builds one request from a generated value; the credential comes from the stock. */
  arbitrary: fc.Arbitrary<(g: Gen) => Promise<Generated>>;
  /** Checks what came back beyond the status, for valid requests. */
  verify?(g: Gen, generated: Generated, ex: Exchange): Promise<void> | void;
}

type Body = Record<string, unknown>;
const LINK_DECIDERS = ['decidePurchaseApproval', 'decideSignupApproval'];
const SIGNUP_WRITES = ['fileSignupRequest', 'setLoginUsername', 'rotateLoginPassword'];

// Credentials --------------------------------------------------------------------------------------

/** What a valid request of the operation is sent with: a key, a link token, or nothing. */
async function credential(g: Gen, operationId: string): Promise<{ call: CallOptions; label?: string }> {
  switch (operationId) {
    case 'fileSignupRequest':
      return { call: { key: (await g.stock.signupKey()).key } };
    case 'setLoginUsername':
    case 'rotateLoginPassword': {
      const seat = await g.stock.seat();
      return { call: { key: seat.key }, label: seat.label };
    }
    case 'submitRecipe':
      return { call: { key: await g.stock.recipeKey() } };
    case 'getTokenCatalog':
    case 'getRecipeSubmission':
    case 'getSignupRequest':
      return { call: { key: await g.stock.plainKey() } };
    case 'decidePurchaseApproval':
      return { call: { params: { token: await g.stock.purchaseLink() } } };
    case 'decideSignupApproval':
      return { call: { params: { token: await g.stock.signupLink() } } };
    default:
      return { call: {} };
  }
}

// Valid bodies -------------------------------------------------------------------------------------

const SIGNUP_BODY: fc.Arbitrary<{ body: Body; shape: string }> = fc.oneof(
  fc.record({ website: SITE, email: EMAIL }).map((body) => ({ body, shape: 'website and email' })),
  fc.record({ website: SITE, email: fc.constantFrom(EMAIL_MIN, EMAIL_MAX).chain(emailOfLength) }).map((body) => ({ body, shape: 'email at a length bound' })),
  fc.record({ website: SITE, email: EMAIL, username: fc.oneof(USERNAME, textOfLength(4)) }).map((body) => ({ body, shape: 'with a username' })),
  fc.tuple(fc.record({ website: SITE, email: EMAIL }), PASSWORD_RULES).map(([b, r]) => ({ body: { ...b, ...r }, shape: 'with password rule fields' })),
  fc.tuple(fc.record({ website: SITE, email: EMAIL }), WRONG_TYPED_RULES).map(([b, r]) => ({ body: { ...b, ...r }, shape: 'rule fields of the wrong type (ignored)' })),
  fc.tuple(fc.record({ website: SITE, email: EMAIL }), fc.constantFrom({ maxLength: 12 }, { minLength: 64 }, { maxLength: 1e400 }, { minLength: -1e400 }))
    .map(([b, r]) => ({ body: { ...b, ...r }, shape: 'rule fields at their bounds' })),
);

const RECIPE_KIND = fc.constantFrom('merchant', 'platform', 'signup', 'signup-platform');
const RECIPE_STATUS = fc.constantFrom('verified', 'partial', 'unverified', 'dead-end');

/** A recipe the document's schema allows, for a fresh site. */
const RECIPE = fc.tuple(RECIPE_KIND, RECIPE_STATUS, SITE, fc.boolean()).map(([kind, status, site, dollars]) => {
  const signup = kind.startsWith('signup');
  const named = kind === 'merchant' || kind === 'signup';
  const recipe: Body = { key: signup ? `signup:${site}` : site, kind, status, steps: [] };
  if (named) recipe.platform = 'custom';
  if (named) recipe.match = { hosts: [`www.${site}`], paths: ['/checkout'] };
  if (dollars) Object.assign(recipe, { $schema: 'https://example.com/recipe', steps: [{ action: 'click', $comment: 'x' }] });
  return recipe;
});

/** A valid body of the operation, without its credential-bound members. */
function validBody(operationId: string): fc.Arbitrary<{ body: Body; shape: string }> {
  switch (operationId) {
    case 'fileSignupRequest':
      return SIGNUP_BODY;
    case 'setLoginUsername':
      return USERNAME.map((username) => ({ body: { username }, shape: 'a username' }));
    case 'rotateLoginPassword':
      return fc.oneof(PASSWORD_RULES.map((r) => ({ body: r as Body, shape: 'password rule fields' })), WRONG_TYPED_RULES.map((r) => ({ body: r as Body, shape: 'rule fields of the wrong type (ignored)' })));
    case 'submitRecipe':
      return fc.oneof(RECIPE.map((recipe) => ({ body: recipe, shape: 'a recipe' })), RECIPE.map((recipe) => ({ body: { recipe, note: 'Checked out once.', verificationRequested: true }, shape: 'the wrapper with a claim' })));
    case 'decidePurchaseApproval':
      return fc.constant({ body: { decision: 'deny' }, shape: 'a denial' });
    case 'decideSignupApproval':
      return fc.constant({ body: { decision: 'deny' }, shape: 'a denial' });
    default:
      return fc.constant({ body: {}, shape: 'empty' });
  }
}

// Breaking one rule --------------------------------------------------------------------------------

interface Break {
  rule: string;
  /** Returns the broken body as JSON text, or raw bytes with their content type, and the requirement whose words give the answer (without one, the answer is the document's alone). */
  make: fc.Arbitrary<(body: Body) => { text: string | Buffer; contentType?: string; chunked?: boolean; basis?: Basis }>;
  status: number;
  code: string;
  schemaRule: boolean;
}

const asJson = (edit: (body: Body) => Body) => (body: Body) => ({ text: jsonText(edit({ ...body })) });

/** The value arbitrary that breaks a member's own rules, with the rule's name; domain kinds first. */
function brokenValues(m: Member, operationId: string): { rule: string; values: fc.Arbitrary<unknown>; basis?: (value: unknown) => Basis | undefined }[] {
  const when = (member: 'website' | 'email' | 'username', basis: Basis) => (value: unknown) => (brokenUnderEveryReading(member, value) ? basis : undefined);
  if (m.name === 'website') return [{ rule: 'website not a registrable domain', values: NOT_A_SITE, basis: when('website', spec('filing-website-registrable')) }];
  if (m.name === 'email') return [{ rule: 'email not one address of 4 to 254 characters', values: NOT_AN_EMAIL, basis: when('email', spec('filing-email-shape')) }];
  if (m.name === 'username') {
    const basis = operationId === 'setLoginUsername' ? spec('username-body') : spec('filing-username-shape');
    return [{ rule: 'username under 4 characters or with a control character', values: NOT_A_USERNAME, basis: when('username', basis) }];
  }
  const out: { rule: string; values: fc.Arbitrary<unknown> }[] = [];
  const s = m.schema;
  if (typeof s.minLength === 'number' && s.minLength > 0) out.push({ rule: `${m.name} shorter than ${s.minLength}`, values: textOfLength(s.minLength - 1) });
  if (typeof s.maxLength === 'number') out.push({ rule: `${m.name} longer than ${s.maxLength}`, values: textOfLength(s.maxLength + 1) });
  if (typeof s.pattern === 'string') {
    const re = new RegExp(s.pattern, 'u');
    out.push({ rule: `${m.name} breaking its pattern`, values: fc.string({ minLength: 1, maxLength: 12, unit: TEXT_CHAR }).filter((v) => !re.test(v)) });
  }
  if (Array.isArray(s.enum)) out.push({ rule: `${m.name} outside its values`, values: fc.string({ maxLength: 10 }).filter((v) => !s.enum.includes(v)) });
  return out;
}

function schemaBreaks(g: Gen, operationId: string): Break[] {
  const shape = bodyShape(g.doc, operationId);
  if (!shape) return [];
  const validation = g.doc.operation(operationId).raw['x-validation-error-code'] ?? 'bad_request';
  const breaks: Break[] = [];
  for (const m of shape.members) {
    if (m.required) {
      breaks.push({ rule: `${m.name} missing`, make: fc.constant(asJson((b) => (delete b[m.name], b))), status: 400, code: validation, schemaRule: true });
    }
    const type = typeof m.schema.type === 'string' ? m.schema.type : undefined;
    if (type && !m.ignoredUnless) {
      breaks.push({ rule: `${m.name} of the wrong type`, make: wrongType(type).map((v) => asJson((b) => ({ ...b, [m.name]: v }))), status: 400, code: m.code, schemaRule: true });
    }
    for (const { rule, values, basis } of brokenValues(m, operationId)) {
      // A website that is a host name but not a registrable domain breaks the service's rule, not the schema's.
      breaks.push({ rule, make: values.map((v) => (b: Body) => ({ ...asJson((x) => ({ ...x, [m.name]: v }))(b), basis: basis?.(v) })), status: 400, code: m.code, schemaRule: m.name !== 'website' });
    }
  }
  if (shape.closed) {
    breaks.push({ rule: 'a member the document forbids', make: fc.constant(asJson((b) => ({ ...b, unexpected: 1 }))), status: 400, code: validation, schemaRule: true });
  }
  // Section 2.6: a rule field of the right type that breaks its rule (the service's check, not the schema's).
  if (shape.members.some((m) => m.name === 'maxLength' && m.ignoredUnless)) {
    for (const code of ['password_too_short', 'invalid_policy'] as const) {
      breaks.push({
        rule: code === 'password_too_short' ? 'maxLength below 12' : 'a length or symbols rule broken (invalid_policy)',
        // The other rule fields go, so that exactly one rule is broken.
        make: BROKEN_RULE.filter((r) => r.code === code).map((r) => (b: Body) => ({ ...asJson((x) => ({ ...withoutRules(x), ...numbers(r.fields) }))(b), basis: spec(r.requirement) })),
        status: 400,
        code,
        schemaRule: false,
      });
    }
  }
  return breaks;
}

function withoutRules(body: Body): Body {
  const { minLength: _a, maxLength: _b, noSymbols: _c, symbols: _d, noRepeats: _e, ...rest } = body;
  return rest;
}

/** ±Infinity stands for a number too large for a double; it goes out as `1e400`. */
function numbers(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'number' && !Number.isFinite(v) ? new RawNumber(v > 0 ? '1e400' : '-1e400') : v]));
}

/** Breaks of the body as a whole: every operation with a JSON body has them. */
function wholeBodyBreaks(g: Gen, operationId: string): Break[] {
  const op = g.doc.operation(operationId);
  const validation = op.raw['x-validation-error-code'] ?? 'bad_request';
  const cap = g.doc.limitsOf(operationId).find((l) => l.kind === 'body');
  const depth = op.limits.includes('body-nesting-depth') ? g.ctx.limits.value('body-nesting-depth') : undefined;
  const accepted = Object.keys(g.doc.resolve(op.raw.requestBody)?.content ?? {});
  const breaks: Break[] = [
    {
      rule: 'a body that is not JSON',
      make: fc.string({ minLength: 1, maxLength: 30 }).filter((t) => !isJson(t)).map((t) => () => ({ text: t })),
      status: 400,
      code: validation,
      schemaRule: false,
    },
    {
      rule: 'a Content-Type the operation does not take',
      make: fc.constantFrom(...['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data'].filter((t) => !accepted.includes(t))).map((type) => (b: Body) => ({ text: jsonText(b), contentType: type })),
      status: 400,
      code: validation,
      schemaRule: false,
    },
  ];
  if (cap?.value !== undefined) {
    breaks.push({
      rule: `a body over its ${cap.value}-byte cap`,
      make: fc.tuple(fc.integer({ min: 1, max: 2048 }), fc.boolean()).map(([over, chunked]) => (b: Body) => ({ text: padTo(jsonText(b), cap.value! + over), chunked })),
      status: cap.status ?? 413,
      code: cap.code ?? validation,
      schemaRule: false,
    });
  }
  if (depth !== undefined) {
    breaks.push({
      rule: `nested deeper than ${depth} levels`,
      make: fc.integer({ min: depth, max: depth + 200 }).map((levels) => (b: Body) => ({ text: jsonText(b).replace(/\}$/, `,"deep":${'['.repeat(levels)}${']'.repeat(levels)}}`) })),
      status: 400,
      code: validation,
      schemaRule: false,
    });
  }
  return breaks;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function padTo(text: string, bytes: number): string {
  return text + ' '.repeat(Math.max(0, bytes - Buffer.byteLength(text)));
}

/** Special cases of the recipe body, whose schema is an anyOf of two forms; all are invalid_recipe. */
function recipeBreaks(): Break[] {
  const recipe = (edit: (r: Body) => void) => RECIPE.map((r) => () => {
    edit(r);
    return { text: jsonText(r) };
  });
  const mk = (rule: string, make: Break['make']): Break => ({ rule, make, status: 400, code: 'invalid_recipe', schemaRule: true });
  return [
    mk('recipe key missing', recipe((r) => delete r.key)),
    mk('recipe kind missing', recipe((r) => delete r.kind)),
    mk('recipe status missing', recipe((r) => delete r.status)),
    mk('recipe kind outside its values', fc.tuple(RECIPE, fc.string({ maxLength: 8 })).map(([r, k]) => () => ({ text: jsonText({ ...r, kind: `x${k}` }) }))),
    mk('recipe status outside its values', fc.tuple(RECIPE, fc.string({ maxLength: 8 })).map(([r, s]) => () => ({ text: jsonText({ ...r, status: `x${s}` }) }))),
    mk('recipe key of the wrong type', fc.tuple(RECIPE, wrongType('string')).map(([r, k]) => () => ({ text: jsonText({ ...r, key: k }) }))),
    mk('signup recipe key without signup:', SITE.map((site) => () => ({ text: jsonText({ key: site, kind: 'signup', status: 'partial', platform: 'custom' }) }))),
    mk('platform recipe naming a platform', SITE.map((site) => () => ({ text: jsonText({ key: site, kind: 'platform', status: 'partial', platform: 'custom' }) }))),
    mk('verification claimed without a note', RECIPE.map((r) => () => ({ text: jsonText({ recipe: r, verificationRequested: true }) }))),
    mk('match without hosts', RECIPE.map((r) => () => ({ text: jsonText({ ...r, kind: 'merchant', key: String(r.key).replace(/^signup:/, ''), platform: 'custom', match: { paths: ['/x'] } }) }))),
  ];
}

function negative(g: Gen, operationId: string): Property | undefined {
  const body = g.doc.requestBody(operationId);
  if (!body || operationId === 'createLogin') return undefined;
  const breaks = [...(operationId === 'submitRecipe' ? recipeBreaks() : schemaBreaks(g, operationId)), ...wholeBodyBreaks(g, operationId)];
  const valid = validBody(operationId);
  return {
    id: `${operationId}/generated-one-rule-broken`,
    operationId,
    kind: 'negative',
    needs: { driver: LINK_DECIDERS.includes(operationId) ? ['holdPurchase'] : true },
    costs: {},
    rules: breaks.map((b) => b.rule),
    weight: Math.min(breaks.length, 12),
    arbitrary: fc.tuple(fc.constantFrom(...breaks), valid).chain(([brk, base]) =>
      brk.make.map((make) => async (gen: Gen): Promise<Generated> => {
        const { call, label } = await credential(gen, operationId);
        const start: Body = { ...base.body, ...(label ? { label } : {}) };
        const broken = make(start);
        return {
          rule: brk.rule,
          call: { ...call, body: broken.text, ...(broken.contentType ? { contentType: broken.contentType } : {}), ...(broken.chunked ? { chunked: true } : {}) },
          expect: { status: brk.status, code: brk.code },
          schemaRule: brk.schemaRule,
          basis: broken.basis,
        };
      }),
    ),
  };
}

// Valid requests -----------------------------------------------------------------------------------

function positive(g: Gen, operationId: string, spend: boolean): Property | undefined {
  const op = g.doc.operation(operationId);
  const junk = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_[\]]{0,8}$/).filter((k) => !['url', 'host', 'full'].includes(k)), fc.string({ maxLength: 8 }), { maxKeys: 3 });
  const base = { operationId, kind: 'positive' as const, costs: {} as CaseCosts };
  switch (operationId) {
    case 'getTokenCatalog':
      return {
        ...base,
        id: `${operationId}/generated-valid`,
        needs: { driver: true },
        rules: ['url or host: any string', 'unlisted query parameters'],
        weight: 6,
        arbitrary: fc.tuple(fc.option(fc.tuple(fc.constantFrom('url', 'host'), PAGE)), junk).map(([filter, extra]) => async (gen) => ({
          rule: filter ? `${filter[0]}=<page>` : 'no filter',
          call: { key: await gen.stock.plainKey(), query: { ...extra, ...(filter ? { [filter[0]]: filter[1] } : {}) } },
          expect: { status: 200 },
          basis: spec('tokens-answer-200'),
        })),
        verify(gen, generated, ex) {
          const filtered = typeof generated.call.query === 'object' && ('url' in generated.call.query || 'host' in generated.call.query);
          const has = 'relatedLogins' in body(ex);
          gen.ctx.check(has === filtered, filtered ? 'relatedLogins with a url or host filter' : 'no relatedLogins without a filter', has ? 'relatedLogins present' : 'relatedLogins absent', spec('catalog-related-logins-only-with-filter'), ex);
        },
      };
    case 'getRecipes':
      return {
        ...base,
        id: `${operationId}/generated-valid`,
        needs: {},
        rules: ['url: any string', 'full: any string', 'unlisted query parameters'],
        weight: 6,
        arbitrary: fc.tuple(fc.option(PAGE), fc.option(fc.oneof(fc.constant('1'), fc.string({ maxLength: 4 }))), junk).map(([url, full, extra]) => async () => ({
          rule: url !== null ? 'url=<page>' : full === '1' ? 'full=1' : 'index',
          call: { query: { ...extra, ...(url !== null ? { url } : {}), ...(full !== null ? { full } : {}) } },
          expect: { status: 200 },
        })),
        verify(gen, generated, ex) {
          const query = generated.call.query as Record<string, string>;
          const answer = body(ex);
          if ('url' in query) {
            gen.ctx.expectEqual(Object.keys(answer).sort(), ['merchant', 'platform', 'signup', 'signupPlatform'], 'the four slots of a lookup:', spec('lookup-four-slots'), ex);
            const cache = ex.response.headers['cache-control'] ?? '';
            gen.ctx.check(sameMeaning('cache-control', 'no-store', cache, 'holds'), 'Cache-Control: no-store on a lookup', `Cache-Control: ${cache}`, spec('recipes-lookup-no-store'), ex);
          } else {
            const listed = entries(answer.recipes) as Body[];
            const bodies = listed.filter((r) => r && typeof r === 'object' && 'recipe' in r).length;
            const all = listed.length;
            gen.ctx.expectEqual(bodies, query.full === '1' ? all : 0, `entries with a body (full=${JSON.stringify(query.full)}):`, spec('recipes-full-bodies', 'index-entry-recipe-only-with-full'), ex);
          }
        },
      };
    case 'fileSignupRequest':
      return {
        ...base,
        id: `${operationId}/generated-valid`,
        needs: { driver: true },
        rules: ['website and email', 'email at 4 and 254 characters', 'a username of 4 or more', 'valid rule fields', 'wrong-typed rule fields (ignored)', 'rule fields at their bounds', 'a body of exactly the cap'],
        weight: 8,
        arbitrary: fc.tuple(SIGNUP_BODY, fc.nat(9), fc.boolean()).map(([{ body, shape }, atCap, chunked]) => async (gen) => {
          const key = await gen.stock.signupKey();
          gen.stock.pendingFiled(key);
          // One in ten is padded with whitespace (the same JSON) to exactly the body cap.
          const cap = atCap === 0 ? gen.doc.limitsOf(operationId).find((l) => l.kind === 'body')?.value : undefined;
          const text = jsonText(numbers(body));
          return cap
            ? { rule: 'a body of exactly the cap', call: { key: key.key, body: padTo(text, cap), chunked }, expect: { status: 202 }, basis: spec('filing-answer-202', 'login-write-body-cap') }
            : { rule: shape, call: { key: key.key, body: text }, expect: { status: 202 }, basis: spec('filing-answer-202') };
        }),
        verify(gen, _generated, ex) {
          gen.ctx.expectEqual(body(ex).status, 'pending', 'a new request on an account with no pre-approved site is', spec('signup-files-pending'), ex);
        },
      };
    case 'rotateLoginPassword':
      return {
        ...base,
        id: `${operationId}/generated-valid`,
        needs: { driver: true },
        rules: ['valid rule fields', 'wrong-typed rule fields (ignored)'],
        weight: 4,
        arbitrary: validBody(operationId).map(({ body, shape }) => async (gen) => {
          const seat = await gen.stock.seat();
          gen.stock.changed(seat);
          return { rule: shape, call: { key: seat.key, json: { label: seat.label, ...body } }, expect: { status: 200 }, basis: spec('rotate-answer') };
        }),
        verify(gen, generated, ex) {
          const sent = generated.call.json as Body;
          const got = body(ex) as { rotated?: boolean; passwordPolicy?: { length: number; classes: string[]; symbolAlphabet?: string } };
          const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
          const lo = Math.max(12, num(sent.minLength) ?? 12);
          const hi = Math.min(64, num(sent.maxLength) ?? 64);
          const p = got.passwordPolicy ?? { length: NaN, classes: [] };
          gen.ctx.check(p.length >= lo && p.length <= hi, `a password length within ${lo} to ${hi}`, `length ${p.length}`, spec('generated-password-length'), ex);
          const noSymbols = sent.noSymbols === true;
          gen.ctx.check(noSymbols === (p.symbolAlphabet === undefined), noSymbols ? 'no symbolAlphabet with noSymbols' : 'a symbolAlphabet', `symbolAlphabet ${JSON.stringify(p.symbolAlphabet)}`, spec('rotate-policy-without-symbols', 'signup-password-policy'), ex);
        },
      };
    case 'submitRecipe':
      if (!spend) return undefined;
      return {
        ...base,
        id: `${operationId}/generated-valid`,
        needs: { driver: true },
        costs: { createsData: 'public recipe contributions', spends: 'recipe submissions' },
        rules: ['a recipe of each kind and status', 'the wrapper with a claim', '$ members at any depth', 'a body of exactly the cap'],
        weight: 2,
        arbitrary: fc.tuple(validBody(operationId), fc.nat(9)).map(([{ body, shape }, atCap]) => async (gen) => {
          const cap = atCap === 0 ? gen.doc.limitsOf(operationId).find((l) => l.kind === 'body')?.value : undefined;
          const key = await gen.stock.recipeKey();
          return cap ? { rule: 'a body of exactly the cap', call: { key, body: padTo(jsonText(body), cap) }, expect: { status: 202 } } : { rule: shape, call: { key, json: body }, expect: { status: 202 } };
        }),
      };
    case 'getRecipeSubmission':
    case 'getSignupRequest':
      return {
        ...base,
        id: `${operationId}/generated-unknown-id`,
        needs: { driver: true },
        rules: ['an unknown id'],
        weight: 2,
        arbitrary: fc.string({ minLength: 1, maxLength: 40, unit: TEXT_CHAR }).map((id) => async (gen) => ({
          rule: 'an unknown id',
          call: { key: await gen.stock.plainKey(), params: { id: `zz${id}` } },
          expect: { status: 404, code: op.operationId === 'getSignupRequest' ? 'request_not_found' : 'not_found' },
          basis: op.operationId === 'getSignupRequest' ? spec('poll-unknown-request') : spec('submission-errors'),
        })),
      };
    case 'createLogin':
      return {
        ...base,
        id: `${operationId}/generated-anything`,
        needs: {},
        rules: ['any body, any key'],
        weight: 1,
        arbitrary: fc.tuple(fc.option(fc.string({ maxLength: 20 })), fc.option(fc.json())).map(([auth, body]) => async () => ({
          rule: 'any request',
          call: { ...(auth !== null ? { authorization: auth.replace(/[^\x20-\x7e]/g, '') } : {}), ...(body !== null ? { body } : {}) },
          expect: { status: 410, code: 'signup_requires_approval' },
          basis: spec('retired-answers-410'),
        })),
      };
    case 'getProxyHealth':
      return { ...base, id: `${operationId}/generated-valid`, needs: {}, rules: ['a plain read'], weight: 1, arbitrary: fc.constant(async () => ({ rule: 'a plain read', call: {}, expect: { status: 200 } })) };
    default:
      if (/^get(Purchase|Signup)Approval$|^get(Cvv|Challenge)Request$|^decide(Purchase|Signup)Approval$/.test(operationId)) {
        return {
          ...base,
          id: `${operationId}/generated-unknown-token`,
          needs: {},
          rules: ['an unknown link token'],
          weight: 1,
          arbitrary: fc.string({ minLength: 1, maxLength: 60, unit: TEXT_CHAR }).map((token) => async () => ({
            rule: 'an unknown link token',
            call: { params: { token: `zz${token}` }, ...(operationId.startsWith('decide') ? { json: { decision: 'deny' } } : {}) },
            expect: { status: 404, code: 'not_found' },
          })),
        };
      }
      return undefined;
  }
}

// Authentication ----------------------------------------------------------------------------------

function authFailures(g: Gen): Property {
  const secured = [...g.doc.operations.values()].filter((o) => o.secured).map((o) => o.operationId);
  const forms = fc.oneof(
    fc.constant({ rule: 'no Authorization', authorization: undefined as string | undefined, code: 'unauthorized' }),
    fc.stringMatching(/^(Basic|Token|Digest|bearer2|Bearer) ?[A-Za-z0-9=]{0,12}$/).filter((v) => !/^Bearer +\S+ *$/.test(v)).map((authorization) => ({ rule: 'not in Bearer form', authorization, code: 'unauthorized' })),
    fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/).map((k) => ({ rule: 'an unknown key', authorization: `Bearer zz${k}`, code: 'invalid_api_key' })),
  );
  return {
    id: 'getTokenCatalog/generated-auth-failures',
    operationId: 'getTokenCatalog',
    kind: 'negative',
    needs: {},
    costs: {},
    rules: ['no Authorization', 'not in Bearer form', 'an unknown key'],
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom(...secured), forms).map(([operationId, form]) => async (gen) => {
      const valid = await validFor(gen, operationId);
      return {
        rule: `${form.rule} on ${operationId}`,
        call: { ...valid, key: undefined, ...(form.authorization !== undefined ? { authorization: form.authorization } : {}) },
        expect: { status: 401, code: form.code },
        basis: spec(form.code === 'unauthorized' ? 'auth-missing-or-not-bearer' : 'auth-unknown-or-revoked'),
        operationId,
      } as Generated;
    }),
  };
}

/** A valid request of an operation without its credential: path parameters and body from the document's examples. */
async function validFor(g: Gen, operationId: string): Promise<CallOptions> {
  const op = g.doc.operation(operationId);
  const params: Record<string, string> = {};
  for (const raw of op.raw.parameters ?? []) {
    const p = g.doc.resolve(raw);
    if (p.in === 'path') params[p.name] = String(p.example ?? 'example');
  }
  const body = g.doc.requestBody(operationId);
  const example = body ? (body.node.example ?? g.doc.resolve(Object.values<{ value: unknown }>(body.node.examples ?? {})[0])?.value) : undefined;
  return { params, ...(example !== undefined ? { json: example } : {}) };
}

function signupNotEnabled(): Property {
  return {
    id: 'fileSignupRequest/generated-signup-not-enabled',
    operationId: 'fileSignupRequest',
    kind: 'negative',
    needs: { driver: true },
    costs: {},
    rules: ['a key without the signup permission on each signup POST'],
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...SIGNUP_WRITES), SITE, EMAIL, USERNAME).map(([operationId, website, email, username]) => async (gen) => ({
      rule: `no signup permission on ${operationId}`,
      call: { key: await gen.stock.plainKey(), json: operationId === 'fileSignupRequest' ? { website, email } : { label: 'acme', ...(operationId === 'setLoginUsername' ? { username } : {}) } },
      expect: { status: 403, code: 'signup_not_enabled' },
      basis: spec('login-writes-need-signup-permission'),
      operationId,
    } as Generated)),
  };
}

/** Every property the document supports for this run: per operation, then the cross-cutting ones. */
export function properties(g: Gen, spend: boolean): Property[] {
  const out: Property[] = [];
  for (const op of g.doc.operations.values()) {
    const n = negative(g, op.operationId);
    if (n) out.push(n);
    const p = positive(g, op.operationId, spend);
    if (p) out.push(p);
  }
  out.push(authFailures(g), signupNotEnabled());
  return out;
}

