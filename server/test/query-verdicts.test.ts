import { request } from 'node:http';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, serveApp } from './support.js';
import { buildContract, type Contract } from '../contract.js';
import { matchOperation } from '../http/operation.js';
import { series } from '../http/pipeline.js';
import { parseQuery } from '../http/query.js';
import { validatorStages } from '../http/validator.js';
import { rememberVerdicts } from '../http/query-verdicts.js';

/**
 * Remembered verdicts (http/query-verdicts.ts) skip request validation for a query text the
 * validator let through before, on the operations where nothing else of a request is validated.
 * Held here to the validator itself: for generated requests (method, path, query text, with or
 * without a Content-Type), the validator's outcome on a fresh request, and the outcome through the
 * remembering stage the first time and the second (remembered) time, are the same: the refusal, or
 * `req.query` with its property's kind, `req.params` and `req.body`.
 */

interface Outcome {
  refused?: { status: number; errors: unknown };
  query?: unknown;
  queryProperty?: string;
  params?: unknown;
  body?: string;
}

function outcomeOf(req: Request): Outcome {
  const own = Object.getOwnPropertyDescriptor(req, 'query');
  const queryProperty = own ? `own ${own.get ? 'getter' : 'value'} writable=${own.writable} enumerable=${own.enumerable} configurable=${own.configurable}` : 'inherited';
  const query = req.query as Record<string, unknown>;
  return { query: { proto: Object.getPrototypeOf(query) === Object.prototype, entries: Object.entries(query) }, queryProperty, params: req.params, body: String(req.body) };
}

const refused: ErrorRequestHandler = (err: { status?: number; errors?: unknown }, _req, res, _next) => {
  res.status(200).json({ refused: { status: err.status, errors: err.errors } });
};

function appWith(stage: (requests: RequestHandler[]) => RequestHandler, document: Contract = contract()): express.Express {
  const stages = validatorStages(document, { validateResponses: false, allowUnknownQueryParameters: true });
  const app = express();
  app.set('etag', false);
  app.set('query parser', parseQuery);
  app.use(series([matchOperation(document), ...stages.init, ...stages.metadata, stage(stages.requests), (req, res) => res.json(outcomeOf(req))]));
  app.use(refused);
  return app;
}

let plain: string;
let remembering: string;
let validations = 0;
const servers: { close(): Promise<void> }[] = [];
async function serve(app: express.Express): Promise<string> {
  const served = await serveApp(app);
  servers.push(served);
  return served.base;
}
beforeAll(async () => {
  plain = await serve(appWith((requests) => series(requests)));
  // The validator behind the remembering stage counts its runs.
  remembering = await serve(
    appWith((requests) =>
      rememberVerdicts(
        requests.map((stage): RequestHandler => (req, res, next) => {
          validations++;
          return stage(req, res, next);
        }),
      ),
    ),
  );
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** The outcome of one request, the target sent exactly as given. HEAD has no body: it is sent as GET's outcome header. */
function send(base: string, method: string, target: string, headers: Record<string, string>): Promise<Outcome> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path: target, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve(method === 'HEAD' ? { body: `HEAD ${res.statusCode} ${res.headers['content-length']}` } : (JSON.parse(text) as Outcome)));
    });
    req.on('error', reject);
    req.end();
  });
}

// Query text as clients send it: documented names and others, brackets, empty and repeated
// values, percent escapes good and bad, reserved characters.
const name = fc.constantFrom('url', 'host', 'full', 'x', 'url[]', 'full[0]', 'host[a]', '', 'URL');
const value = fc.oneof(
  fc.constantFrom('', '1', 'true', '0', 'https://www.acme.co.uk/checkout', 'acme.com', '%zz', '%41', '[]', 'a,b', ':/?@!$\'()*+;', '%F0%9F%98%80', '%00'),
  fc.stringMatching(/^[A-Za-z0-9._~:/?@!$&'()*+,;=%[\]-]{0,12}$/),
);
const query = fc.array(fc.tuple(name, fc.option(value, { nil: undefined })), { maxLength: 4 }).map((pairs) => pairs.map(([n, v]) => (v === undefined ? n : `${n}=${v}`)).join('&'));
const target = fc
  .tuple(fc.constantFrom('/v1/tokens', '/v1/recipes', '/health', '/v1/recipes/submissions/sub_1'), fc.option(query, { nil: undefined }))
  .map(([path, q]) => (q === undefined ? path : `${path}?${q}`));

describe('remembered request verdicts', () => {
  it('given generated requests, then the outcome through the remembering stage, first and remembered, is the validator\'s', async () => {
    await fc.assert(
      fc.asyncProperty(target, fc.constantFrom('GET', 'HEAD'), fc.boolean(), async (path, method, typed) => {
        const headers: Record<string, string> = typed ? { 'content-type': 'application/json' } : {};
        const expected = await send(plain, method, path, headers);
        expect(await send(remembering, method, path, headers)).toEqual(expected);
        expect(await send(remembering, method, path, headers)).toEqual(expected);
      }),
      { numRuns: 300, seed: 23 },
    );
  });

  it('given a query the validator refuses, then the remembering stage refuses it every time', async () => {
    // The document's query parameters take any string; in a variant of it, `full` takes only "1".
    const doc = structuredClone(contract().doc) as { components: { parameters: Record<string, { schema: unknown }> } };
    doc.components.parameters.RecipeIndexFull!.schema = { type: 'string', enum: ['1'] };
    const strict = buildContract(doc as never);
    const [plainStrict, rememberingStrict] = await Promise.all([
      serve(appWith((requests) => series(requests), strict)),
      serve(appWith((requests) => rememberVerdicts(requests), strict)),
    ]);
    const refusedTarget = '/v1/recipes?full=maybe';
    const expected = await send(plainStrict, 'GET', refusedTarget, {});
    expect(expected.refused?.status).toBe(400);
    for (let i = 0; i < 3; i++) expect(await send(rememberingStrict, 'GET', refusedTarget, {})).toEqual(expected);
    // The same stage still lets through, and remembers, what the variant allows.
    const allowed = await send(plainStrict, 'GET', '/v1/recipes?full=1', {});
    expect(allowed.refused).toBeUndefined();
    for (let i = 0; i < 2; i++) expect(await send(rememberingStrict, 'GET', '/v1/recipes?full=1', {})).toEqual(allowed);
  });

  it('given a query let through once, then the next request with it is not validated again; another query, a Content-Type or HEAD is', async () => {
    const before = validations;
    await send(remembering, 'GET', '/v1/tokens?url=https%3A%2F%2Fremembered.example%2F', {});
    expect(validations).toBe(before + 1);
    await send(remembering, 'GET', '/v1/tokens?url=https%3A%2F%2Fremembered.example%2F', {});
    expect(validations).toBe(before + 1);
    await send(remembering, 'GET', '/v1/tokens?url=https%3A%2F%2Fother.example%2F', {});
    await send(remembering, 'GET', '/v1/tokens?url=https%3A%2F%2Fremembered.example%2F', { 'content-type': 'application/json' });
    await send(remembering, 'HEAD', '/v1/tokens?url=https%3A%2F%2Fremembered.example%2F', {});
    await send(remembering, 'HEAD', '/v1/tokens?url=https%3A%2F%2Fremembered.example%2F', {});
    expect(validations).toBe(before + 5);
  });
});
