import { Router } from 'express';
import type { Services } from '../handlers.js';
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

/** One resource's back-office routes: an express Router whose paths are relative to /_fixtures. */
export type BackOfficeRoutes = (services: Services) => Router;

/**
 * Every router of the back office, one per resource. To add one: document its paths in
 * openapi/back-office.yaml (an undocumented back-office path answers 404) and add its factory here.
 */
export const backOfficeRoutes: BackOfficeRoutes[] = [
  backOfficeAccounts,
  backOfficeKeys,
  backOfficeCards,
  backOfficeLogins,
  backOfficeProfile,
  backOfficeClock,
  backOfficeTokens,
  backOfficeSignup,
  backOfficeRecipes,
  backOfficeWebhooks,
];

/**
 * The back office (openapi/back-office.yaml), mounted under /_fixtures only when an admin token
 * is set: the admin token, the documented operation, the capped JSON body, validation of the
 * request and of every response against the back-office document, then the resource routers.
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
  for (const routes of backOfficeRoutes) router.use(routes(services));
  router.use((req) => {
    throw new ApiError(501, 'not_implemented', `${context(req).operation!.operationId} is not implemented by this server.`);
  });
  router.use(translateBackOfficeErrors(contract));
  return router;
}
