import { randomBytes } from 'node:crypto';
import { connect, type AddressInfo } from 'node:net';
import { createServer, type RequestListener } from 'node:http';
import { openDb, type SqliteStore } from '../store/db.js';
import { Sealer } from '../store/secrets.js';
import { ManualClock } from '../domain/clock.js';
import { createApp } from '../app.js';
import { loadContract, type Contract, type PlanName } from '../contract.js';
import type { ServerConfig } from '../config.js';
import { openAccount } from '../domain/accounts.js';
import { createKey, addKeyLogin } from '../store/keys.js';
import type { RecipeRegistry } from '../domain/recipes.js';
import { createHttpServer, httpSettings, type HttpServer } from '../http/server.js';
import { answerProblem } from './answers.js';

/** A response read whole: its JSON body (undefined when empty) and the raw text. */
export interface Answer {
  status: number;
  headers: Headers;
  // Tests read bodies of many shapes and assert on them directly.
  body: any;
  text: string;
}

export async function readAnswer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text), text };
}

let sharedContract: Contract | undefined;
/** The bundled document, loaded once per test file. */
export function contract(): Contract {
  return (sharedContract ??= loadContract());
}

export interface TestServer {
  base: string;
  db: SqliteStore;
  clock: ManualClock;
  sealer: Sealer;
  masterKey: Buffer;
  logs: Record<string, unknown>[];
  close(): Promise<void>;
  /** fetch relative to the server, with a Bearer key when given; an answer the document does not describe throws. */
  call(path: string, init?: RequestInit & { key?: string; json?: unknown }): Promise<Response>;
}

/** A reference server on 127.0.0.1, port 0, over an in-memory database and a manual clock. */
export async function startServer(
  options: { config?: Partial<ServerConfig>; db?: SqliteStore; clock?: ManualClock; recipes?: RecipeRegistry; contract?: Contract } = {},
): Promise<TestServer> {
  const db = options.db ?? openDb(':memory:');
  const clock = options.clock ?? new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 0));
  const masterKey = randomBytes(32);
  const logs: Record<string, unknown>[] = [];
  const log = (l: Record<string, unknown>) => logs.push(l);
  const app = createApp({ db, clock, masterKey, contract: options.contract ?? contract(), config: options.config, recipes: options.recipes, log });
  // The server main.ts runs: the document's timeouts and header cap, JSON answers of the HTTP layer.
  const server: HttpServer = createHttpServer(httpSettings(contract(), options.config?.limitOverrides), { log });
  server.serve(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    db,
    clock,
    sealer: new Sealer(masterKey),
    masterKey,
    logs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    async call(path, init = {}) {
      const { key, json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
      let body = rest.body;
      if (json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(json);
      }
      const res = await fetch(`${base}${path}`, { ...rest, headers, body });
      const problem = answerProblem(contract(), options.config?.adminToken !== undefined, rest.method ?? 'GET', path, res.status, await res.clone().text());
      if (problem) throw new Error(`${rest.method ?? 'GET'} ${path}: ${problem}`);
      return res;
    },
  };
}

/** An account on a plan with one key; options for signup permission and a scoped login list. */
export async function givenAccount(
  t: Pick<TestServer, 'db' | 'clock'>,
  options: { plan?: PlanName; signup?: boolean; scopedTo?: string[] } = {},
): Promise<{ accountId: string; keyId: string; key: string; addKey(o?: { signup?: boolean; scopedTo?: string[] }): Promise<{ keyId: string; key: string }> }> {
  const account = await openAccount(t.db, { plan: options.plan ?? 'Free', name: 'Test account', now: t.clock.now() });
  const addKey = async (o: { signup?: boolean; scopedTo?: string[] } = {}) => {
    const { row, secret } = await createKey(t.db, {
      accountId: account.id,
      name: 'test key',
      signupEnabled: o.signup ?? false,
      scoped: o.scopedTo !== undefined,
      now: t.clock.now(),
    });
    for (const loginId of o.scopedTo ?? []) await addKeyLogin(t.db, row.id, loginId);
    return { keyId: row.id, key: secret };
  };
  const first = await addKey(options);
  return { accountId: account.id, ...first, addKey };
}

/** Any request listener (a bare Express app, say) on 127.0.0.1, port 0: its base URL and how to stop it. */
export async function serveApp(listener: RequestListener): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Every byte of the answer to one request sent on a new connection (`head` without its Host, which
 * is added, then `body`), but the values of Date and X-Request-Id, which are each answer's own.
 */
export function rawAnswer(base: string, head: string, body = ''): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${head}\r\nHost: vault.test\r\nConnection: close\r\n\r\n${body}`));
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received.replace(/^Date: .*\r\n/m, 'Date: -\r\n').replace(/^X-Request-Id: .*\r\n/m, 'X-Request-Id: -\r\n')));
  });
}
