import type { Request } from 'express';
import type { BodyGates, Handlers, Services } from './handlers.js';
import { context } from './context.js';
import {
  decidePurchaseApproval,
  decideSignupApproval,
  liveLink,
  openPrompt,
  peekPrompt,
  readPurchaseApproval,
  readPurchaseHold,
  readSignupApproval,
  type PurchaseAt,
} from '../domain/links.js';
import { sendPage } from './pages/html.js';
import { signupPage } from './pages/signup-page.js';
import { purchaseOutcomePage, purchasePage } from './pages/purchase-page.js';
import { promptPage } from './pages/prompt-page.js';

/**
 * Tag Account-holder links (section 4.11), and the proxy health check (4.12). No API key: the token
 * is the credential. Each link answers a browser with a page and everyone else with JSON; the two
 * are the same answer (the page is rendered from the JSON view), so they cannot disagree.
 */
export const linkHandlers: Handlers = {
  getPurchaseApproval(req, res, services) {
    const token = context(req).params.token!;
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(readPurchaseApproval(services, token));
    sendPage(res, 200, purchasePage(readPurchaseHold(services, token), token));
  },

  decidePurchaseApproval(req, res, services) {
    const token = context(req).params.token!;
    const body = req.body as { decision: 'approve' | 'deny'; at?: PurchaseAt };
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(decidePurchaseApproval(services, token, body.decision, body.at));
    // Read before deciding: a decision that takes effect uses the link up.
    const { shown } = readPurchaseHold(services, token);
    sendPage(res, 200, purchaseOutcomePage(decidePurchaseApproval(services, token, body.decision, body.at), shown));
  },

  getSignupApproval(req, res, services) {
    const view = readSignupApproval(services, context(req).params.token!);
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(view);
    sendPage(res, 200, signupPage(view, services));
  },

  decideSignupApproval(req, res, services) {
    const body = req.body as { decision: 'approve' | 'deny' };
    const view = decideSignupApproval(services, context(req).params.token!, body.decision);
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(view);
    sendPage(res, 200, signupPage(view, services));
  },

  getCvvRequest(req, res, services) {
    const view = prompt(req, services, 'cvv');
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(view);
    sendPage(res, 200, promptPage(view, 'cvv'));
  },

  getChallengeRequest(req, res, services) {
    const view = prompt(req, services, 'challenge');
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(view);
    sendPage(res, 200, promptPage(view, 'challenge'));
  },

  getProxyHealth(_req, res) {
    res.status(200).json({ ok: true });
  },
};

/** A single-use link is used up by GET only: HEAD answers as GET would and leaves it live. */
function prompt(req: Request, services: Services, kind: 'cvv' | 'challenge') {
  const token = context(req).params.token!;
  return req.method === 'HEAD' ? peekPrompt(services, token, kind) : openPrompt(services, token, kind);
}

/**
 * A decision's link is looked up before its body is read: the token is the only credential, so
 * without this a stranger's slow body to any token would hold a connection until the request
 * timeout. The handler looks the link up again inside its transaction.
 */
export const linkBodyGates: BodyGates = {
  decidePurchaseApproval(req, services) {
    liveLink(services, context(req).params.token!, 'purchase');
  },
  decideSignupApproval(req, services) {
    liveLink(services, context(req).params.token!, 'signup');
  },
};

/** Where a refused decision's page sends the account holder back to: the link's own page. */
export function linkPageOf(operationId: string, token: string): string | undefined {
  if (operationId === 'decideSignupApproval') return encodeURIComponent(token);
  if (operationId === 'decidePurchaseApproval') return `../${encodeURIComponent(token)}`;
  return undefined;
}
