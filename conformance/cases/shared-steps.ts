import type { ApiDocument, Node } from '../runner/document.js';
import type { CaseContext } from '../runner/context.js';
import type { Account } from '../runner/account.js';
import type { Exchange } from '../runner/exchange.js';
import { reference, spec, type Rule } from '../runner/basis.js';
import { body } from '../runner/by-meaning.js';

/**
 * Steps many cases share: a request the document allows, and the signup workflow as an agent and
 * an account holder take it. Every call goes through `ctx.call`, so each response is checked; every
 * expectation names the requirement it rests on.
 */

/** Section 4.11 does not show the answers of the account-holder links: what they hold is the reference's. */
export const LINK_BODY = reference('Section 4.11 does not show the answers of the account-holder links; the outcome of a decision is read through the driver.');

/** A link that works answers a success; which 2xx is the reference's (200). */
export const LINK_OK = { status: 200, basis: reference('Section 4.11 shows no answer of the links: any success conforms. The reference answers 200.') };

/**
 * Section 4.11 makes the links single-use and self-expiring, and says only that a link of a deleted
 * account reads as not found: a used, expired or unknown link must refuse (any 4xx), and the
 * status and code it refuses with are the reference's.
 */
export const LINK_REFUSAL = reference(
  'Section 4.11 makes the links single-use and self-expiring and gives no status for a used, expired or unknown link (section 7.1 has no rows for the links): any refusal conforms. The reference answers 404 `not_found`.',
);

/** A used, expired or unknown link refuses, by `rule`: any 4xx; 404 `not_found` is the reference's. */
export function expectLinkRefused(ctx: CaseContext, ex: Exchange, rule: Rule = spec('links-single-use')): void {
  ctx.expectRefused(ex, 'not_found', LINK_REFUSAL, { ...rule, status: 404 });
}

/** A request the document allows for an operation: path parameters and body from its own examples. */
export function sampleRequest(doc: ApiDocument, operationId: string): { params: Record<string, string>; json?: unknown } {
  const op = doc.operation(operationId);
  const params: Record<string, string> = {};
  for (const raw of op.raw.parameters ?? []) {
    const p = doc.resolve(raw);
    if (p.in === 'path') params[p.name] = String(exampleOf(doc, p) ?? 'example');
  }
  const requestBody = doc.requestBody(operationId);
  return { params, ...(requestBody ? { json: exampleOf(doc, requestBody.node) } : {}) };
}

function exampleOf(doc: ApiDocument, node: Node): unknown {
  if (node.example !== undefined) return node.example;
  const first = Object.values<Node>(node.examples ?? {})[0];
  if (first) return doc.resolve(first).value;
  const schema = doc.resolve(node.schema);
  return schema?.example ?? schema?.examples?.[0];
}

/** A 401 answers every authenticated operation the same way; these are the operations. */
export function securedOperations(doc: ApiDocument): string[] {
  return [...doc.operations.values()].filter((op) => op.secured).map((op) => op.operationId);
}

/** An account on a plan with a signup-enabled key: the usual start of a signup case. */
export async function signupSetup(ctx: CaseContext, options: { plan?: 'Free' | 'Plus' | 'Enterprise'; scope?: string[] } = {}) {
  const account = await ctx.account({ plan: options.plan });
  const issued = await account.issueKey({ signup: true, ...(options.scope ? { scope: options.scope } : {}) });
  return { account, key: issued.key, keyId: issued.keyId };
}

export interface Filed {
  requestId: string;
  status: 'pending' | 'approved';
  expiresAt: number;
  site: string;
  email: string;
  exchange: Exchange;
}

/** Files a signup request and expects it filed (202) with a request id and a status. */
export async function fileSignup(ctx: CaseContext, key: string, fields: Record<string, unknown> = {}): Promise<Filed> {
  const site = (fields.website as string | undefined) ?? ctx.site();
  const email = (fields.email as string | undefined) ?? ctx.email();
  const ex = await ctx.call('fileSignupRequest', { key, json: { website: site, email, ...fields } });
  ctx.expectStatus(ex, 202, spec('filing-answer-202'));
  const filed = body(ex);
  ctx.check(typeof filed.requestId === 'string', 'a requestId, a string', () => `requestId ${JSON.stringify(filed.requestId)}`, spec('signup-request-id'), ex);
  ctx.check(filed.status === 'pending' || filed.status === 'approved', 'status pending or approved', () => `status ${JSON.stringify(filed.status)}`, spec('filing-answer-202'), ex);
  ctx.step(`filed signup request for ${site}: ${filed.status}`);
  return { requestId: filed.requestId as string, status: filed.status as Filed['status'], expiresAt: filed.expiresAt as number, site, email, exchange: ex };
}

export async function poll(ctx: CaseContext, key: string, requestId: string): Promise<Exchange> {
  return ctx.call('getSignupRequest', { key, params: { id: requestId } });
}

/** Polls and expects 200; returns the body. */
export async function pollBody(ctx: CaseContext, key: string, requestId: string): Promise<Record<string, Node>> {
  const ex = await poll(ctx, key, requestId);
  ctx.expectStatus(ex, 200, spec('poll-answer-200'));
  return body(ex);
}

/** The account holder decides a signup request through its link (section 4.11). */
export async function decideSignup(ctx: CaseContext, account: Account, requestId: string, decision: 'approve' | 'deny'): Promise<Exchange> {
  const token = await account.signupLink(requestId);
  const ex = await ctx.call('decideSignupApproval', { params: { token }, json: { decision } });
  ctx.expectSuccess(ex, spec('link-signup-request'), LINK_OK);
  ctx.step(`account holder ${decision === 'approve' ? 'approved' : 'denied'} ${requestId}`);
  return ex;
}

/** Files, approves through the link, and returns the approved poll (status `approved`). */
export async function signupApproved(ctx: CaseContext, account: Account, key: string, fields: Record<string, unknown> = {}) {
  const filed = await fileSignup(ctx, key, fields);
  if (filed.status === 'pending') await decideSignup(ctx, account, filed.requestId, 'approve');
  const polled = await pollBody(ctx, key, filed.requestId);
  ctx.check(polled.status === 'approved', 'the poll to say approved after the account holder approved', `status ${polled.status}`, spec('signup-approved-by-holder'));
  return { filed, polled, login: polled.login as Record<string, Node> };
}

/** Reads the token catalog and expects 200. */
export async function catalog(ctx: CaseContext, key: string, query?: Record<string, string> | string): Promise<Record<string, Node>> {
  const ex = await ctx.call('getTokenCatalog', { key, query });
  ctx.expectStatus(ex, 200, spec('tokens-answer-200'));
  return body(ex);
}

/** Sends the same request `count` times in order; returns the exchanges. */
export async function repeat(count: number, send: (i: number) => Promise<Exchange>): Promise<Exchange[]> {
  const out: Exchange[] = [];
  for (let i = 0; i < count; i++) out.push(await send(i));
  return out;
}
