import express, { type NextFunction, type RequestHandler, type Response } from 'express';
import { beginRequestReads, type Db } from './store/db.js';
import { Sealer } from './store/secrets.js';
import { SharedManualClock, type Clock } from './domain/clock.js';
import { Limiter } from './domain/limiter.js';
import { loadContract, type Contract, type Operation } from './contract.js';
import { defaultConfig, type ServerConfig } from './config.js';
import { ApiError } from './domain/errors.js';
import { context } from './http/context.js';
import { matchOperation, unknownPath } from './http/operation.js';
import { afterReceived, series } from './http/pipeline.js';
import { authenticate } from './http/auth.js';
import { readJsonBody } from './http/body.js';
import { idempotency } from './http/idempotency.js';
import { IdempotentWrites } from './domain/idempotency.js';
import { perMinuteLimits } from './http/rate-limits.js';
import { errorHandler, lastResort } from './http/errors.js';
import { requestLog, jsonLog, type Log } from './http/logging.js';
import type { BodyGates, Handlers, Services } from './http/handlers.js';
import { tokenHandlers } from './http/tokens.js';
import { recipeHandlers } from './http/recipes.js';
import { signupHandlers } from './http/signup.js';
import { linkBodyGates, linkHandlers } from './http/links.js';
import { noStore } from './http/cache-control.js';
import { backOfficeRouter } from './http/back-office/index.js';
import { docsRouter } from './http/docs.js';
import { healthRouter, type Readiness } from './http/health.js';
import { pages as linkPages } from './http/pages/negotiation.js';
import { loadDocument, warmValidator } from './http/framework/warm.js';
import { seamOn } from './http/framework/seam.js';
import { validatorStages } from './http/validator.js';
import { parseQuery } from './http/query.js';
import { RecipeRegistry } from './domain/recipes.js';
import { loadRelease, type Release } from './domain/registry.js';
import { WebhookSender, type WebhookTransport } from './webhooks/sender.js';
import { webhookFormat } from './webhooks/format.js';

export interface AppOptions {
  db: Db;
  clock: Clock;
  config?: Partial<ServerConfig>;
  /** 32-byte master key; tests pass a random one. */
  masterKey: Buffer;
  contract?: Contract;
  log?: Log;
  /** The recipe registry release to serve; by default the newest file in server/registry. */
  release?: Release;
  /** A ready recipe registry (tests pass one to drive its screening queue); built from `release` otherwise. */
  recipes?: RecipeRegistry;
  /** How webhook deliveries reach the network; tests inject a recorder or shorter time-outs. */
  webhookTransport?: Partial<WebhookTransport>;
  /** Whether the replica takes requests (http/health.ts); main.ts marks it draining on a stop. */
  readiness?: Readiness;
}

const handlers: Handlers = { ...tokenHandlers, ...recipeHandlers, ...signupHandlers, ...linkHandlers };
const bodyGates: BodyGates = { ...linkBodyGates };

function answered(op: Operation, res: Response, next: NextFunction): void {
  if (!res.headersSent) next(new Error(`${op.operationId} sent no response`));
}

/**
 * The reference server. Order matters: the operation is matched once; the validator's response
 * hook is installed before anything can answer, so errors are checked against the document too;
 * then authentication, an idempotency key's decision (which reads the capped body first), per-minute
 * limits, the checks that need no body (an unknown link), the capped body, request validation, the
 * handler, and one error handler that speaks the
 * specification's `{code, error}`. The documented operations run as one series of stages
 * (http/pipeline.ts), the app's first layer, which every API request passes; the docs and the
 * back office come after it.
 */
export function createApp(options: AppOptions) {
  const config: ServerConfig = { ...defaultConfig, ...options.config };
  const contract = options.contract ?? loadContract();
  const log = options.log ?? jsonLog;
  const sealer = new Sealer(options.masterKey);
  const limiter = new Limiter(options.db, options.clock, contract, { overrides: config.limitOverrides });
  const recipes = options.recipes ?? new RecipeRegistry({ db: options.db, clock: options.clock, contract, log }, options.release ?? loadRelease(contract));
  const pages = linkPages(contract);
  const webhooks = new WebhookSender({
    db: options.db,
    clock: options.clock,
    format: webhookFormat(contract),
    allowLoopback: config.allowLoopbackWebhooks,
    transport: options.webhookTransport,
  });
  const services: Services = { db: options.db, sealer, clock: options.clock, limiter, contract, config, recipes, pages, webhooks };

  const stages = validatorStages(contract, {
    validateResponses: config.validateResponses,
    // Unlisted query parameters are ignored (the document's info, "Query parameters").
    allowUnknownQueryParameters: true,
  });
  const { init, metadata, requests, responses } = stages;
  const seconds = (id: string) => limiter.max(contract.limit(id), 'Free') * 1000;
  const writes = new IdempotentWrites(
    { db: options.db, sealer, clock: options.clock },
    { windowMs: seconds('idempotency-key-window'), inFlightMs: seconds('idempotency-key-in-flight') },
  );
  const idempotentWrites = idempotency({ writes, contract, db: options.db, sealer, log });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', parseQuery);
  const clock = options.clock;
  const beginReads: RequestHandler = (_req, _res, next) => {
    beginRequestReads(options.db);
    // Replicas that share a manual clock read its time as each request begins.
    if (clock instanceof SharedManualClock) return clock.refresh().then(() => next());
    next();
  };
  const handle: RequestHandler = (req, res, next) => {
    const op = context(req).operation!;
    const handler = handlers[op.operationId];
    if (!handler) throw new ApiError(501, 'not_implemented', `${op.operationId} is not implemented by this server.`);
    const pending = handler(req, res, services);
    if (!pending) return answered(op, res, next);
    return pending.then(() => answered(op, res, next));
  };
  // Every request: its log line, then the documented operations. A path the document does not have
  // leaves them for the docs, the back office and the 404.
  const first = series([
    requestLog(log),
    matchOperation(contract),
    beginReads,
    noStore,
    pages.headers,
    afterReceived,
    ...init,
    ...metadata,
    ...responses,
    idempotentWrites.echo,
    authenticate(options.db),
    idempotentWrites.decide,
    perMinuteLimits(limiter, { countRefused: config.countRefusedRequests }),
    readJsonBody({
      nesting: contract.limit('body-nesting-depth'),
      beforeBody: (req) => bodyGates[context(req).operation!.operationId]?.(req, services),
      takesForm: (op) => contract.resolve(op.raw.requestBody)?.content?.['application/x-www-form-urlencoded'] !== undefined,
    }),
    ...requests,
    handle,
  ]);
  app.use(first);
  const readiness: Readiness = options.readiness ?? { draining: false };
  app.use(healthRouter(options.db, readiness));
  app.use(docsRouter());
  if (config.adminToken) app.use('/_fixtures', beginReads, backOfficeRouter(services, config.adminToken));
  app.use(unknownPath);
  app.use(errorHandler(contract, log, pages), lastResort);
  // Compiles every validator, once: awaited before serving, so the first request finds them all
  // compiled, or, with 'while-serving', yielding to the event loop after each stage, so a server
  // that already serves answers requests meanwhile (main.ts: a start listens sooner).
  let warmed: Promise<void> | undefined;
  // The framework seam's (http/framework/seam.ts): without it, each operation compiles on its first request.
  const warm = seamOn('warm');
  const ready = (pace?: 'while-serving') =>
    (warmed ??= warm ? warmValidator(app, contract, stages, pace === 'while-serving' ? nextTurn : undefined) : loaded());
  // The document alone, loaded into the validator: main.ts awaits it before its banner.
  let documentLoaded: Promise<void> | undefined;
  const loaded = () => (documentLoaded ??= loadDocument(app, contract, stages));
  return Object.assign(app, { ready, loaded, webhooks, readiness });
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
