import { createRequire } from 'node:module';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEAM_PARTS, SEAM_VARIABLE, seamParts } from '../http/framework/seam.js';
import { splitStages, STAGE_NAMES } from '../http/framework/stages.js';
import { metadataStage } from '../../scripts/bench/lookup.js';
import { contract } from './support.js';

/**
 * What the framework seam (http/framework/, docs/server.md "The framework seam") relies on in
 * Express and express-openapi-validator beyond their public API. Each case fails naming what
 * changed, so that after an upgrade the seam is the one file to look at.
 */

const validatorOf = (validateResponses: boolean) =>
  OpenApiValidator.middleware({
    apiSpec: structuredClone(contract().doc) as never,
    validateRequests: true,
    validateResponses,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
  }) as unknown as RequestHandler[];

describe('the switch', () => {
  it('when VAULT_FRAMEWORK_SEAM is unset, on, off or off:<parts>, then those parts are on; anything else is refused, naming the parts', () => {
    expect([...seamParts(undefined)]).toEqual([...SEAM_PARTS]);
    expect([...seamParts('on')]).toEqual([...SEAM_PARTS]);
    expect([...seamParts('off')]).toEqual([]);
    expect([...seamParts('off:warm,route-cache')]).toEqual(['message-classes']);
    expect(() => seamParts('off:front')).toThrow(`${SEAM_VARIABLE}: unknown part "front" (known: message-classes, route-cache, warm)`);
    expect(() => seamParts('no')).toThrow(`${SEAM_VARIABLE} must be "on", "off" or "off:<part>,...", got "no"`);
  });
});

describe('express-openapi-validator', () => {
  it('when its middleware is made, then each stage the pipeline runs has the name the seam picks it by', () => {
    const names = validatorOf(true).map((mw) => mw.name);
    for (const [stage, name] of Object.entries(STAGE_NAMES)) {
      expect(names, `express-openapi-validator no longer names its ${stage} stage "${name}"; http/framework/stages.ts picks it by that name`).toContain(name);
    }
    expect(names.indexOf(STAGE_NAMES.init), `express-openapi-validator's "${STAGE_NAMES.init}" is no longer its first stage`).toBe(0);
  });

  it('when a stage is no longer found by its name, then building the stages fails with a message naming it', () => {
    const renamed = validatorOf(false).map((mw) => (mw.name === STAGE_NAMES.requests ? Object.defineProperty(mw, 'name', { value: 'validateRequest' }) : mw));
    expect(() => splitStages(renamed, ['init', 'metadata', 'requests'])).toThrow(
      /^express-openapi-validator no longer names the request validator middleware "requestMiddleware" \(its middleware: pathParamsMiddleware, metadataMiddleware, .*validateRequest.*\); see docs\/server\.md/,
    );
  });

  it("when its response stage has run on a response, then that response's json is the stage's own (warming compiles through it)", async () => {
    const stages = splitStages(validatorOf(true), ['init', 'metadata', 'requests', 'responses']);
    const app = express();
    const req = { app, method: 'GET', url: '/v1/tokens', originalUrl: '/v1/tokens', baseUrl: '', path: '/v1/tokens', query: {}, params: {}, headers: {} };
    const own = () => undefined;
    const res = { json: own };
    for (const stage of [...stages.init, ...stages.metadata, ...stages.responses]) {
      const error = await new Promise((done) => stage(req as never, res as never, done));
      expect(error).toBeUndefined();
    }
    expect(res.json, "express-openapi-validator's response stage no longer wraps res.json; http/framework/warm.ts compiles the response validators through it").not.toBe(own);
  });

  it('when the route cache is on, then a route is compiled once, not on every lookup; off, as shipped, on every lookup', async () => {
    const pathToRegexp = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'))('path-to-regexp') as { pathToRegexp: (...a: unknown[]) => unknown };
    const compiles: Record<string, number> = {};
    for (const value of ['on', 'off:route-cache']) {
      vi.stubEnv(SEAM_VARIABLE, value);
      const lookup = metadataStage(contract().doc as never);
      const req = () => ({ app: express(), method: 'GET', url: '/v1/tokens', originalUrl: '/v1/tokens', baseUrl: '', path: '/v1/tokens', headers: {}, query: {} });
      await new Promise((done) => lookup(req(), {}, done));
      const spy = vi.spyOn(pathToRegexp, 'pathToRegexp');
      for (let i = 0; i < 3; i++) await new Promise((done) => lookup(req(), {}, done));
      compiles[value] = spy.mock.calls.length;
      spy.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(compiles.on, 'the route cache of patches/express-openapi-validator+5.6.2.patch is not in the installed library (npm ci applies it)').toBe(0);
    expect(compiles['off:route-cache']).toBeGreaterThanOrEqual(3);
  });
});

describe('Node', () => {
  it("when IncomingMessage and ServerResponse are called on a new object, then they set it up (the message classes call them as a subclass's constructor would)", () => {
    const socket = new Socket();
    const req = Object.create(IncomingMessage.prototype) as IncomingMessage;
    const res = Object.create(ServerResponse.prototype) as ServerResponse;
    const callable = (construct: () => void) => {
      try {
        construct();
        return true;
      } catch {
        return false;
      }
    };
    const message = "node:http's constructors are no longer callable on a new object; http/framework/message-classes.ts calls them so";
    expect(callable(() => (IncomingMessage as unknown as (this: unknown, s: Socket) => void).call(req, socket)), message).toBe(true);
    expect(callable(() => (ServerResponse as unknown as (this: unknown, r: IncomingMessage) => void).call(res, req)), message).toBe(true);
    expect([req.headers, res.statusCode]).toEqual([{}, 200]);
    socket.destroy();
  });
});

describe('Express', () => {
  const servers: ReturnType<typeof createServer>[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
  });

  it("when an app handles a plain request, then it gives the request and response the app's own prototypes, which the HTTP server's message classes are born with", async () => {
    const app = express();
    let seen: [boolean, boolean] | undefined;
    app.get('/', (req, res) => {
      seen = [Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response];
      res.end();
    });
    const server = createServer(app as (req: IncomingMessage, res: ServerResponse) => void);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)).arrayBuffer();
    expect(seen, "Express no longer gives a request app.request and a response app.response as prototypes; http/framework/message-classes.ts makes them born with those").toEqual([true, true]);
  });
});
