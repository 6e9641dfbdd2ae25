import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import { SEAM_VARIABLE } from '../http/framework/seam.js';
import { withExtraPaths } from '../../scripts/bench/extra-paths.js';
import { metadataStage } from '../../scripts/bench/lookup.js';

// patches/express-openapi-validator+5.6.2.patch keeps each documented route compiled (the framework
// seam's route cache). These cases pin down that the validator finds the same route, with the same
// parameters, with the cache and without it (the library as shipped): static segments before
// parameters, case-insensitive, decoded parameters.

const operation = (id: string) => ({
  get: { operationId: id, responses: { '200': { description: 'OK' } } },
});

const base = {
  openapi: '3.1.0',
  info: { title: 'routes', version: '1' },
  paths: {
    '/things/{id}': { get: { ...operation('thing').get, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } },
    '/things/special': operation('special'),
    '/things/{id}/parts': { get: { ...operation('parts').get, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } },
    '/{section}/special': { get: { ...operation('sectionSpecial').get, parameters: [{ name: 'section', in: 'path', required: true, schema: { type: 'string' } }] } },
    '/': operation('root'),
  },
};

function matcher(doc: Record<string, unknown>) {
  const metadata = metadataStage(doc);
  const app = express();
  return async (path: string) => {
    const req: Record<string, unknown> = { app, method: 'GET', url: path, originalUrl: path, baseUrl: '', path, headers: {}, query: {} };
    const error = await new Promise<unknown>((done) => metadata(req, {}, done));
    if (error) throw error;
    const found = req.openapi as { openApiRoute: string; pathParams: Record<string, string> } | undefined;
    return found ? { route: found.openApiRoute, params: found.pathParams } : null;
  };
}

const cases: [string, { route: string; params: Record<string, string> } | null][] = [
  ['/things/special', { route: '/things/special', params: {} }],
  ['/THINGS/Special', { route: '/things/special', params: {} }],
  ['/things/42', { route: '/things/{id}', params: { id: '42' } }],
  ['/things/a%20b', { route: '/things/{id}', params: { id: 'a b' } }],
  ['/things/42/parts', { route: '/things/{id}/parts', params: { id: '42' } }],
  ['/other/special', { route: '/{section}/special', params: { section: 'other' } }],
  ['/', { route: '/', params: {} }],
  ['/nothing/documented/here', null],
];

describe('the validator route lookup', () => {
  for (const seam of ['on', 'off:route-cache']) {
    for (const [name, doc] of [
      ['the document alone', base],
      ['with 200 more paths', withExtraPaths(base, 200)],
    ] as const) {
      it(`when paths are looked up twice in ${name}, ${SEAM_VARIABLE}=${seam}, then each finds the route and parameters of an ordered scan`, async () => {
        vi.stubEnv(SEAM_VARIABLE, seam);
        try {
          const find = matcher(doc);
          for (let i = 0; i < 2; i++) for (const [path, expected] of cases) expect(await find(path), path).toEqual(expected);
        } finally {
          vi.unstubAllEnvs();
        }
      });
    }
  }
});
