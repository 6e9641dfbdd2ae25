import type { SignupApprovalView } from '../../domain/links.js';
import { siteLabel } from '../../domain/sites.js';
import type { Limiter } from '../../domain/limiter.js';
import type { Contract } from '../../contract.js';

/** What the page reads of the server: the limits it names in a refusal's reason. */
type PageServices = { limiter: Limiter; contract: Contract };
import { decisionForm, escapeHtml, page, time, userText } from './html.js';

/**
 * The account holder's page of a signup request (`/v1/signup-requests/{token}`): what the agent
 * asks for, the reason the last approval could not complete, and the two decisions. The forms post
 * to the page's own address, the link itself.
 */

/** Why an approval could not complete, in the account holder's words; the figures are the document's. */
function failureText(reason: string, services: PageServices, website: string): string {
  const value = (id: string) => services.limiter.max(services.contract.limit(id), 'Free');
  const name = siteLabel(website);
  switch (reason) {
    case 'login_limit':
      return `Your account already holds ${value('logins-per-account')} logins, the most it may hold. Delete logins you no longer need, then approve again.`;
    case 'label_unavailable':
      return `Every label for this site's name is taken (${name}, then ${name}2 to ${name}${value('labels-per-site-name')}). Delete or rename a login with one of them, then approve again.`;
    case 'scope_full':
      return `The agent's key may see only a chosen list of logins, and it has added the most it may (${value('scoped-key-login-list')}) to that list. Remove entries from the key's list, then approve again.`;
    case 'daily_limit':
      return `Your account's credential changes for the current 24 hours are spent (${value('credential-changes-per-account')}). Approve again when the window resets.`;
    default:
      return `The approval could not complete (${reason}).`;
  }
}

function details(view: SignupApprovalView, withExpiry: boolean): string {
  const rows = [
    ['Site', userText(view.website)],
    ['Email', userText(view.email)],
    ...(view.username ? [['Username', userText(view.username)]] : []),
    ...(withExpiry ? [['Open until', time(view.expiresAt)]] : []),
  ];
  return `<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

const ASK = `<p>An agent asks to create a new login for you on this site. If you approve, the login is created with a password the service generates; the agent fills it in through a token and never sees it.</p>`;

function decisions(): string {
  return `<div class="actions">${decisionForm(undefined, { decision: 'approve' }, 'Approve', 'approve')}${decisionForm(undefined, { decision: 'deny' }, 'Deny', 'deny')}</div>`;
}

/** The page of `GET`, and of `POST` whose approval could not complete (the link stays usable). */
export function signupPage(view: SignupApprovalView, services: PageServices): string {
  if (view.status === 'approved') {
    return page('Signup approved', `<h1>Signup approved</h1>
<div class="outcome" role="status"><p>The login for ${escapeHtml(view.website)} is created. The agent's next poll carries its tokens.</p></div>
${details(view, false)}`);
  }
  if (view.status === 'denied') {
    return page('Signup denied', `<h1>Signup denied</h1>
<div class="outcome" role="status"><p>No login was created. The agent's next poll shows the request denied.</p></div>
${details(view, false)}`);
  }
  const failed = view.approvalFailure
    ? `<div class="notice" role="alert"><h2>The approval could not complete</h2><p>${escapeHtml(failureText(view.approvalFailure, services, view.website))}</p><p class="muted">Only you see this reason; the agent still sees the request pending.</p></div>`
    : '';
  const title = `Approve the signup for ${view.website}?`;
  return page(title, `<h1>${escapeHtml(title)}</h1>
${failed}${ASK}
${details(view, true)}
${decisions()}`);
}
