import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { Socket, type AddressInfo } from 'node:net';
import { createServer, IncomingMessage, ServerResponse, type RequestListener, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import express from 'express';
import { messageClasses } from '../http/framework/message-classes.js';
import { createHttpServer, httpSettings } from '../http/server.js';
import { createApp } from '../app.js';
import { openDb } from '../store/db.js';
import { ManualClock } from '../domain/clock.js';
import { RecipeRegistry } from '../domain/recipes.js';
import { loadRelease } from '../domain/registry.js';
import { contract, givenAccount, rawAnswer } from './support.js';

/**
 * The HTTP server makes its requests and responses with the prototypes of the app it serves
 * (http/framework/message-classes.ts), so that Express, which gives every request and response those
 * prototypes as it starts on them, has nothing left to change. Only the cost may differ: these
 * cases hold a born request to what Express makes of a plain one, up to the bytes of the answer.
 */

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What an app's listener sees of each request before Express runs: the prototypes it was made with. */
function watched(app: express.Express): { listener: RequestListener & { request: object; response: object }; born: boolean[][] } {
  const born: boolean[][] = [];
  const listener = Object.assign(
    (req: IncomingMessage, res: ServerResponse) => {
      born.push([Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response]);
      app(req, res);
    },
    { request: app.request, response: app.response },
  );
  return { listener, born };
}

function helloApp(): express.Express {
  const app = express();
  app.get('/hello', (req, res) => {
    res.json({ path: req.path, query: req.query, accept: req.get('accept') ?? null });
  });
  return app;
}

describe('the HTTP server and the app it serves', () => {
  it('when an app is served, then each request and response is made with its prototypes, and Express answers as ever', async () => {
    const app = helloApp();
    const { listener, born } = watched(app);
    const server = createHttpServer(httpSettings(contract()));
    server.serve(listener);
    const base = await listen(server);
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${base}/hello?n=${i}`, { headers: { accept: 'application/json' } });
      expect(await answer.json()).toEqual({ path: '/hello', query: { n: String(i) }, accept: 'application/json' });
    }
    expect(born).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
  });

  it('when a request arrives before the app is served, then it is made plain and answered once the app is served', async () => {
    const app = helloApp();
    const { listener, born } = watched(app);
    const server = createHttpServer(httpSettings(contract()));
    const base = await listen(server);
    const arrived = once(server, 'request');
    const early = fetch(`${base}/hello?early=1`);
    await arrived;
    server.serve(listener);
    expect(await (await early).json()).toEqual({ path: '/hello', query: { early: '1' }, accept: '*/*' });
    expect((await fetch(`${base}/hello`)).status).toBe(200);
    expect(born).toEqual([
      [false, false],
      [true, true],
    ]);
  });

  it('when the listener has no prototypes, or ones that are not a request and a response, then requests are made plain', async () => {
    const protos: [object, object][] = [];
    const record: RequestListener = (req, res) => {
      protos.push([Object.getPrototypeOf(req), Object.getPrototypeOf(res)]);
      res.end('ok');
    };
    for (const listener of [record, Object.assign((req: IncomingMessage, res: ServerResponse) => record(req, res), { request: {}, response: [] })]) {
      const server = createHttpServer(httpSettings(contract()));
      server.serve(listener);
      expect(await (await fetch(`${await listen(server)}/`)).text()).toBe('ok');
    }
    expect(protos).toEqual([
      [IncomingMessage.prototype, ServerResponse.prototype],
      [IncomingMessage.prototype, ServerResponse.prototype],
    ]);
  });

  it("when the classes make a request and a response, then Node's own constructors made them (they are callable on a new object)", () => {
    const classes = messageClasses();
    const app = express();
    classes.adopt(app);
    const socket = new Socket();
    const req = new classes.IncomingMessage(socket);
    const res = new classes.ServerResponse(req);
    expect(Object.getPrototypeOf(req)).toBe(app.request);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    expect(req).toBeInstanceOf(IncomingMessage);
    expect(res).toBeInstanceOf(ServerResponse);
    expect(req.headers).toEqual({});
    expect(res.statusCode).toBe(200);
    socket.destroy();
  });
});

describe('the reference app on born requests and on plain ones', () => {
  it('when the same requests reach two reference apps on one database, one served by the HTTP server and one by a plain node:http server, then the same bytes', async () => {
    const db = openDb(':memory:');
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 0));
    const recipes = new RecipeRegistry({ db, clock, contract: contract(), log: () => {} }, loadRelease(contract()));
    const masterKey = randomBytes(32);
    const app = () => createApp({ db, clock, masterKey, contract: contract(), recipes, log: () => {} });
    const born = createHttpServer(httpSettings(contract()));
    const bornApp = app();
    born.serve(bornApp);
    const plainApp = app();
    const bases = [await listen(born), await listen(createServer(plainApp))];
    await Promise.all([bornApp.ready(), plainApp.ready()]);
    const a = await givenAccount({ db, clock }, { plan: 'Plus', signup: true });
    // Refused filings: a filing that succeeds makes a request id of its own, which the two answers would not share.
    const filing = JSON.stringify({ website: 'not a domain', email: 'jane@example.com' });
    const requests: [head: string, body?: string][] = [
      [`GET /v1/tokens HTTP/1.1\r\nAuthorization: Bearer ${a.key}`],
      [`GET /v1/tokens?url=https%3A%2F%2Fwww.acme.co.uk%2Fcheckout HTTP/1.1\r\nAuthorization: Bearer ${a.key}`],
      [`HEAD /v1/tokens HTTP/1.1\r\nAuthorization: Bearer ${a.key}`],
      [`GET /v1/tokens HTTP/1.1\r\nIf-None-Match: *\r\nAuthorization: Bearer ${a.key}`],
      ['GET /v1/tokens HTTP/1.1'],
      ['GET /v1/tokens HTTP/1.1\r\nAuthorization: Bearer unknown-key'],
      ['GET /v1/recipes HTTP/1.1'],
      ['GET /v1/recipes?url=https%3A%2F%2Fshop.example%2Fcheckout HTTP/1.1'],
      ['GET /v1/recipes?full=2 HTTP/1.1'],
      ['DELETE /v1/recipes HTTP/1.1'],
      ['GET /v1/nothing-here HTTP/1.1'],
      ['POST /v1/logins HTTP/1.1\r\nContent-Length: 0'],
      [`POST /v1/logins/requests HTTP/1.1\r\nAuthorization: Bearer ${a.key}\r\nContent-Type: application/json\r\nContent-Length: ${filing.length}`, filing],
      [`POST /v1/logins/requests HTTP/1.1\r\nAuthorization: Bearer ${a.key}\r\nContent-Type: application/json\r\nContent-Length: 9`, '{"website'],
    ];
    for (const [head, body] of requests) {
      const [fromBorn, fromPlain] = [await rawAnswer(bases[0]!, head, body), await rawAnswer(bases[1]!, head, body)];
      expect(fromBorn).toMatch(/^HTTP\/1\.1 \d{3} /);
      expect(fromBorn).toBe(fromPlain);
    }
  });
});
