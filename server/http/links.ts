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
  async getPurchaseApproval(req, res, services) {
    const token = context(req).params.token!;
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(await readPurchaseApproval(services, token));
    sendPage(res, 200, purchasePage(await readPurchaseHold(services, token), token));
  },

  async decidePurchaseApproval(req, res, services) {
    const token = context(req).params.token!;
    const body = req.body as { decision: 'approve' | 'deny'; at?: PurchaseAt };
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(await decidePurchaseApproval(services, token, body.decision, body.at));
    // Read before deciding: a decision that takes effect uses the link up.
    const { shown } = await readPurchaseHold(services, token);
    sendPage(res, 200, purchaseOutcomePage(await decidePurchaseApproval(services, token, body.decision, body.at), shown));
  },

  async getSignupApproval(req, res, services) {
    const view = await readSignupApproval(services, context(req).params.token!);
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(view);
    sendPage(res, 200, signupPage(view, services));
  },

  async decideSignupApproval(req, res, services) {
    const body = req.body as { decision: 'approve' | 'deny' };
    const view = await decideSignupApproval(services, context(req).params.token!, body.decision);
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(view);
    sendPage(res, 200, signupPage(view, services));
  },

  async getCvvRequest(req, res, services) {
    const view = await prompt(req, services, 'cvv');
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(view);
    sendPage(res, 200, promptPage(view, 'cvv'));
  },

  async getChallengeRequest(req, res, services) {
    const view = await prompt(req, services, 'challenge');
    if (!services.pages.wanted(req, 200)) return void res.status(200).json(view);
    sendPage(res, 200, promptPage(view, 'challenge'));
  },

  getProxyHealth(_req, res) {
    res.status(200).json({ ok: true });
  },
};

/** A single-use link is used up by GET only: HEAD answers as GET would and leaves it live. */
async function prompt(req: Request, services: Services, kind: 'cvv' | 'challenge') {
  const token = context(req).params.token!;
  return req.method === 'HEAD' ? await peekPrompt(services, token, kind) : await openPrompt(services, token, kind);
}

/**
 * A decision's link is looked up before its body is read: the token is the only credential, so
 * without this a stranger's slow body to any token would hold a connection until the request
 * timeout. The handler looks the link up again inside its transaction.
 */
export const linkBodyGates: BodyGates = {
  async decidePurchaseApproval(req, services) {
    await liveLink(services, context(req).params.token!, 'purchase');
  },
  async decideSignupApproval(req, services) {
    await liveLink(services, context(req).params.token!, 'signup');
  },
};

/** Where a refused decision's page sends the account holder back to: the link's own page. */
export function linkPageOf(operationId: string, token: string): string | undefined {
  if (operationId === 'decideSignupApproval') return encodeURIComponent(token);
  if (operationId === 'decidePurchaseApproval') return `../${encodeURIComponent(token)}`;
  return undefined;
}
