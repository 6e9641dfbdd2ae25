// npx tsx scripts/webhook-figures.ts [--deliveries 50]
//
// Two figures of the reference server's webhooks (section 6), on this machine only:
// - how long a test delivery takes from the back-office call (sendTestWebhook) to its arrival at a
//   receiver on 127.0.0.1, beside a baseline measured in the same run: the same receiver sent the
//   same body directly with node:http;
// - the address rules: each endpoint tried, the answer when it is set, and (for names) the
//   outcome of a delivery when the name resolves to each address. Names resolve through a
//   recording resolver and connect through a recording connector that dials nothing, so no
//   connection leaves this machine.
// Needs "npm run bundle" first. Every server it starts is stopped.
import { randomBytes } from 'node:crypto';
import { createServer, request } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { openDb } from '../server/store/db.js';
import { ManualClock } from '../server/domain/clock.js';
import { createApp } from '../server/app.js';
import { createHttpServer, httpSettings } from '../server/http/server.js';
import { loadContract } from '../server/contract.js';
import type { WebhookTransport } from '../server/webhooks/sender.js';

const { values } = parseArgs({ options: { deliveries: { type: 'string', default: '50' } } });
const N = Number(values.deliveries);
const ADMIN = 'adm_figures';
const contract = loadContract();

async function sandbox(allowLoopback: boolean, transport?: Partial<WebhookTransport>) {
  const db = openDb(':memory:');
  const app = createApp({ db, clock: new ManualClock(Date.now()), masterKey: randomBytes(32), contract, config: { adminToken: ADMIN, allowLoopbackWebhooks: allowLoopback }, webhookTransport: transport, log: () => {} });
  const server = createHttpServer(httpSettings(contract), { log: () => {} });
  server.serve(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_fixtures`;
  const call = async (method: string, path: string, json?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${ADMIN}`, ...(json ? { 'content-type': 'application/json' } : {}) }, body: json ? JSON.stringify(json) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const { accountId } = (await call('POST', '/accounts', { plan: 'Plus' })).body;
  const { cardId } = (await call('POST', `/accounts/${accountId}/cards`, { number: '5555555555554444', anySite: true, agent: true })).body;
  const hook = `/accounts/${accountId}/cards/${cardId}/webhook`;
  const stop = async () => {
    await app.webhooks.idle();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await db.close();
  };
  return { call, hook, webhooks: app.webhooks, stop };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

async function latency(): Promise<void> {
  let arrived: (() => void) | undefined;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived?.();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as AddressInfo).port;
  const s = await sandbox(true);
  await s.call('PUT', s.hook, { url: `http://127.0.0.1:${port}/` });
  const body = Buffer.from(JSON.stringify({ id: 'evt_x', type: 'test', created_at: new Date().toISOString(), agent_card_id: 'card_x' }));
  const viaSandbox: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < N; i++) {
    // Interleaved, so that load on the machine touches both alike.
    let started = performance.now();
    let landed = new Promise<void>((r) => (arrived = r));
    await s.call('POST', `${s.hook}/test`);
    await landed;
    viaSandbox.push(performance.now() - started);
    await s.webhooks.idle();
    started = performance.now();
    landed = new Promise<void>((r) => (arrived = r));
    request({ host: '127.0.0.1', port, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => res.resume()).end(body);
    await landed;
    direct.push(performance.now() - started);
  }
  const { deliveries } = (await s.call('GET', `${s.hook}/deliveries`)).body;
  const delivered = deliveries.filter((d: { status: string }) => d.status === 'delivered').length;
  console.log(`test delivery, back-office call to arrival, ${N} deliveries (${delivered} of the newest ${deliveries.length} listed delivered):`);
  console.log(`  via the sandbox: median ${median(viaSandbox).toFixed(1)} ms, p90 ${p90(viaSandbox).toFixed(1)} ms`);
  console.log(`  baseline, the same POST sent directly: median ${median(direct).toFixed(1)} ms, p90 ${p90(direct).toFixed(1)} ms`);
  console.log(`  ratio of the medians: ${(median(viaSandbox) / median(direct)).toFixed(1)}x`);
  await s.stop();
  receiver.closeAllConnections();
  await new Promise<void>((r) => receiver.close(() => r()));
}

async function addressRules(): Promise<void> {
  const dialled: string[] = [];
  const answers: Record<string, string[]> = {
    'private.example.com': ['10.0.0.5'],
    'metadata.example.com': ['169.254.169.254'],
    'loopback.example.com': ['127.0.0.1'],
    'v6loopback.example.com': ['::1'],
    'mapped.example.com': ['::ffff:192.168.1.1'],
    'mixed.example.com': ['93.184.216.34', '10.1.1.1'],
    'cgnat.example.com': ['100.64.0.1'],
    'public.example.com': ['93.184.216.34'],
  };
  const transport: Partial<WebhookTransport> = {
    resolve: async (host) => (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    connect: (target) => {
      dialled.push(`${target.address}:${target.port}`);
      const socket = new Socket();
      process.nextTick(() => socket.destroy(Object.assign(new Error('not dialled'), { code: 'NOT_DIALLED' })));
      return socket;
    },
  };
  const s = await sandbox(false, transport);
  console.log('\nendpoints set (VAULT_WEBHOOKS_ALLOW_LOOPBACK=0): the answer of setCardWebhook');
  for (const url of ['https://10.0.0.5/', 'https://172.16.0.1/', 'https://192.168.1.1/', 'https://127.0.0.1/', 'https://169.254.169.254/', 'https://[::1]/', 'https://[fd00::1]/', 'https://[fe80::1]/', 'https://[::ffff:10.0.0.5]/', 'https://0.0.0.0/', 'https://localhost/', 'http://hooks.example.com/', 'https://93.184.216.34/']) {
    const answer = await s.call('PUT', s.hook, { url });
    console.log(`  ${url.padEnd(30)} ${answer.status} ${answer.body.code ?? ''} ${answer.body.error ?? answer.body.url}`);
  }
  console.log('\nnames resolved at delivery time: the outcome of sendTestWebhook');
  for (const host of Object.keys(answers)) {
    await s.call('PUT', s.hook, { url: `https://${host}/hook` });
    await s.call('POST', `${s.hook}/test`);
    await s.webhooks.idle();
    const [d] = (await s.call('GET', `${s.hook}/deliveries`)).body.deliveries;
    console.log(`  ${host.padEnd(24)} -> ${answers[host]!.join(', ').padEnd(28)} ${d.attempts[0].outcome}: ${d.attempts[0].detail}`);
  }
  console.log(`\naddresses handed to the connector: ${dialled.length === 0 ? 'none' : dialled.join(', ')} (the connector dials nothing)`);
  await s.stop();
}

await latency();
await addressRules();
