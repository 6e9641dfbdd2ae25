// What a delivery's attempt comes to (section 6 item 2, section 6 item 4): a 2xx counts only as a
// complete answer within the total bound, and every delivery gets an outcome, even one cut off by a
// stop or a crash of the server. Receivers listen on 127.0.0.1; bounds are shortened here, though
// not below what a busy machine needs to send an answer's head.
import { randomBytes } from 'node:crypto';
import { createServer as createNet, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../store/db.js';
import { RECORDING_GRACE_MS } from '../webhooks/sender.js';
import { receiver, sandbox, stopAfterTest } from './webhook-support.js';

describe('listWebhookDeliveries: a 2xx answer', () => {
  it('when a 200 body is still coming at the total bound, then the attempt timed out with the status it answered', async () => {
    const s = await sandbox({ transport: { noDataTimeoutMs: 10000, totalTimeoutMs: 2000 } });
    const r = await receiver((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(drip));
    });
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    await s.call('POST', `${hook}/test`);
    const [delivery] = await s.deliveries(hook);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ statusCode: 200, outcome: 'timed_out' }] });
    expect(delivery.attempts[0].detail).toBe('Answered 200, but the answer was not complete within 2 s.');
  });

  it('when a 200 body comes in pieces and ends within the bounds, then the delivery is delivered', async () => {
    const s = await sandbox({ transport: { noDataTimeoutMs: 5000, totalTimeoutMs: 10000 } });
    const r = await receiver((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a');
      setTimeout(() => res.write('b'), 100);
      setTimeout(() => res.end('c'), 200);
    });
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    await s.call('POST', `${hook}/test`);
    expect((await s.deliveries(hook))[0]).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 200, outcome: 'delivered', detail: 'Answered 200.' }] });
  });

  it('when a 200 body stops coming, then the attempt timed out on the no-data bound', async () => {
    const s = await sandbox({ transport: { noDataTimeoutMs: 2000, totalTimeoutMs: 20000 } });
    const r = await receiver((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    await s.call('POST', `${hook}/test`);
    const [delivery] = await s.deliveries(hook);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ statusCode: 200, outcome: 'timed_out', detail: 'Answered 200, then nothing for 2 s.' }] });
  });

  it('when the connection closes before a 200 body is whole, then the attempt is connection_failed', async () => {
    const s = await sandbox();
    const server = createNet((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part of it'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    stopAfterTest(() => new Promise<void>((r) => server.close(() => r())));
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
    await s.call('POST', `${hook}/test`);
    expect((await s.deliveries(hook))[0]).toMatchObject({ status: 'failed', attempts: [{ statusCode: 200, outcome: 'connection_failed' }] });
  });
});

describe('listWebhookDeliveries: an attempt the server did not finish', () => {
  it('when the server stops during an attempt, then the delivery is failed as interrupted at once, and not sent again', async () => {
    const s = await sandbox();
    const r = await receiver(() => {});
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    const arrived = r.next();
    await s.call('POST', `${hook}/test`);
    await arrived;
    await s.webhooks.stop();
    const [delivery] = (await s.call('GET', `${hook}/deliveries`)).body.deliveries;
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: [{ attempt: 1, statusCode: null, outcome: 'interrupted', detail: 'The server stopped before the attempt was over; the delivery was not sent again.' }],
    });
    await s.webhooks.idle();
    expect((await s.call('GET', `${hook}/deliveries`)).body.deliveries[0].attempts).toHaveLength(1);
    expect(r.received).toHaveLength(1);
  });

  it('when the server dies during an attempt, then after a restart the delivery is pending until its bound is over, then failed as interrupted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-webhook-restart-'));
    const file = join(dir, 'v.db');
    const masterKey = randomBytes(32);
    const first = openDb(file);
    stopAfterTest(async () => rmSync(dir, { recursive: true, force: true }));
    // The real clock of both processes, moved by hand: the bound is judged by it, not by waiting.
    let wall = Date.UTC(2026, 10, 27, 10);
    const transport = { noDataTimeoutMs: 300, totalTimeoutMs: 300, wallClock: () => wall };
    const a = await sandbox({ db: first, masterKey, transport });
    const r = await receiver(() => {});
    const { hook } = await a.agentCard();
    await a.call('PUT', hook, { url: r.url });
    const arrived = r.next();
    await a.call('POST', `${hook}/test`);
    await arrived;
    // The process dies: its database goes away before the attempt can be recorded.
    first.close();

    const second = openDb(file);
    stopAfterTest(async () => {
      second.close();
    });
    const b = await sandbox({ db: second, masterKey, transport });
    // Another process on the file may still be running the attempt until its bound is over.
    wall += transport.totalTimeoutMs + RECORDING_GRACE_MS - 1;
    expect((await b.call('GET', `${hook}/deliveries`)).body.deliveries[0].status).toBe('pending');
    wall += 2;
    const [delivery] = (await b.call('GET', `${hook}/deliveries`)).body.deliveries;
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: [{ attempt: 1, at: new Date(Date.UTC(2026, 10, 27, 10)).toISOString(), statusCode: null, outcome: 'interrupted' }],
    });
  });
});
