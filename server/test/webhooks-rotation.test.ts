// rotateWebhookSecret (section 6 item 3): a rotation keeps the replaced secret valid for an overlap
// (`rotationOverlap` of the document's `x-signature-format`), during which every delivery carries a
// signature with each secret, and getCardWebhook shows both. Deliveries go to a receiver on
// 127.0.0.1; the sandbox's manual clock ends the overlap.
import { describe, expect, it } from 'vitest';
import { receiver, sandbox, signatureParts, signed } from './webhook-support.js';
import { contract } from './support.js';
import { webhookFormat } from '../webhooks/format.js';

const OVERLAP_MS = webhookFormat(contract()).rotationOverlapMs;

describe('rotateWebhookSecret', () => {
  it('when the overlap is read from the document, then it is 24 hours', () => {
    expect(OVERLAP_MS).toBe(24 * 60 * 60 * 1000);
  });

  it('when the secret is rotated, then for the overlap each delivery carries a signature with the new secret, then one with the previous', async () => {
    const s = await sandbox();
    const r = await receiver();
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    const first = (await s.call('GET', hook)).body.signingSecret as string;
    expect((await s.call('POST', `${hook}/secret`)).status).toBe(204);
    const second = (await s.call('GET', hook)).body.signingSecret as string;
    expect(second).not.toBe(first);

    await s.call('POST', `${hook}/test`);
    expect((await s.deliveries(hook))[0].status).toBe('delivered');
    const { headers, body } = r.received[0]!;
    const parts = signatureParts(headers['vault-signature']);
    expect(parts).toBeDefined();
    expect(parts!.signatures).toEqual([signed(second, parts!.t, body), signed(first, parts!.t, body)]);
  });

  it('when the secret is rotated, then getCardWebhook shows the previous secret and when it stops signing, until then', async () => {
    const s = await sandbox();
    const { hook } = await s.agentCard();
    const first = (await s.call('GET', hook)).body.signingSecret as string;
    const rotatedAt = s.clock.now();
    await s.call('POST', `${hook}/secret`);
    const during = await s.call('GET', hook);
    expect(during.status).toBe(200);
    expect(during.body.previousSecret).toEqual({ signingSecret: first, expiresAt: new Date(rotatedAt + OVERLAP_MS).toISOString() });

    s.clock.advance(OVERLAP_MS - 1);
    expect((await s.call('GET', hook)).body.previousSecret?.signingSecret).toBe(first);
    s.clock.advance(1);
    const after = (await s.call('GET', hook)).body;
    expect(after).not.toHaveProperty('previousSecret');
    expect(after.signingSecret).toBe(during.body.signingSecret);
  });

  it('when the overlap is over, then a delivery is signed with the current secret only', async () => {
    const s = await sandbox();
    const r = await receiver();
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    await s.call('POST', `${hook}/secret`);
    const current = (await s.call('GET', hook)).body.signingSecret as string;
    s.clock.advance(OVERLAP_MS);
    await s.call('POST', `${hook}/test`);
    await s.deliveries(hook);
    const { headers, body } = r.received[0]!;
    expect(String(headers['vault-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const parts = signatureParts(headers['vault-signature'])!;
    expect(parts.signatures).toEqual([signed(current, parts.t, body)]);
  });

  it('when the secret is rotated again within the overlap, then the oldest stops at once and the one it replaced gets an overlap of its own', async () => {
    const s = await sandbox();
    const r = await receiver();
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    const first = (await s.call('GET', hook)).body.signingSecret as string;
    await s.call('POST', `${hook}/secret`);
    const second = (await s.call('GET', hook)).body.signingSecret as string;
    s.clock.advance(60_000);
    await s.call('POST', `${hook}/secret`);
    const read = (await s.call('GET', hook)).body;
    const third = read.signingSecret as string;
    expect(read.previousSecret).toEqual({ signingSecret: second, expiresAt: new Date(s.clock.now() + OVERLAP_MS).toISOString() });

    await s.call('POST', `${hook}/test`);
    await s.deliveries(hook);
    const { headers, body } = r.received[0]!;
    const parts = signatureParts(headers['vault-signature'])!;
    expect(parts.signatures).toEqual([signed(third, parts.t, body), signed(second, parts.t, body)]);
    expect(parts.signatures).not.toContain(signed(first, parts.t, body));
  });

  it('when the card was never rotated, then getCardWebhook shows no previous secret and a delivery carries one signature', async () => {
    const s = await sandbox();
    const r = await receiver();
    const { hook } = await s.agentCard();
    await s.call('PUT', hook, { url: r.url });
    expect((await s.call('GET', hook)).body).not.toHaveProperty('previousSecret');
    await s.call('POST', `${hook}/test`);
    await s.deliveries(hook);
    expect(signatureParts(r.received[0]!.headers['vault-signature'])!.signatures).toHaveLength(1);
  });
});
