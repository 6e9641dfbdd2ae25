// The webhooks guide's receiver (openapi/guides/webhooks.md), run as written (its import pointed at the client's source) against
// deliveries from the reference server: a real test delivery is verified, parsed into its typed event
// and acknowledged; the same delivery with its body tampered with, re-signed with a stale `t`, or
// signed with another secret is refused; a verified event of a type the document does not describe is
// acknowledged and ignored; the guide's signing program's delivery is accepted; and after the secret
// is rotated (the receiver keeps the old one) a real delivery verifies during the overlap, and fails
// once a second rotation has dropped the old secret.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createNetServer, connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/domain/clock.js';
import { startServer, type TestServer } from '../../server/test/support.js';
import { until } from './support/sandbox.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ADMIN = 'adm_webhook_receiver_test';

/** The `n`th ```ts block of the webhooks guide (the receiver, then the signing program), exactly as written. */
function guideBlock(n: number): string {
  const guide = readFileSync(join(ROOT, 'openapi', 'guides', 'webhooks.md'), 'utf8');
  const block = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)][n];
  if (!block) throw new Error(`openapi/guides/webhooks.md has no ${n + 1} \`\`\`ts blocks`);
  return block[1]!;
}
const atSource = (program: string) => program.replace("from '@credential-vault/client'", `from ${JSON.stringify(join(ROOT, 'client', 'index.ts'))}`);

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const sign = (secret: string, t: string, body: Buffer) => createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');

describe('the webhooks guide receiver', () => {
  let sandbox: TestServer;
  let folder: string;
  let receiver: ChildProcess;
  let output = '';
  let receiverUrl: string;
  let receiverPort: number;
  let hook: string;
  let secret: string;
  const fixture = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.base}/_fixtures${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  };
  const lastDelivery = (id: string) =>
    until(async () => {
      const { deliveries } = await fixture('GET', `${hook}/deliveries`);
      const found = deliveries.find((d: { deliveryId: string; status: string }) => d.deliveryId === id);
      return found && found.status !== 'pending' ? found : undefined;
    }, 30_000);

  beforeAll(async () => {
    // A manual clock at this machine's time: the receiver checks `t` against its own clock.
    sandbox = await startServer({ config: { adminToken: ADMIN, allowLoopbackWebhooks: true }, clock: new ManualClock(Date.now()) });
    const { accountId: account } = await fixture('POST', '/accounts', { plan: 'Plus' });
    const { cardId } = await fixture('POST', `/accounts/${account}/cards`, { number: '5555555555554444', anySite: true, agent: true });
    hook = `/accounts/${account}/cards/${cardId}/webhook`;
    secret = (await fixture('GET', hook)).signingSecret;

    folder = mkdtempSync(join(tmpdir(), 'vault-receiver-'));
    const file = join(folder, 'receiver.mts');
    writeFileSync(file, atSource(guideBlock(0)));
    const port = await freePort();
    receiverPort = port;
    receiverUrl = `http://127.0.0.1:${port}/`;
    receiver = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: { PATH: process.env.PATH, PORT: String(port), VAULT_WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'pipe'] });
    receiver.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    receiver.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await until(
      () =>
        new Promise<true | undefined>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
          socket.on('error', () => resolve(undefined));
        }),
      60_000,
    );
  }, 90_000);

  afterAll(async () => {
    receiver?.kill();
    await sandbox?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('when the sandbox sends a test delivery, then the receiver verifies it and acknowledges it with 204', async () => {
    await fixture('PUT', hook, { url: receiverUrl });
    const { deliveryId, eventId } = await fixture('POST', `${hook}/test`);
    const delivery = await lastDelivery(deliveryId);
    expect(delivery).toMatchObject({ eventId, status: 'delivered', attempts: [{ statusCode: 204, outcome: 'delivered' }] });
    expect(output).toContain(`event test for agent card ${hook.split('/')[4]}`);
  });

  it('when a real delivery is tampered with, re-signed with a stale t, or signed with another secret, then the receiver refuses it', async () => {
    // The delivery as the sandbox sends it, captured on the way.
    const captured = await new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const recorder = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          res.end();
          recorder.close();
          resolve({ headers: req.headers, body: Buffer.concat(chunks) });
        });
      });
      recorder.on('error', reject);
      recorder.listen(0, '127.0.0.1', async () => {
        await fixture('PUT', hook, { url: `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/` });
        await fixture('POST', `${hook}/test`);
      });
    });
    const header = String(captured.headers['vault-signature']);
    const [, t] = /^t=(\d+),v1=[0-9a-f]{64}$/.exec(header)!;
    const send = async (signature: string, body: Buffer) => {
      const res = await fetch(receiverUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'vault-signature': signature }, body: new Uint8Array(body) });
      return { status: res.status, text: await res.text() };
    };
    expect(await send(header, captured.body)).toEqual({ status: 204, text: '' });
    const tampered = Buffer.from(captured.body.toString().replace('"type":"test"', '"type":"tset"'));
    expect(await send(header, tampered)).toEqual({ status: 400, text: 'mismatch' });
    const stale = String(Number(t) - 3600);
    expect(await send(`t=${stale},v1=${sign(secret, stale, captured.body)}`, captured.body)).toEqual({ status: 400, text: 'stale' });
    expect(await send(`t=${t},v1=${sign('whsec_another_cards_secret', t!, captured.body)}`, captured.body)).toEqual({ status: 400, text: 'mismatch' });
    // Verified, but of a type the document does not describe: acknowledged, and not logged as an event.
    const unknown = Buffer.from(captured.body.toString().replace('"type":"test"', '"type":"card.paused"'));
    expect(await send(`t=${t},v1=${sign(secret, t!, unknown)}`, unknown)).toEqual({ status: 204, text: '' });
    expect(output).not.toContain('event card.paused');
  });

  it("when the guide's signing program sends a delivery, then the receiver verifies it as the service's", async () => {
    const program = join(folder, 'sign.mts');
    writeFileSync(program, atSource(guideBlock(1)));
    const signed = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', program], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, PORT: String(receiverPort), VAULT_WEBHOOK_SECRET: secret },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(signed).toEqual({ code: 0, stdout: 'the receiver answered 204\n', stderr: '' });
    await until(async () => (output.includes('event test for agent card card_local') ? true : undefined));
  });

  it('when the secret is rotated and the receiver still has the old one, then deliveries verify during the overlap, and are refused once a second rotation drops it', async () => {
    await fixture('PUT', hook, { url: receiverUrl });
    await fixture('POST', `${hook}/secret`);
    const during = await fixture('POST', `${hook}/test`);
    expect(await lastDelivery(during.deliveryId)).toMatchObject({ status: 'delivered' });
    // A rotation during the overlap drops the oldest secret at once: the receiver's is gone.
    await fixture('POST', `${hook}/secret`);
    const after = await fixture('POST', `${hook}/test`);
    expect(await lastDelivery(after.deliveryId)).toMatchObject({ status: 'failed', attempts: [{ statusCode: 400, outcome: 'refused' }] });
  });
});
