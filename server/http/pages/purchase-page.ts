import { AMOUNT_MISMATCH, type PurchaseApprovalView, type PurchaseAt, type PurchaseHoldShown } from '../../domain/links.js';
import { decisionForm, escapeHtml, page, time, userText, userTextPlain } from './html.js';

/**
 * The account holder's page of a held purchase (`/v1/approvals/{token}`): why it is held, what it
 * is for, and a button for each decision the hold accepts, so the page never offers one the server
 * would refuse. The forms post to `/v1/approvals/{token}/decide`.
 */

type Hold = PurchaseApprovalView & { shown: PurchaseHoldShown };

function reason(hold: Hold): string {
  if (hold.kind === AMOUNT_MISMATCH) {
    return 'The total on the checkout page differs from the total the agent declared, so this purchase can only be approved at the declared total.';
  }
  return `The purchase is held for your approval (${hold.kind.replace(/_/g, ' ')}).`;
}

function details(hold: Hold): string {
  const { amount, merchant, declaredTotal } = hold.shown;
  const rows = [
    ...(merchant ? [['Merchant', userText(merchant)]] : []),
    ...(amount ? [['Amount on the page', userText(amount)]] : []),
    ...(hold.offersDeclared && declaredTotal ? [['Declared total', userText(declaredTotal)]] : []),
    ['Open until', time(hold.expiresAt)],
  ];
  return `<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

const withFigure = (label: string, figure: string | undefined) => (figure ? `${escapeHtml(label)} (${userText(figure)})` : escapeHtml(label));

export function purchasePage(hold: Hold, token: string): string {
  const action = `${encodeURIComponent(token)}/decide`;
  const buttons = [
    ...(hold.kind !== AMOUNT_MISMATCH ? [decisionForm(action, { decision: 'approve', at: 'page' }, withFigure('Approve at the page total', hold.shown.amount), 'approve')] : []),
    ...(hold.offersDeclared
      ? [decisionForm(action, { decision: 'approve', at: 'declared' }, withFigure('Approve at the declared total', hold.shown.declaredTotal), 'approve')]
      : []),
    decisionForm(action, { decision: 'deny' }, 'Deny', 'deny'),
  ];
  const merchant = hold.shown.merchant;
  const title = merchant ? `Approve the purchase at ${userTextPlain(merchant)}?` : 'Approve the held purchase?';
  const heading = merchant ? `Approve the purchase at ${userText(merchant)}?` : escapeHtml(title);
  return page(title, `<h1>${heading}</h1>
<p>${escapeHtml(reason(hold))}</p>
${details(hold)}
<div class="actions">${buttons.join('')}</div>`);
}

/** The page after a decision took effect; the link is used up. */
export function purchaseOutcomePage(outcome: { status: 'approved' | 'denied'; at?: PurchaseAt }, shown: PurchaseHoldShown): string {
  if (outcome.status === 'denied') {
    return page('Purchase denied', `<h1>Purchase denied</h1>
<div class="outcome" role="status"><p>The purchase${shown.merchant ? ` at ${userText(shown.merchant)}` : ''} will not go through.</p></div>`);
  }
  const figure = outcome.at === 'declared' ? shown.declaredTotal : shown.amount;
  const total = outcome.at === 'declared' ? 'the declared total' : 'the page total';
  return page('Purchase approved', `<h1>Purchase approved</h1>
<div class="outcome" role="status"><p>Approved at ${total}${figure ? `, ${userText(figure)}` : ''}${shown.merchant ? `, at ${userText(shown.merchant)}` : ''}.</p></div>`);
}
