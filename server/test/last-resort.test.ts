import express, { type ErrorRequestHandler } from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { lastResort } from '../http/errors.js';
import { serveApp } from './support.js';

// The app's error handler is followed by lastResort (app.ts), so that an error handler that fails
// itself never lets Express answer with its own page, which names the error.

describe('the last resort after the error handler', () => {
  const servers: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('when the error handler throws, then the answer is a bare 500 in the API form, without the error', async () => {
    const broken: ErrorRequestHandler = () => {
      throw new Error('secret detail');
    };
    const app = express();
    app.get('/x', () => {
      throw new Error('first');
    });
    app.use(broken, lastResort);
    const served = await serveApp(app);
    servers.push(served);
    const answer = await fetch(`${served.base}/x`);
    expect(answer.status).toBe(500);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const text = await answer.text();
    expect(JSON.parse(text)).toEqual({ code: 'internal_error', error: 'Internal error.' });
    expect(text).not.toContain('secret');
  });
});
