// The validator's route lookup alone (express-openapi-validator's metadata stage, which finds the
// documented operation of a request), timed in this process for the bundled document and for the
// same document with extra paths. Unlike req/s under load, this is not blurred by the machine's
// other work, so it shows plainly whether the per-request cost grows with the number of paths.
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';

export type Stage = (req: unknown, res: unknown, next: (err?: unknown) => void) => unknown;

/**
 * The validator's metadata stage, as app.ts configures the validator: the stage that finds the
 * documented operation of a request (and the one patches/ changes). Also used by the route tests.
 */
export function metadataStage(doc: Record<string, unknown>): Stage {
  const stages = OpenApiValidator.middleware({
    apiSpec: structuredClone(doc) as never,
    validateRequests: true,
    validateResponses: false,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
  }) as unknown as Stage[];
  return stages.find((s) => (s as { name?: string }).name === 'metadataMiddleware')!;
}

/** Microseconds per lookup of GET `path`. */
export async function lookupMicros(doc: Record<string, unknown>, path: string, iterations = 20_000): Promise<number> {
  const metadata = metadataStage(doc);
  const req = { app: express(), method: 'GET', url: path, originalUrl: path, baseUrl: '', path, headers: {}, query: {} };
  const once = () => new Promise<unknown>((done) => metadata(req, {}, done));
  const error = await once();
  if (error || !(req as { openapi?: unknown }).openapi) throw new Error(`lookup: GET ${path} was not matched (${String(error)})`);
  for (let i = 0; i < iterations / 10; i++) await once();
  // The best of five runs: a µs-scale figure is otherwise decided by whatever else the machine did.
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    for (let i = 0; i < iterations; i++) await once();
    best = Math.min(best, ((performance.now() - started) * 1000) / iterations);
  }
  return best;
}
