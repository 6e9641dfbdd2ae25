import type { ApiDocument } from '../runner/document.js';
import { defineCase, type Case, type CaseCosts, type CaseNeeds } from '../runner/case.js';
import type { CallOptions, CaseContext } from '../runner/context.js';
import { fileSignup, sampleRequest, signupSetup } from './shared-steps.js';
import { http, reference, spec, together, type ReferenceBasis } from '../runner/basis.js';
import { codeOf } from '../runner/exchange.js';
import type { SpecRequirementId } from '../requirements/index.js';
import { againstControl } from './refusals.js';
import { CONTRIBUTES, FORMAT, recipeFor } from './recipe-steps.js';

const SURROGATE = reference('RFC 8259 §8.2 leaves a lone surrogate escape to the parser; the document has the reference refuse it.');
const DEPTH_LIMIT = reference('RFC 8259 §9 lets a parser bound nesting; the bound of 64 levels (`body-nesting-depth`) is the reference\'s.');
const LINK_CAP = reference('Section 4.11 gives the links no body cap; 1 KB (`link-decision-body`) is the reference\'s.');

/**
 * The document's rules for every request body ("Request bodies" in its description): JSON text in
 * UTF-8, no lone surrogate escapes, nesting at most `body-nesting-depth` levels, each refused with
 * the operation's own 400 code; and the account-holder links' small body cap. Cases are made for
 * each operation whose `x-limits` name the rule.
 */

const DEPTH = 'body-nesting-depth';

/** The requirement that answers a body that is not JSON, by operation (the links' answers are not shown). */
const NOT_JSON: Record<string, SpecRequirementId> = {
  submitRecipe: 'submit-not-json-invalid-recipe',
  fileSignupRequest: 'code-bad-request',
  setLoginUsername: 'code-bad-request',
  rotateLoginPassword: 'code-bad-request',
};
const LINK_BODY = 'link-decision-body';

/** How a case reaches an operation's body: the credential it needs, and what that costs to get. */
function target(operationId: string): { needs: CaseNeeds; costs?: CaseCosts; reach(ctx: CaseContext): Promise<CallOptions> } {
  switch (operationId) {
    case 'submitRecipe':
      // The control is a contribution: public and permanent.
      return { needs: { keys: ['key'] }, costs: { createsData: CONTRIBUTES, spends: "one of the account's recipe submissions" }, reach: async (ctx) => ({ key: await ctx.key('key') }) };
    case 'decidePurchaseApproval':
      return {
        needs: { driver: ['holdPurchase'] },
        reach: async (ctx) => ({ params: { token: await (await ctx.account()).holdPurchase({ kind: 'over_threshold', offersDeclared: true }) } }),
      };
    case 'decideSignupApproval':
      return {
        needs: { driver: true },
        reach: async (ctx) => {
          const { account, key } = await signupSetup(ctx);
          const filed = await fileSignup(ctx, key);
          return { params: { token: await account.signupLink(filed.requestId) } };
        },
      };
    default:
      return { needs: { keys: ['signupKey'] }, reach: async (ctx) => ({ key: await ctx.key('signupKey') }) };
  }
}

/** `levels` arrays nested inside each other: `[[[]]]` is three levels. */
function nested(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

/**
 * A body the operation takes, for the control and for the flawed request alike: its documented
 * example, or for a recipe a fresh one in the deployment's own format where its driver writes one
 * (section 2.2 does not show a recipe's structure); with what would let a refused control run.
 */
async function takenBody(ctx: CaseContext, operationId: string): Promise<{ json: Record<string, unknown>; remedy: string }> {
  if (operationId !== 'submitRecipe') return { json: sampleRequest(ctx.doc, operationId).json as Record<string, unknown>, remedy: 'a deployment that reads the documented example of this operation' };
  const contribution = await recipeFor(ctx);
  return { json: contribution.recipe, remedy: contribution.own ? "a sample recipe the deployment's registry accepts, from the driver's sampleRecipe" : FORMAT.remedy! };
}

/** A body as JSON text with one more member, written raw. */
function withMember(json: Record<string, unknown>, raw: string): string {
  const text = JSON.stringify(json);
  return `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"extra":${raw}}`;
}

function bodyRuleCases(doc: ApiDocument): Case[] {
  const operations = [...doc.operations.values()].filter((op) => op.limits.includes(DEPTH)).map((op) => op.operationId);
  return operations.flatMap((operationId) => {
    const { needs, costs = {}, reach } = target(operationId);
    const code = doc.operation(operationId).raw['x-validation-error-code'] as string;
    // The control: the same body without the flaw, on a link of its own (a decision uses a link up), is not refused as this one is.
    const control = async (ctx: CaseContext) => {
      const options = await reach(ctx);
      const { json, remedy } = await takenBody(ctx, operationId);
      await againstControl(ctx, 'the same body, its extra member plain JSON', () => ctx.call(operationId, { ...options, body: withMember(json, '"ex"') }), (ex) => !(ex.response.status === 400 && codeOf(ex.response) === code), remedy);
    };
    const flawed = async (ctx: CaseContext, raw: string) => withMember((await takenBody(ctx, operationId)).json, raw);
    const refused = (id: string, title: string, basis: ReferenceBasis, body: (ctx: CaseContext) => Promise<string>, pointer = '#/info/description') =>
      defineCase({
        id: `${operationId}/${id}`,
        title,
        sections: ['4', '7.1'],
        basis,
        needs,
        costs,
        async run(ctx) {
          await control(ctx);
          const options = await reach(ctx);
          ctx.expectError(await ctx.call(operationId, { ...options, body: await body(ctx) }), code, { ...basis, status: 400, pointer });
        },
      });
    return [
      // Valid JSON but for two bytes that are not UTF-8 inside a string: `"extra":"ex<FF><FE>"`.
      defineCase({
        id: `${operationId}/body-not-utf8`,
        title: 'Refuses a body that is not valid UTF-8',
        requirements: NOT_JSON[operationId] ? ['http-json-is-utf8', NOT_JSON[operationId]!] : ['http-json-is-utf8'],
        needs,
        costs,
        async run(ctx) {
          await control(ctx);
          const options = await reach(ctx);
          const [before, after] = (await flawed(ctx, '"ex@@"')).split('@@') as [string, string];
          const ex = await ctx.call(operationId, { ...options, body: Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(after)]) });
          const own = NOT_JSON[operationId];
          // Section 4.11 shows no answer of the links: any refusal; the operation's 400 code is the reference's.
          if (own) ctx.expectError(ex, code, { ...together(http('http-json-is-utf8'), spec(own)), status: 400 });
          else ctx.expectRefused(ex, code, reference('Section 4.11 shows no answer of the links; the reference refuses a body that is not JSON with 400 `bad_request`.'), { ...http('http-json-is-utf8'), status: 400 });
        },
      }),
      refused('body-lone-surrogate', 'Refuses a string escaping half of a surrogate pair', SURROGATE, (ctx) => flawed(ctx, '"\\ud800"')),
      refused('body-nested-too-deep', 'Refuses a body nested deeper than the bound', DEPTH_LIMIT, (ctx) => flawed(ctx, nested(ctx.limits.value(DEPTH))), `#/x-limits/${DEPTH}`),
    ];
  });
}

function boundaryCases(): Case[] {
  return [
    defineCase({
      id: 'fileSignupRequest/body-nested-at-the-bound',
      title: 'Accepts a body nested exactly as deep as the bound',
      sections: ['4', '4.6'],
      basis: DEPTH_LIMIT,
      needs: { driver: true },
      costs: {},
      async run(ctx) {
        const { key } = await signupSetup(ctx);
        const body = `{"website":"${ctx.site()}","email":"${ctx.email()}","extra":${nested(ctx.limits.value(DEPTH) - 1)}}`;
        ctx.expectStatus(await ctx.call('fileSignupRequest', { key, body }), 202, { ...DEPTH_LIMIT, pointer: `#/x-limits/${DEPTH}` });
      },
    }),
    ...(['decidePurchaseApproval', 'decideSignupApproval'] as const).flatMap((operationId) => {
      const { needs, reach } = target(operationId);
      return [
        defineCase({
          id: `${operationId}/body-over-cap`,
          title: 'Refuses a decision body over its cap with 413, chunked or not',
          sections: ['4.11', '7.1'],
          basis: LINK_CAP,
          needs,
          costs: {},
          async run(ctx) {
            const options = await reach(ctx);
            const cap = ctx.limits.value(LINK_BODY);
            for (const chunked of [false, true]) {
              const ex = await ctx.call(operationId, { ...options, body: padded({ decision: 'deny' }, cap + 1), chunked });
              ctx.expectError(ex, 'bad_request', { ...LINK_CAP, status: 413, pointer: ctx.limits.pointer(LINK_BODY) });
            }
          },
        }),
        defineCase({
          id: `${operationId}/body-at-cap`,
          title: 'Accepts a decision body of exactly its cap',
          sections: ['4.11'],
          basis: LINK_CAP,
          needs,
          costs: {},
          async run(ctx) {
            const options = await reach(ctx);
            const ex = await ctx.call(operationId, { ...options, body: padded({ decision: 'deny' }, ctx.limits.value(LINK_BODY)), chunked: true });
            ctx.expectStatus(ex, 200, { ...LINK_CAP, pointer: ctx.limits.pointer(LINK_BODY) });
          },
        }),
      ];
    }),
  ];
}

function padded(value: unknown, bytes: number): Buffer {
  const text = JSON.stringify(value);
  return Buffer.from(text + ' '.repeat(bytes - Buffer.byteLength(text)));
}

export function bodyCases(doc: ApiDocument): Case[] {
  return [...bodyRuleCases(doc), ...boundaryCases()];
}
