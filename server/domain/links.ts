import { transaction } from '../store/db.js';
import { findLink, insertLink, useLink, type LinkKind, type LinkRow } from '../store/links.js';
import { ApiError } from './errors.js';
import { decideSignupRequest, viewSignupRequest, type SignupDeps, type SignupStatus } from './signup.js';

/**
 * Account-holder links (section 4.11): single-use, self-expiring, the token their only credential.
 * A link that is unknown, of another kind, already used, past its lifetime, or of a deleted account
 * (its links are deleted with it) reads the same: 404 not_found, so a token reveals nothing.
 */

/** The hold kind that can only be approved against the declared total. */
export const AMOUNT_MISMATCH = 'amount_mismatch';

export type PurchaseAt = 'declared' | 'page';

const LIFETIME: Record<Exclude<LinkKind, 'signup'>, string> = {
  purchase: 'purchase-approval-lifetime',
  cvv: 'cvv-request-lifetime',
  challenge: 'challenge-request-lifetime',
};

function notFound(): ApiError {
  return new ApiError(404, 'not_found', 'This link is unknown, already used or expired.');
}

/** The live link of this kind, or not found. */
export async function liveLink(deps: SignupDeps, token: string, kind: LinkKind): Promise<LinkRow> {
  const link = await findLink(deps.db, deps.sealer, token);
  if (!link || link.kind !== kind || link.status !== 'pending' || deps.clock.now() >= link.expires_at) throw notFound();
  return link;
}

/** Creates a purchase approval, live prompt or challenge handoff link (the back office stands in for the proxy). */
export async function createLink(
  deps: SignupDeps,
  accountId: string,
  kind: Exclude<LinkKind, 'signup'>,
  details: Record<string, unknown> = {},
): Promise<{ token: string; expiresAt: number }> {
  const now = deps.clock.now();
  const expiresAt = now + deps.limiter.max(deps.contract.limit(LIFETIME[kind]), 'Free') * 1000;
  return { token: await insertLink(deps.db, deps.sealer, { accountId, kind, details, now, expiresAt }), expiresAt };
}

// Purchase approvals ------------------------------------------------------------------------------

export interface PurchaseApprovalView {
  status: 'pending';
  kind: string;
  offersDeclared: boolean;
  expiresAt: number;
}

export async function readPurchaseApproval(deps: SignupDeps, token: string): Promise<PurchaseApprovalView> {
  const link = await liveLink(deps, token, 'purchase');
  const details = JSON.parse(link.details) as { kind: string; offersDeclared: boolean };
  return { status: 'pending', kind: details.kind, offersDeclared: details.offersDeclared, expiresAt: link.expires_at };
}

/** What the account holder's page shows of a hold besides its view, as the proxy described it. */
export interface PurchaseHoldShown {
  amount?: string;
  merchant?: string;
  declaredTotal?: string;
}

export async function readPurchaseHold(deps: SignupDeps, token: string): Promise<PurchaseApprovalView & { shown: PurchaseHoldShown }> {
  const view = await readPurchaseApproval(deps, token);
  const { amount, merchant, declaredTotal } = JSON.parse((await liveLink(deps, token, 'purchase')).details) as PurchaseHoldShown;
  return { ...view, shown: { amount, merchant, declaredTotal } };
}

/**
 * Decides a held purchase. `at` chooses the total the approval stands for (default `page`). A
 * refused `at` leaves the link pending and usable. The `at` rules bind approvals only: a denial
 * approves no total.
 */
export function decidePurchaseApproval(
  deps: SignupDeps,
  token: string,
  decision: 'approve' | 'deny',
  at: PurchaseAt = 'page',
): Promise<{ status: 'approved' | 'denied'; at?: PurchaseAt }> {
  return transaction(deps.db, async (db) => {
    const tx = { ...deps, db };
    const view = await readPurchaseApproval(tx, token);
    if (decision === 'deny') {
      await useLink(tx.db, token, 'denied', deps.clock.now());
      return { status: 'denied' as const };
    }
    if (at === 'declared' && !view.offersDeclared) {
      throw new ApiError(400, 'declared_not_offered', 'This purchase does not offer approval at the declared total; approve at the page total.');
    }
    if (view.kind === AMOUNT_MISMATCH && at !== 'declared') {
      throw new ApiError(400, 'declared_required', 'The page total does not match the declared total; this hold can only be approved at the declared total.');
    }
    await useLink(tx.db, token, 'approved', deps.clock.now(), at);
    return { status: 'approved' as const, at };
  });
}

// Signup approvals --------------------------------------------------------------------------------

export interface SignupApprovalView {
  status: SignupStatus;
  website: string;
  email: string;
  username?: string;
  expiresAt: number;
  /** Why the last approval could not complete; only the account holder sees it. */
  approvalFailure?: string;
}

export async function readSignupApproval(deps: SignupDeps, token: string): Promise<SignupApprovalView> {
  const link = await liveLink(deps, token, 'signup');
  const view = await viewSignupRequest(deps, link.signup_request_id!);
  return approvalView(view, view.approvalFailure);
}

function approvalView(view: Awaited<ReturnType<typeof viewSignupRequest>>, approvalFailure: string | null | undefined): SignupApprovalView {
  return {
    status: view.status,
    website: view.website,
    email: view.email,
    ...(view.username !== null ? { username: view.username } : {}),
    expiresAt: view.expiresAt,
    ...(approvalFailure ? { approvalFailure } : {}),
  };
}

/**
 * The account holder's decision. An approval whose checks fail leaves the request pending and the
 * link usable (the account holder may free a label or logins and approve again); the answer names
 * the reason.
 */
export function decideSignupApproval(deps: SignupDeps, token: string, decision: 'approve' | 'deny'): Promise<SignupApprovalView> {
  return transaction(deps.db, async (db) => {
    const tx = { ...deps, db };
    const link = await liveLink(tx, token, 'signup');
    const outcome = await decideSignupRequest(tx, link.signup_request_id!, decision);
    if (!outcome) throw notFound();
    return approvalView(await viewSignupRequest(tx, link.signup_request_id!), outcome.ok ? undefined : outcome.reason);
  });
}

// Live security-code prompts and challenge handoffs -----------------------------------------------

export interface PromptView {
  status: 'pending';
  expiresAt: number;
}

/** Opens a GET-only link. Single use: the first read opens it; a second read is not found. */
export function openPrompt(deps: SignupDeps, token: string, kind: 'cvv' | 'challenge'): Promise<PromptView> {
  return transaction(deps.db, async (db) => {
    const tx = { ...deps, db };
    const view = await peekPrompt(tx, token, kind);
    await useLink(tx.db, token, 'opened', deps.clock.now());
    return view;
  });
}

/**
 * What opening the link would show, without using it up: the answer to HEAD, which is safe (RFC
 * 9110 section 9.3.2), so a mail scanner or link preview that asks for the head leaves the link to
 * the account holder.
 */
export async function peekPrompt(deps: SignupDeps, token: string, kind: 'cvv' | 'challenge'): Promise<PromptView> {
  return { status: 'pending', expiresAt: (await liveLink(deps, token, kind)).expires_at };
}
