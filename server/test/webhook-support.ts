// What the webhook tests share: a sandbox (the reference server with its fixture surface, on
// 127.0.0.1, port 0), receivers on 127.0.0.1, and a resolver and a connector that record what would
// be looked up and dialled and dial nothing. Every server a test starts is stopped after it.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer as createHttp, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { openDb, type SqliteStore } from '../store/db.js';
import { ManualClock } from '../domain/clock.js';
import { createApp } from '../app.js';
import { createHttpServer, httpSettings } from '../http/server.js';
import type { WebhookTransport } from '../webhooks/sender.js';
import type { DialTarget } from '../webhooks/deliver.js';
import { contract } from './support.js';

const ADMIN = 'adm_webhook_tests';

/**
 * Stopped after the test, in the reverse order of registration. A hook of the test itself, not an
 * `afterEach` of this module: a worker imports the module once for all the files it runs.
 */
export function stopAfterTest(stop: () => Promise<void>): void {
  onTestFinished(stop);
}

export interface SandboxOptions {
  allowLoopback?: boolean;
  transport?: Partial<WebhookTransport>;
  /** An open database (a file two sandboxes share, one after the other); `:memory:` otherwise. The test closes it. */
  db?: SqliteStore;
  masterKey?: Buffer;
}

export async function sandbox(options: SandboxOptions = {}) {
  const db = options.db ?? openDb(':memory:');
  const logs: Record<string, unknown>[] = [];
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 10));
  const app = createApp({
    db,
    clock,
    masterKey: options.masterKey ?? randomBytes(32),
    contract: contract(),
    config: { adminToken: ADMIN, allowLoopbackWebhooks: options.allowLoopback ?? true },
    webhookTransport: options.transport,
    log: (l) => logs.push(l),
  });
  const server = createHttpServer(httpSettings(contract()), { log: (l) => logs.push(l) });
  server.serve(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let stopped = false;
  /** Stops the server; the database stays open when the test gave it. */
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.webhooks.idle();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    if (!options.db) db.close();
  };
  stopAfterTest(stop);
  const call = async (method: string, path: string, json?: unknown, key = ADMIN) => {
    const res = await fetch(`${base}${path.startsWith('/v1/') ? '' : '/_fixtures'}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const agentCard = async (plan: 'Free' | 'Plus' | 'Enterprise' = 'Plus') => {
    const account = (await call('POST', '/accounts', { plan })).body.accountId as string;
    const card = (await call('POST', `/accounts/${account}/cards`, { number: '5555555555554444', anySite: true, agent: true })).body.cardId as string;
    const hook = `/accounts/${account}/cards/${card}/webhook`;
    return { account, card, hook };
  };
  /** The card's deliveries once every attempt started so far is over. */
  const deliveries = async (hook: string) => {
    await app.webhooks.idle();
    return (await call('GET', `${hook}/deliveries`)).body.deliveries;
  };
  return { db, logs, clock, call, agentCard, deliveries, webhooks: app.webhooks, stop };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
  path: string;
}

/** A receiver on 127.0.0.1 that records every request and answers as told. */
export async function receiver(answer: (res: ServerResponse, req: IncomingMessage) => void = (res) => res.end('ok')) {
  const received: Received[] = [];
  let arrived: (() => void) | undefined;
  const server: Server = createHttp((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks), path: req.url ?? '' });
      arrived?.();
      answer(res, req);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  stopAfterTest(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  /** Resolves when the next request has arrived whole. */
  const next = () => new Promise<void>((r) => (arrived = r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, next };
}

/** A resolver and a connector that record what would be looked up and dialled, and dial nothing. */
export function recorder(answers: Record<string, string[]>) {
  const lookedUp: string[] = [];
  const dialled: DialTarget[] = [];
  const transport: Partial<WebhookTransport> = {
    resolve: async (host) => {
      lookedUp.push(host);
      const addresses = answers[host];
      if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
    connect: (target) => {
      dialled.push(target);
      const socket = new Socket();
      process.nextTick(() => socket.destroy(Object.assign(new Error('not dialled in tests'), { code: 'ETESTNODIAL' })));
      return socket;
    },
  };
  return { lookedUp, dialled, transport };
}

export const signed = (secret: string, t: string, body: Buffer) => createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');

/** The `t` and every `v1` signature of a `Vault-Signature` value, or undefined when it is not of the document's format. */
export function signatureParts(value: string | string[] | undefined): { t: string; signatures: string[] } | undefined {
  const match = /^t=(\d+)((?:,v1=[0-9a-f]{64})+)$/.exec(String(value));
  return match ? { t: match[1]!, signatures: match[2]!.split(',v1=').slice(1) } : undefined;
}
