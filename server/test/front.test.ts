import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { handleFirst } from '../http/front.js';
import { serveApp } from './support.js';

/**
 * handleFirst runs the documented operations ahead of Express's router. What a stage and a later
 * layer can rely on must be what the router gives them: Express's request and response methods,
 * `originalUrl` and `baseUrl`, errors handled by the app's error handler, and the router's layers
 * for whatever the first stage leaves.
 */

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(app: express.Express): Promise<string> {
  const served = await serveApp(app);
  servers.push(served);
  return served.base;
}

const errors: ErrorRequestHandler = (err: Error, _req, res, _next) => {
  res.status(418).json({ code: 'caught', error: err.message });
};

function appWith(first: RequestHandler, errorHandler: ErrorRequestHandler = errors) {
  const app = express();
  app.set('query parser', (q: string) => Object.fromEntries(new URLSearchParams(q)));
  app.get('/later', (req, res) => res.json({ layer: 'router', originalUrl: req.originalUrl, baseUrl: req.baseUrl, query: req.query }));
  app.use(errorHandler);
  handleFirst(app, first, errorHandler);
  return app;
}

describe('the stage run ahead of the router', () => {
  it('given a request it answers, then it has Express request and response methods, the app settings and the original URL', async () => {
    const app = appWith((req, res) => {
      res.status(200).json({ path: req.path, query: req.query, originalUrl: req.originalUrl, baseUrl: req.baseUrl, accept: req.get('accept'), app: req.app === app });
    });
    const answer = await fetch(`${await serve(app)}/first?a=1`, { headers: { accept: 'application/json' } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ path: '/first', query: { a: '1' }, originalUrl: '/first?a=1', baseUrl: '', accept: 'application/json', app: true });
  });

  it('given a stage that goes on (next() or next("router")), then the router serves the request', async () => {
    for (const leave of [undefined, 'router']) {
      const app = appWith((_req, _res, next) => next(leave));
      const answer = await fetch(`${await serve(app)}/later?b=2`);
      expect(await answer.json()).toEqual({ layer: 'router', originalUrl: '/later?b=2', baseUrl: '', query: { b: '2' } });
    }
  });

  it('given a stage that throws, passes an error or rejects, then the error handler answers', async () => {
    const stages: RequestHandler[] = [
      () => {
        throw new Error('thrown');
      },
      (_req, _res, next) => next(new Error('passed')),
      () => Promise.reject(new Error('rejected')),
    ];
    for (const [i, stage] of stages.entries()) {
      const answer = await fetch(`${await serve(appWith(stage))}/x`);
      expect(answer.status).toBe(418);
      expect(((await answer.json()) as { error: string }).error).toBe(['thrown', 'passed', 'rejected'][i]);
    }
  });

  it('given an error handler that fails itself, then the answer is a bare 500 in the API form, without the error', async () => {
    const broken: ErrorRequestHandler = () => {
      throw new Error('secret detail');
    };
    const app = appWith(() => {
      throw new Error('first');
    }, broken);
    const answer = await fetch(`${await serve(app)}/x`);
    expect(answer.status).toBe(500);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const text = await answer.text();
    expect(JSON.parse(text)).toEqual({ code: 'internal_error', error: 'Internal error.' });
    expect(text).not.toContain('secret');
  });

  it('given the app mounted in another app, then the outer router has set the request up and the stage still runs first', async () => {
    const inner = appWith((req, res, next) => (req.path === '/first' ? res.json({ baseUrl: req.baseUrl, originalUrl: req.originalUrl }) : next()));
    const outer = express();
    outer.use('/mounted', inner);
    const answer = await fetch(`${await serve(outer)}/mounted/first`);
    expect(await answer.json()).toEqual({ baseUrl: '/mounted', originalUrl: '/mounted/first' });
  });
});
