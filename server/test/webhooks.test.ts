// Webhooks (section 6) through the fixture surface: endpoints, signing secrets, test deliveries and
// the delivery list. Every delivery here goes to a receiver on 127.0.0.1; private and public
// addresses appear only as data, handed out by a recording resolver to a recording connector that
// never opens a socket. Deliveries over HTTPS, with a test CA made by openssl, are in
// webhooks.e2e.test.ts.
import { createServer as createNet, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { DialTarget } from '../webhooks/deliver.js';
import { receiver, recorder, sandbox, signed, stopAfterTest } from './webhook-support.js';

describe('sendTestWebhook', () => {
  it('when a test is sent to a receiver on this machine, then it arrives signed with the card secret over t, a period and the raw body', async () => {
    const s = await sandbox();
    const r = await receiver();
    const { card, hook } = await s.agentCard();
    expect((await s.call('PUT', hook, { url: `${r.url}/hooks` })).status).toBe(200);
    const { signingSecret } = (await s.call('GET', hook)).body;
    const started = await s.call('POST', `${hook}/test`);
    expect(started.status).toBe(202);
    const [delivery] = await s.deliveries(hook);
    expect(delivery).toMatchObject({ deliveryId: started.body.deliveryId, eventId: started.body.eventId, type: 'test', status: 'delivered' });
    expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, outcome: 'delivered' })]);

    expect(r.received).toHaveLength(1);
    const { headers, body, path } = r.received[0]!;
    expect(path).toBe('/hooks');
    expect(headers['content-type']).toBe('application/json');
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['vault-signature']));
    expect(match).not.toBeNull();
    expect(match![2]).toBe(signed(signingSecret, match![1]!, body));
    expect(JSON.parse(body.toString())).toEqual({ id: started.body.eventId, type: 'test', created_at: '2026-11-27T10:00:00.000Z', agent_card_id: card });
  });

  it('when the card has no endpoint, then 409 webhook_not_set and nothing is sent', async () => {
    const s = await sandbox();
    const { hook } = await s.agentCard();
    expect(await s.call('POST', `${hook}/test`)).toMatchObject({ status: 409, body: { code: 'webhook_not_set' } });
    expect(await s.deliveries(hook)).toEqual([]);
  });

  it('when the endpoint answers a redirect, then the delivery failed as redirected and the redirect is not followed', async () => {
    const s = await sandbox();
    const r = await receiver((res, req) => {
      if (req.url === '/moved') res.writeHead(302, { location: '/elsewhere' }).end();
      else res.end('ok');
    });
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: `${r.url}/moved` });
    await s.call('POST', `${hook}/test`);
    const [delivery] = await s.deliveries(hook);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ statusCode: 302, outcome: 'redirected' }] });
    expect(r.received.map((x) => x.path)).toEqual(['/moved']);
  });

  it('when the endpoint answers 500, then the delivery failed as refused, with one attempt: a failed delivery is not retried', async () => {
    const s = await sandbox();
    const r = await receiver((res) => res.writeHead(500).end('no'));
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    await s.call('POST', `${hook}/test`);
    const [delivery] = await s.deliveries(hook);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ statusCode: 500, outcome: 'refused' }] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await s.deliveries(hook))[0].attempts).toHaveLength(1);
    expect(r.received).toHaveLength(1);
  });

  it('when the endpoint sends nothing, then the attempt times out on the no-data bound (shortened here)', async () => {
    const s = await sandbox({ transport: { noDataTimeoutMs: 150, totalTimeoutMs: 5000 } });
    const r = await receiver(() => {});
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    await s.call('POST', `${hook}/test`);
    const [delivery] = await s.deliveries(hook);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ statusCode: null, outcome: 'timed_out' }] });
    expect(delivery.attempts[0].detail).toMatch(/^Nothing from the endpoint for /);
  });

  it('when the endpoint keeps sending but never finishes its head, then the attempt times out on the total bound (shortened here)', async () => {
    const s = await sandbox({ transport: { noDataTimeoutMs: 400, totalTimeoutMs: 600 } });
    const server = createNet((socket) => {
      socket.on('error', () => {});
      socket.write('HTTP/1.1 200 OK\r\n');
      const drip = setInterval(() => socket.write('X-Drip: 1\r\n'), 50);
      socket.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    stopAfterTest(() => new Promise<void>((r) => server.close(() => r())));
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
    await s.call('POST', `${hook}/test`);
    const [delivery] = await s.deliveries(hook);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ statusCode: null, outcome: 'timed_out' }] });
    expect(delivery.attempts[0].detail).toMatch(/^No answer within /);
  });

  it('when a 2xx comes with an endless body, then it is delivered and the sender closes the connection after the cap', async () => {
    const s = await sandbox();
    let closed!: () => void;
    const sawClose = new Promise<void>((r) => (closed = r));
    const r = await receiver((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(1024, 'x');
      const more = setInterval(() => res.write(chunk), 5);
      res.on('close', () => {
        clearInterval(more);
        closed();
      });
    });
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    await s.call('POST', `${hook}/test`);
    expect((await s.deliveries(hook))[0]).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 200, outcome: 'delivered' }] });
    await sawClose;
  });

  it('when the account is on Free, then 403 webhooks_not_in_plan', async () => {
    const s = await sandbox();
    const { hook } = await s.agentCard('Free');
    expect(await s.call('POST', `${hook}/test`)).toMatchObject({ status: 403, body: { code: 'webhooks_not_in_plan' } });
  });
});

describe('setCardWebhook', () => {
  it('when the account is on Free, then 403 webhooks_not_in_plan and no endpoint is saved', async () => {
    const s = await sandbox();
    const { hook } = await s.agentCard('Free');
    expect(await s.call('PUT', hook, { url: 'https://hooks.example.com/vault' })).toMatchObject({ status: 403, body: { code: 'webhooks_not_in_plan' } });
    expect((await s.call('GET', hook)).body.url).toBeNull();
  });

  it('when the card is not an agent card, then 404 not_found', async () => {
    const s = await sandbox();
    const account = (await s.call('POST', '/accounts', { plan: 'Plus' })).body.accountId;
    const card = (await s.call('POST', `/accounts/${account}/cards`, { number: '4111111111111111', anySite: true })).body.cardId;
    expect(await s.call('PUT', `/accounts/${account}/cards/${card}/webhook`, { url: 'https://hooks.example.com/' })).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });

  it('when the body is malformed, then 400 bad_request', async () => {
    const s = await sandbox();
    const { hook } = await s.agentCard();
    for (const body of [{}, { url: 5 }, { url: 'https://hooks.example.com/', extra: 1 }]) {
      expect(await s.call('PUT', hook, body)).toMatchObject({ status: 400, body: { code: 'bad_request' } });
    }
  });

  it('when the URL is not public HTTPS, then 400 bad_request says why, and no lookup or connection is made', async () => {
    const rec = recorder({});
    const s = await sandbox({ allowLoopback: false, transport: rec.transport });
    const { hook } = await s.agentCard();
    const refused = [
      'http://hooks.example.com/',
      'https://10.0.0.5/',
      'https://172.16.3.4/',
      'https://192.168.1.10/',
      'https://127.0.0.1:8443/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/',
      'https://[fd00::5]/',
      'https://[fe80::1]/',
      'https://[::ffff:10.0.0.5]/',
      'https://0.0.0.0/',
      'https://localhost/',
      'https://api.localhost/',
      'https://intranet/',
      'https://user:pw@hooks.example.com/',
      'https://hooks.example.com/#frag',
      'ftp://hooks.example.com/',
      'not a url',
      'http://127.0.0.1:4242/',
    ];
    for (const url of refused) {
      const answer = await s.call('PUT', hook, { url });
      expect(answer, url).toMatchObject({ status: 400, body: { code: 'bad_request' } });
    }
    expect((await s.call('GET', hook)).body.url).toBeNull();
    expect(rec.lookedUp).toEqual([]);
    expect(rec.dialled).toEqual([]);
    expect(await s.call('PUT', hook, { url: 'https://hooks.example.com/vault?x=1' })).toMatchObject({ status: 200, body: { url: 'https://hooks.example.com/vault?x=1' } });
  });
});

describe('deliveries to names that resolve to what may not be dialled', () => {
  it('when the endpoint name resolves to a non-public address at delivery time, then nothing is dialled, the attempt is connection_failed, and its detail names no address', async () => {
    const answers: Record<string, string[]> = {
      'private.example.com': ['10.0.0.5'],
      'metadata.example.com': ['169.254.169.254'],
      'loop.example.com': ['127.0.0.1'],
      'mixed.example.com': ['93.184.216.34', '192.168.0.7'],
      'mapped.example.com': ['::ffff:10.1.2.3'],
      'v6local.example.com': ['fd12:3456::1'],
      'nat64local.example.com': ['64:ff9b:1::a9fe:a9fe'],
      'srv6.example.com': ['5f00::1'],
      'doc6.example.com': ['3fff::1'],
    };
    const rec = recorder(answers);
    const s = await sandbox({ allowLoopback: false, transport: rec.transport });
    const { hook } = await s.agentCard();
    for (const [host, addresses] of Object.entries(answers)) {
      await s.call('PUT', hook, { url: `https://${host}/hook` });
      await s.call('POST', `${hook}/test`);
      const [delivery] = await s.deliveries(hook);
      expect(delivery, host).toMatchObject({ status: 'failed', attempts: [{ statusCode: null, outcome: 'connection_failed' }] });
      expect(delivery.attempts[0].detail).toBe(`${host} resolves to an address that is not public; not dialled.`);
      for (const address of addresses) expect(JSON.stringify(delivery), host).not.toContain(address);
    }
    expect(rec.lookedUp).toEqual(Object.keys(answers));
    expect(rec.dialled).toEqual([]);
  });

  it('when the name resolves to a public address, then the attempt connects to that checked address, with the name for TLS', async () => {
    const rec = recorder({ 'hooks.example.com': ['93.184.216.34'] });
    const s = await sandbox({ allowLoopback: false, transport: rec.transport });
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: 'https://hooks.example.com:8443/hook' });
    await s.call('POST', `${hook}/test`);
    const [delivery] = await s.deliveries(hook);
    expect(delivery.attempts[0]).toMatchObject({ outcome: 'connection_failed', detail: expect.stringContaining('ETESTNODIAL') });
    expect(rec.dialled).toEqual([{ address: '93.184.216.34', port: 8443, tls: true, servername: 'hooks.example.com' }]);
  });

  it('when loopback is allowed and a name resolves to a NAT64, 6to4 or IPv4-compatible form of 127.0.0.1, then it is not dialled', async () => {
    const answers: Record<string, string[]> = {
      'nat64.example.com': ['64:ff9b::7f00:1'],
      'sixtofour.example.com': ['2002:7f00:1::1'],
      'compatible.example.com': ['::7f00:1'],
      localhost: ['93.184.216.34'],
    };
    const rec = recorder(answers);
    const s = await sandbox({ allowLoopback: true, transport: rec.transport });
    const { hook } = await s.agentCard();
    // A name other than localhost is accepted over https:// only; localhost over http:// too.
    for (const url of [...Object.keys(answers).map((host) => `https://${host}:4242/hook`), 'http://localhost:4242/hook']) {
      expect((await s.call('PUT', hook, { url })).status, url).toBe(200);
      await s.call('POST', `${hook}/test`);
      const [delivery] = await s.deliveries(hook);
      expect(delivery.attempts[0], url).toMatchObject({ outcome: 'connection_failed', detail: expect.stringContaining('not dialled') });
    }
    expect(rec.dialled).toEqual([]);
  });

  it('when the loopback setting is off, then a loopback endpoint saved while it was on is not dialled', async () => {
    const rec = recorder({ 'localhost': ['127.0.0.1'] });
    const on = await sandbox({ allowLoopback: true });
    const { hook: onHook } = await on.agentCard();
    expect((await on.call('PUT', onHook, { url: 'http://localhost:4242/' })).status).toBe(200);
    const off = await sandbox({ allowLoopback: false, transport: rec.transport });
    const { card, hook } = await off.agentCard();
    await off.call('GET', hook);
    // The same row as the first server saved, written as the store writes it.
    off.db.sqlite.prepare('UPDATE card_webhooks SET url = ? WHERE card_id = ?').run('http://localhost:4242/', card);
    await off.call('POST', `${hook}/test`);
    const [delivery] = await off.deliveries(hook);
    expect(delivery.attempts[0]).toMatchObject({ outcome: 'connection_failed', detail: expect.stringContaining('localhost is this machine') });
    expect(rec.dialled).toEqual([]);
  });
});

describe('signing secrets', () => {
  it('when the secret is rotated, then neither secret is stored or logged in plain text', async () => {
    const s = await sandbox();
    const r = await receiver();
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    const first = (await s.call('GET', hook)).body.signingSecret as string;
    expect(first).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect((await s.call('POST', `${hook}/secret`)).status).toBe(204);
    const second = (await s.call('GET', hook)).body.signingSecret as string;
    expect(second).not.toBe(first);
    await s.call('POST', `${hook}/test`);
    await s.deliveries(hook);

    const stored = s.db.sqlite.prepare('SELECT secret, previous_secret FROM card_webhooks').all() as { secret: Buffer; previous_secret: Buffer | null }[];
    for (const row of stored) {
      for (const sealed of [row.secret, row.previous_secret ?? Buffer.alloc(0)]) for (const plain of [first, second]) expect(sealed.includes(Buffer.from(plain))).toBe(false);
    }
    const logged = JSON.stringify(s.logs);
    for (const plain of [first, second]) expect(logged).not.toContain(plain);
  });

  it('when the endpoint is removed, then the secret is kept and a test answers 409', async () => {
    const s = await sandbox();
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: 'https://hooks.example.com/' });
    const before = (await s.call('GET', hook)).body.signingSecret;
    expect((await s.call('DELETE', hook)).status).toBe(204);
    expect((await s.call('GET', hook)).body).toMatchObject({ url: null, signingSecret: before });
    expect((await s.call('POST', `${hook}/test`)).status).toBe(409);
  });
});
