// The validator's route lookup alone (express-openapi-validator's metadata stage, which finds the
// documented operation of a request), timed in this process for the bundled document and for the
// same document with extra paths. Unlike req/s under load, this is little blurred by the machine's
// other work, so it shows plainly how the per-request cost grows with the number of paths.
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';

export type Stage = (req: unknown, res: unknown, next: (err?: unknown) => void) => unknown;

/**
 * The validator's metadata stage, as app.ts configures the validator: the stage that finds the
 * documented operation of a request (and the one the framework seam's route cache changes). Also used by the route tests.
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

/**
 * Microseconds per lookup of GET `path`, in each document. The documents take turns, five runs
 * each, and each keeps its best run: a µs-scale figure is otherwise decided by whatever else the
 * machine (or the JIT) did just then.
 */
export async function lookupMicros(docs: Record<string, unknown>[], path: string, iterations = 20_000): Promise<number[]> {
  const lookups = await Promise.all(docs.map((doc) => lookupOf(doc, path)));
  for (const once of lookups) for (let i = 0; i < iterations / 10; i++) await once();
  const best = docs.map(() => Number.POSITIVE_INFINITY);
  for (let run = 0; run < 5; run++) {
    for (const [d, once] of lookups.entries()) {
      const started = performance.now();
      for (let i = 0; i < iterations; i++) await once();
      best[d] = Math.min(best[d]!, ((performance.now() - started) * 1000) / iterations);
    }
  }
  return best;
}

async function lookupOf(doc: Record<string, unknown>, path: string): Promise<() => Promise<unknown>> {
  const metadata = metadataStage(doc);
  const req = { app: express(), method: 'GET', url: path, originalUrl: path, baseUrl: '', path, headers: {}, query: {} };
  const once = () => new Promise<unknown>((done) => metadata(req, {}, done));
  const error = await once();
  if (error || !(req as { openapi?: unknown }).openapi) throw new Error(`lookup: GET ${path} was not matched (${String(error)})`);
  return once;
}
