import type { Express, RequestHandler } from 'express';
import type { Contract, Operation } from '../../contract.js';
import type { Stages as ValidatorStages } from './stages.js';

/**
 * express-openapi-validator compiles lazily: the document on the first request, and each
 * operation's request and response validators on the first request to that operation, which then
 * waits for it (the bench's "first response" column measures that wait: docs/performance.md);
 * V8 then compiles each generated validation function on its first call. Warming runs every documented operation, once per documented request media type,
 * through the validator's own stages with a synthetic request carrying the documented request
 * example, then passes every documented response example through the response hook, so the first
 * real request finds every validator compiled and run once. The synthetic request never reaches
 * authentication, the limiter, the store, a handler or the request log; validation errors (a
 * missing header, say) are dropped, since only the compiling matters. It relies on the response
 * stage wrapping the `res.json` it is handed (server/test/framework-seam.test.ts holds the library
 * to that).
 *
 * With `between`, warming waits on it after each stage, so that requests arriving meanwhile are
 * answered between stages rather than after all of them (a server that serves while it warms).
 */
export async function warmValidator(app: Express, contract: Contract, stages: ValidatorStages, between?: () => Promise<void>): Promise<void> {
  const run = (handlers: RequestHandler[], req: unknown, res: unknown) => runStages(handlers, req, res, between);
  for (const operation of contract.operations.values()) {
    const requestBody = contract.resolve(operation.raw.requestBody) as { content?: Record<string, Media> } | undefined;
    const mediaTypes = requestBody?.content ? Object.entries(requestBody.content) : [[undefined, undefined] as const];
    for (const [mediaType, media] of mediaTypes) {
      const req = syntheticRequest(app, operation, mediaType, mediaType ? (examplesOf(contract, media)[0] ?? {}) : undefined);
      await run([...stages.init, ...stages.metadata, ...stages.requests], req, {});
      if (stages.responses.length === 0) continue;
      for (const [status, rawResponse] of Object.entries((operation.raw.responses ?? {}) as Record<string, unknown>)) {
        const response = contract.resolve(rawResponse) as { content?: Record<string, Media> };
        const examples = examplesOf(contract, response.content?.['application/json']);
        for (const example of examples.length > 0 ? examples : [{}]) {
          const res = {
            statusCode: Number(status) || 200,
            headersSent: false,
            getHeaders: () => ({ 'content-type': 'application/json' }),
            json(this: unknown, _body: unknown) {
              return this;
            },
          };
          await run(stages.responses, req, res);
          res.json(example);
        }
      }
    }
  }
}

/**
 * Loads the document into the validator (its first stage waits for that), without compiling any
 * operation's validators: what every first request would otherwise wait for.
 */
export async function loadDocument(app: Express, contract: Contract, stages: ValidatorStages): Promise<void> {
  const [operation] = contract.operations.values();
  if (!operation) return;
  await runStages(stages.init, syntheticRequest(app, operation, undefined, undefined), {});
}

/** Runs the stages one after the other, each to its `next`, whatever it passes there. */
async function runStages(handlers: RequestHandler[], req: unknown, res: unknown, between?: () => Promise<void>): Promise<void> {
  for (const stage of handlers) {
    await new Promise<unknown>((done) => (stage as (q: unknown, s: unknown, n: (e?: unknown) => void) => void)(req, res, done));
    // A request's own stages continue as promise jobs too: only a turn of the event loop lets
    // them all run before the next stage of warming.
    if (between) await between();
  }
}

function syntheticRequest(app: Express, operation: Operation, mediaType: string | undefined, body: unknown) {
  const path = operation.path.replace(/\{[^}]+\}/g, 'warm');
  return {
    app,
    method: operation.method,
    url: path,
    originalUrl: path,
    baseUrl: '',
    path,
    query: {},
    params: {},
    headers: { accept: 'application/json', ...(mediaType ? { 'content-type': mediaType } : {}) },
    body,
  };
}

interface Media {
  example?: unknown;
  examples?: Record<string, unknown>;
}

function examplesOf(contract: Contract, media: Media | undefined): unknown[] {
  if (!media) return [];
  if (media.example !== undefined) return [media.example];
  return Object.values(media.examples ?? {})
    .map((e) => (contract.resolve(e) as { value?: unknown }).value)
    .filter((v) => v !== undefined);
}
