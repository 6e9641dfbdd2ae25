// Webhook deliveries over HTTPS (section 6), to a receiver on 127.0.0.1 whose certificate comes
// from a test CA made with the openssl command line; the rest of webhooks.test.ts runs in process.
import type { AddressInfo } from 'node:net';
import { createServer as createHttps } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DialTarget } from '../webhooks/deliver.js';
import { makeTestCertificates } from '../../conformance/test/support/certs.js';
import { sandbox, stopAfterTest } from './webhook-support.js';

describe('deliveries over HTTPS', () => {
  // A receiver on 127.0.0.1 with a certificate for localhost from a test CA this machine does not trust.
  async function tlsReceiver() {
    const dir = mkdtempSync(join(tmpdir(), 'vault-webhook-tls-'));
    const certs = makeTestCertificates(dir);
    const received: string[] = [];
    const server = createHttps({ cert: readFileSync(certs.cert), key: readFileSync(certs.key) }, (req, res) => {
      received.push(req.headers.host ?? '');
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    stopAfterTest(async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    });
    return { port: (server.address() as AddressInfo).port, ca: readFileSync(certs.ca), received };
  }

  // localhost, as 127.0.0.1 only: the receiver listens there, whatever this machine's hosts file says first.
  const localhost = async () => [{ address: '127.0.0.1', family: 4 }];

  it('when the certificate does not verify, then the attempt is connection_failed and nothing is delivered', async () => {
    const r = await tlsReceiver();
    const s = await sandbox({ transport: { resolve: localhost } });
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: `https://localhost:${r.port}/hook` });
    await s.call('POST', `${hook}/test`);
    const [delivery] = await s.deliveries(hook);
    expect(delivery).toMatchObject({ status: 'failed', attempts: [{ statusCode: null, outcome: 'connection_failed' }] });
    expect(r.received).toEqual([]);
  });

  it('when the connection trusts the certificate, then the delivery goes over TLS to the checked address, verified for the name', async () => {
    const r = await tlsReceiver();
    const dialled: string[] = [];
    const connect = (target: DialTarget) => {
      dialled.push(`${target.address} ${target.servername}`);
      return tlsConnect({ host: target.address, port: target.port, servername: target.servername, ca: r.ca });
    };
    const s = await sandbox({ transport: { resolve: localhost, connect } });
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: `https://localhost:${r.port}/hook` });
    await s.call('POST', `${hook}/test`);
    expect((await s.deliveries(hook))[0]).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 204, outcome: 'delivered' }] });
    expect(r.received).toEqual([`localhost:${r.port}`]);
    expect(dialled).toEqual(['127.0.0.1 localhost']);
  });
});
