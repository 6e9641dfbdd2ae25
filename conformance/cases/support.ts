import type { ApiDocument, Node } from '../runner/document.js';
import type { CaseContext } from '../runner/context.js';
import type { Account } from '../runner/account.js';
import type { Exchange } from '../runner/exchange.js';
import { reference } from '../runner/basis.js';

/** Section 4.11 does not show the answers of the account-holder links: what they hold is the reference's. */
export const LINK_BODY = reference('Section 4.11 does not show the answers of the account-holder links; the outcome of a decision is read through the driver.');

/**
 * Section 4.11 makes the links single-use and self-expiring, and says only that a link of a deleted
 * account reads as not found: a used, expired or unknown link must refuse (any 4xx), and the
 * status and code it refuses with are the reference's.
 */
export const LINK_REFUSAL = reference(
  'Section 4.11 makes the links single-use and self-expiring and gives no status for a used, expired or unknown link (section 7.1 has no rows for the links): any refusal conforms. The reference answers 404 `not_found`.',
);

/** A used, expired or unknown link refuses: any 4xx, a second approval or an opened prompt fails; 404 `not_found` is the reference's. */
export function expectLinkRefused(ctx: CaseContext, ex: Exchange): void {
  ctx.expectRefused(ex, 'not_found', LINK_REFUSAL, { status: 404, sections: ['4.11'] });
}

/**
 * Steps many cases share: a request the document allows, and the signup workflow as an agent and
 * an account holder take it. Every call goes through `ctx.call`, so each response is checked.
 */

/** A request the document allows for an operation: path parameters and body from its own examples. */
export function sampleRequest(doc: ApiDocument, operationId: string): { params: Record<string, string>; json?: unknown } {
  const op = doc.operation(operationId);
  const params: Record<string, string> = {};
  for (const raw of op.raw.parameters ?? []) {
    const p = doc.resolve(raw);
    if (p.in === 'path') params[p.name] = String(exampleOf(doc, p) ?? 'example');
  }
  const body = doc.requestBody(operationId);
  return { params, ...(body ? { json: exampleOf(doc, body.node) } : {}) };
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

/** Files a signup request and expects it filed (202). */
export async function fileSignup(ctx: CaseContext, key: string, body: Record<string, unknown> = {}): Promise<Filed> {
  const site = (body.website as string | undefined) ?? ctx.site();
  const email = (body.email as string | undefined) ?? ctx.email();
  const ex = await ctx.call('fileSignupRequest', { key, json: { website: site, email, ...body } });
  ctx.expectStatus(ex, 202);
  const filed = ex.response.json as { requestId: string; status: 'pending' | 'approved'; expiresAt: number };
  ctx.step(`filed signup request for ${site}: ${filed.status}`);
  return { ...filed, site, email, exchange: ex };
}

export async function poll(ctx: CaseContext, key: string, requestId: string): Promise<Exchange> {
  return ctx.call('getSignupRequest', { key, params: { id: requestId } });
}

/** Polls and expects 200; returns the body. */
export async function pollBody(ctx: CaseContext, key: string, requestId: string): Promise<Record<string, Node>> {
  const ex = await poll(ctx, key, requestId);
  ctx.expectStatus(ex, 200);
  return ex.response.json as Record<string, Node>;
}

/** The account holder decides a signup request through its link (section 4.11). */
export async function decideSignup(ctx: CaseContext, account: Account, requestId: string, decision: 'approve' | 'deny'): Promise<Exchange> {
  const token = await account.signupLink(requestId);
  const ex = await ctx.call('decideSignupApproval', { params: { token }, json: { decision } });
  ctx.expectStatus(ex, 200);
  ctx.step(`account holder ${decision === 'approve' ? 'approved' : 'denied'} ${requestId}`);
  return ex;
}

/** Files, approves through the link, and returns the approved poll (status `approved`). */
export async function signupApproved(ctx: CaseContext, account: Account, key: string, body: Record<string, unknown> = {}) {
  const filed = await fileSignup(ctx, key, body);
  if (filed.status === 'pending') await decideSignup(ctx, account, filed.requestId, 'approve');
  const polled = await pollBody(ctx, key, filed.requestId);
  ctx.check(polled.status === 'approved', 'the poll to say approved after the account holder approved', `status ${polled.status}`, { sections: ['3', '4.7'] });
  return { filed, polled, login: polled.login as Record<string, Node> };
}

/** Reads the token catalog and expects 200. */
export async function catalog(ctx: CaseContext, key: string, query?: Record<string, string> | string): Promise<Record<string, Node>> {
  const ex = await ctx.call('getTokenCatalog', { key, query });
  ctx.expectStatus(ex, 200);
  return ex.response.json as Record<string, Node>;
}

/** Sends the same request `count` times in order; returns the exchanges. */
export async function repeat(count: number, send: (i: number) => Promise<Exchange>): Promise<Exchange[]> {
  const out: Exchange[] = [];
  for (let i = 0; i < count; i++) out.push(await send(i));
  return out;
}


// Comparing by meaning ----------------------------------------------------------------------------

/** Every string in a JSON value, wherever it sits: a card's tokens whatever their member names. */
export function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringLeaves);
  return [];
}

/** The same entry, told by its strings (its tokens) rather than by member names the specification does not give. */
export function sameEntry(a: unknown, b: unknown): boolean {
  const x = stringLeaves(a).sort();
  const y = stringLeaves(b).sort();
  return x.length > 0 && x.length === y.length && x.every((s, i) => s === y[i]);
}

/** JSON pointers at which two values differ (a member on one side only counts as a difference). */
export function differences(a: unknown, b: unknown, at = ''): string[] {
  if (a === b) return [];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return [at || '/'];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}/${k}`));
}

/**
 * The differences of `a` and `b` that are not noise. Noise is what differs between two answers to
 * the same request (`again` is a second answer to `a`'s request): a request id, a timestamp.
 */
export function meaningfulDifferences(a: unknown, b: unknown, again: unknown): string[] {
  const noise = differences(a, again);
  return differences(a, b).filter((d) => !noise.some((n) => d === n || d.startsWith(`${n}/`)));
}

/** A value without some of its top-level members. */
export function without(value: Record<string, unknown>, members: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !members.includes(k)));
}
