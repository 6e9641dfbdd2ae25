import { Router } from 'express';
import type { Handlers, Services } from '../handlers.js';
import { ApiError } from '../../domain/errors.js';
import { readJsonBody } from '../body.js';
import { context } from '../context.js';
import { requireAdminToken } from './admin.js';
import { loadBackOfficeContract } from './document.js';
import { backOfficeValidator, matchBackOfficeOperation, translateBackOfficeErrors } from './validation.js';
import { backOfficeAccounts } from './accounts.js';
import { backOfficeKeys } from './keys.js';
import { backOfficeCards } from './cards.js';
import { backOfficeLogins } from './logins.js';
import { backOfficeProfile } from './profile.js';
import { backOfficeClock } from './clock.js';
import { backOfficeTokens } from './tokens.js';
import { backOfficeSignup } from './signup.js';
import { backOfficeRecipes } from './recipes.js';
import { backOfficeWebhooks } from './webhooks.js';

/**
 * Every handler of the back office, by operationId, one file per tag. To add one: document its path
 * in openapi/back-office.yaml (an undocumented back-office path answers 404) and add its handler
 * to the tag's file.
 */
export const backOfficeHandlers: Handlers = {
  ...backOfficeAccounts,
  ...backOfficeKeys,
  ...backOfficeCards,
  ...backOfficeLogins,
  ...backOfficeProfile,
  ...backOfficeClock,
  ...backOfficeTokens,
  ...backOfficeSignup,
  ...backOfficeRecipes,
  ...backOfficeWebhooks,
};

/**
 * The back office (openapi/back-office.yaml), mounted under /_fixtures only when an admin token
 * is set: the admin token, the documented operation, the capped JSON body, validation of the
 * request and of every response against the back-office document, then the operation's handler.
 * Errors go on to the app's one error handler, so they are the same `{code, error}`.
 */
export function backOfficeRouter(services: Services, adminToken: string): Router {
  const contract = loadBackOfficeContract();
  const validator = backOfficeValidator(contract, services.config.validateResponses);
  const router = Router();
  router.use(requireAdminToken(adminToken));
  router.use(matchBackOfficeOperation(contract));
  router.use(...validator.before);
  // The server-wide body rules are the main document's; the back office's document gives only the caps.
  router.use(readJsonBody({ nesting: services.contract.limit('body-nesting-depth') }));
  router.use(...validator.requests);
  router.use(async (req, res) => {
    const { operationId } = context(req).operation!;
    const handler = backOfficeHandlers[operationId];
    if (!handler) throw new ApiError(501, 'not_implemented', `${operationId} is not implemented by this server.`);
    await handler(req, res, services);
  });
  router.use(translateBackOfficeErrors(contract));
  return router;
}
