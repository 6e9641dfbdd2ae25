import type { Request, Response } from 'express';
import type { Db } from '../store/db.js';
import type { Sealer } from '../store/secrets.js';
import type { Clock } from '../domain/clock.js';
import type { Limiter } from '../domain/limiter.js';
import type { Contract } from '../contract.js';
import type { ServerConfig } from '../config.js';
import type { RecipeRegistry } from '../domain/recipes.js';
import type { Pages } from './pages/negotiation.js';
import type { WebhookSender } from '../webhooks/sender.js';

/** What every handler may use; handlers take validated input and call the domain. */
export interface Services {
  db: Db;
  sealer: Sealer;
  clock: Clock;
  limiter: Limiter;
  contract: Contract;
  config: ServerConfig;
  /** The recipe registry: the loaded release, contributions, lookups and screening. */
  recipes: RecipeRegistry;
  /** Which answers go to a browser as a page (the account-holder links). */
  pages: Pages;
  /** Sends webhook deliveries (section 6) and records their attempts. */
  webhooks: WebhookSender;
}

export type Handler = (req: Request, res: Response, services: Services) => void | Promise<void>;

/** operationId → handler: the operationId joins the document, the handler and the client call. */
export type Handlers = Record<string, Handler>;

/**
 * operationId → a check that runs before the body is read and throws the answer when the request
 * cannot succeed whatever its body (an unknown account-holder link), so no body is waited for.
 */
export type BodyGates = Record<string, (req: Request, services: Services) => void | Promise<void>>;
