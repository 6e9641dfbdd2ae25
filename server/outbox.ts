import type { Contract } from './contract.js';
import type { NewLink } from './store/outbox.js';

/**
 * The demo outbox: each new account-holder link as the service would send it to the account holder
 * (by email or a phone notification), printed on the console instead. Demo mode only: a link's
 * token is a credential, so it never reaches the request log, and a server started without --demo
 * prints none.
 */

/** The operation that answers each kind of link: its path in the document is the link's. */
const OPERATION = { signup: 'getSignupApproval', purchase: 'getPurchaseApproval', cvv: 'getCvvRequest', challenge: 'getChallengeRequest' } as const;

export function linkUrl(contract: Contract, baseUrl: string, link: Pick<NewLink, 'kind' | 'token'>): string {
  const op = contract.operations.get(OPERATION[link.kind]);
  if (!op) throw new Error(`the document has no ${OPERATION[link.kind]}`);
  return `${baseUrl}${op.path.replace('{token}', encodeURIComponent(link.token))}`;
}

function what(link: NewLink): string {
  const text = (key: string) => (typeof link.details[key] === 'string' ? (link.details[key] as string) : undefined);
  switch (link.kind) {
    case 'signup':
      return `approve the signup for ${link.website ?? 'a site'}`;
    case 'purchase': {
      const amount = text('amount');
      const merchant = text('merchant');
      return `approve the purchase${amount ? ` of ${amount}` : ''}${merchant ? ` at ${merchant}` : ''}`;
    }
    case 'cvv':
      return "enter a card's security code";
    case 'challenge':
      return 'take over a challenge';
  }
}

export function outboxLine(contract: Contract, baseUrl: string, link: NewLink): string {
  return `To the account holder: ${what(link)}: ${linkUrl(contract, baseUrl, link)}`;
}
