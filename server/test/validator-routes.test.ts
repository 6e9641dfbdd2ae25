import express from 'express';
import { describe, expect, it } from 'vitest';
import { withExtraPaths } from '../../scripts/bench/extra-paths.js';
import { metadataStage } from '../../scripts/bench/lookup.js';

// patches/express-openapi-validator+5.6.2.patch changes how the validator finds the documented
// route of a request (compiled once, static paths directly, parameterised ones by literal prefix).
// These cases pin down that it finds the same route, with the same parameters, as the library's
// own ordered scan: static segments before parameters, case-insensitive, decoded parameters.

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
  for (const [name, doc] of [
    ['the document alone', base],
    ['with 200 more paths', withExtraPaths(base, 200)],
  ] as const) {
    it(`when paths are looked up in ${name}, then each finds the route and parameters of an ordered scan`, async () => {
      const find = matcher(doc);
      for (const [path, expected] of cases) expect(await find(path), path).toEqual(expected);
    });
  }
});
