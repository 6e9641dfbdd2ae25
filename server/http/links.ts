import type { BodyGates, Handlers } from './handlers.js';
import { context } from './context.js';
import {
  decidePurchaseApproval,
  decideSignupApproval,
  liveLink,
  openPrompt,
  readPurchaseApproval,
  readSignupApproval,
  type PurchaseAt,
} from '../domain/links.js';

/** Tag Account-holder links (section 4.11), and the proxy health check (4.12). No API key: the token is the credential. */
export const linkHandlers: Handlers = {
  getPurchaseApproval(req, res, services) {
    res.status(200).json(readPurchaseApproval(services, context(req).params.token!));
  },

  decidePurchaseApproval(req, res, services) {
    const body = req.body as { decision: 'approve' | 'deny'; at?: PurchaseAt };
    res.status(200).json(decidePurchaseApproval(services, context(req).params.token!, body.decision, body.at));
  },

  getSignupApproval(req, res, services) {
    res.status(200).json(readSignupApproval(services, context(req).params.token!));
  },

  decideSignupApproval(req, res, services) {
    const body = req.body as { decision: 'approve' | 'deny' };
    res.status(200).json(decideSignupApproval(services, context(req).params.token!, body.decision));
  },

  getCvvRequest(req, res, services) {
    res.status(200).json(openPrompt(services, context(req).params.token!, 'cvv'));
  },

  getChallengeRequest(req, res, services) {
    res.status(200).json(openPrompt(services, context(req).params.token!, 'challenge'));
  },

  getProxyHealth(_req, res) {
    res.status(200).json({ ok: true });
  },
};

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
