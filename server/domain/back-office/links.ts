import { listAccountLinks } from '../../store/links.js';
import { getSignupRequest } from '../../store/signup-requests.js';
import { ApiError } from '../errors.js';
import { AMOUNT_MISMATCH, createLink } from '../links.js';
import { requireAccount, type BackOfficeDeps } from './lookups.js';

/**
 * The account-holder links as the account holder receives them (listAccountHolderLinks), and the
 * links the proxy would create (createPurchaseApproval, createCvvRequest, createChallengeRequest).
 */

export async function listAccountHolderLinks(deps: BackOfficeDeps, accountId: string) {
  const { db, sealer, clock } = deps;
  const id = (await requireAccount(db, accountId)).id;
  const links = [];
  for (const l of await listAccountLinks(db, sealer, id)) {
    // What the dashboard shows of the holder's own decisions, so a test need not read it from
    // the link's body, which the specification does not show.
    const failure = l.signup_request_id && l.status === 'pending' ? (await getSignupRequest(db, l.signup_request_id))?.approval_failure : null;
    links.push({
      token: l.token,
      kind: l.kind,
      ...(l.signup_request_id ? { requestId: l.signup_request_id } : {}),
      status: l.status === 'pending' && clock.now() >= l.expires_at ? 'expired' : l.status,
      ...(l.decision_at ? { decidedAt: l.decision_at } : {}),
      ...(failure ? { approvalFailure: failure } : {}),
      createdAt: l.created_at,
      expiresAt: l.expires_at,
    });
  }
  return { links };
}

export interface NewPurchaseApproval {
  kind?: string;
  offersDeclared?: boolean;
  amount?: string;
  merchant?: string;
  declaredTotal?: string;
}

export async function createPurchaseApproval(deps: BackOfficeDeps, accountId: string, input: NewPurchaseApproval) {
  const id = (await requireAccount(deps.db, accountId)).id;
  const kind = input.kind ?? 'over_threshold';
  const offersDeclared = input.offersDeclared ?? kind === AMOUNT_MISMATCH;
  if (kind === AMOUNT_MISMATCH && !offersDeclared) {
    throw new ApiError(400, 'bad_request', 'A hold of kind amount_mismatch can only be approved at the declared total, so it always offers it.');
  }
  // What the link's page shows the account holder; taken as given, compared with nothing.
  const shown = { amount: input.amount, merchant: input.merchant, declaredTotal: input.declaredTotal };
  return { kind, offersDeclared, ...await createLink(deps, id, 'purchase', { kind, offersDeclared, ...shown }) };
}

/** A live security-code prompt (`cvv`) or a challenge handoff, as the proxy would create it. */
export async function createPromptLink(deps: BackOfficeDeps, accountId: string, kind: 'cvv' | 'challenge') {
  return createLink(deps, (await requireAccount(deps.db, accountId)).id, kind);
}
