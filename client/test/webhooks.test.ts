// Webhook signatures (section 6): signed here with node:crypto, independently of the Web Crypto code
// under test, then verified good, tampered and stale.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGNATURE_HEADER, signatureHeaderFormat, verifyWebhookRequest, verifyWebhookSignature, WEBHOOK_SIGNATURE, type SignatureHeaderFormat } from '../index.js';

const secret = 'whsec_agent_card_7f3a';
const rawBody = '{"agent_card_id":"ac_123","type":"card.limit_reached","amount":"80.00"}';
const now = Date.UTC(2026, 0, 5, 12, 0, 0);
const t = String(now / 1000);
const sign = (timestamp: string, body: string | Buffer, key = secret, encoding: 'hex' | 'base64' = 'hex') =>
  createHmac('sha256', key).update(`${timestamp}.`).update(body).digest(encoding);

describe('verifyWebhookSignature', () => {
  it('when the signature is HMAC-SHA256 of t.rawBody with the card secret, then it is valid', async () => {
    expect(await verifyWebhookSignature({ rawBody, secret, timestamp: t, signature: sign(t, rawBody), now })).toEqual({ valid: true, timestamp: now });
  });

  it('when the raw body arrives as bytes, then the same bytes verify', async () => {
    const bytes = Buffer.from(rawBody, 'utf8');
    expect(await verifyWebhookSignature({ rawBody: new Uint8Array(bytes), secret, timestamp: t, signature: sign(t, bytes), now })).toMatchObject({ valid: true });
  });

  it.each([
    ['the body was changed', { rawBody: rawBody.replace('80.00', '8.00') }],
    ['the body was re-serialised', { rawBody: JSON.stringify(JSON.parse(rawBody), null, 1) }],
    ['the timestamp was changed', { timestamp: String(now / 1000 - 1) }],
    ['another secret signed it', { secret: 'whsec_other_card' }],
    ['one hex digit of the signature differs', { signature: sign(t, rawBody).replace(/^./, (c) => (c === '0' ? '1' : '0')) }],
    ['the signature is cut short', { signature: sign(t, rawBody).slice(0, 62) }],
  ])('when %s, then it is a mismatch', async (_name, change) => {
    const input = { rawBody, secret, timestamp: t, signature: sign(t, rawBody), now, ...change };
    expect(await verifyWebhookSignature(input)).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('when t is older than the tolerance, then it is stale even though the signature is right', async () => {
    const old = String(now / 1000 - 301);
    expect(await verifyWebhookSignature({ rawBody, secret, timestamp: old, signature: sign(old, rawBody), now })).toEqual({ valid: false, reason: 'stale' });
    const edge = String(now / 1000 - 300);
    expect(await verifyWebhookSignature({ rawBody, secret, timestamp: edge, signature: sign(edge, rawBody), now })).toMatchObject({ valid: true });
    expect(await verifyWebhookSignature({ rawBody, secret, timestamp: old, signature: sign(old, rawBody), now, toleranceSeconds: 600 })).toMatchObject({ valid: true });
  });

  it('when t is further ahead than the tolerance, then it is refused as stale too', async () => {
    const ahead = String(now / 1000 + 301);
    expect(await verifyWebhookSignature({ rawBody, secret, timestamp: ahead, signature: sign(ahead, rawBody), now })).toEqual({ valid: false, reason: 'stale' });
  });

  it('when t is in milliseconds or the signature in base64, then the options read them', async () => {
    const ms = String(now);
    expect(await verifyWebhookSignature({ rawBody, secret, timestamp: ms, signature: sign(ms, rawBody), now, timestampUnit: 'milliseconds' })).toEqual({
      valid: true,
      timestamp: now,
    });
    expect(await verifyWebhookSignature({ rawBody, secret, timestamp: t, signature: sign(t, rawBody, secret, 'base64'), now, signatureEncoding: 'base64' })).toMatchObject({
      valid: true,
    });
  });

  it.each([
    ['t is not a number', { timestamp: '2026-01-05T12:00:00Z' }],
    ['the signature is not hex', { signature: 'zz'.repeat(32) }],
    ['the signature is empty', { signature: '' }],
  ])('when %s, then it is malformed', async (_name, change) => {
    expect(await verifyWebhookSignature({ rawBody, secret, timestamp: t, signature: sign(t, rawBody), now, ...change })).toEqual({ valid: false, reason: 'malformed' });
  });
});

describe('verifyWebhookRequest', () => {
  // One possible header format; the specification leaves the name and format open, so the caller names them.
  const header: SignatureHeaderFormat = {
    name: 'X-Vault-Signature',
    parse: (value) => {
      const parts = Object.fromEntries(value.split(',').map((p) => p.split('=', 2) as [string, string]));
      return parts.t && parts.v1 ? { timestamp: parts.t, signature: parts.v1 } : undefined;
    },
  };

  it('when the named header carries t and the signature, then the request verifies from a Headers or a Node header record', async () => {
    const value = `t=${t},v1=${sign(t, rawBody)}`;
    expect(await verifyWebhookRequest({ headers: new Headers({ 'x-vault-signature': value }), rawBody, secret, header, now })).toMatchObject({ valid: true });
    expect(await verifyWebhookRequest({ headers: { 'x-vault-signature': value }, rawBody, secret, header, now })).toMatchObject({ valid: true });
  });

  it('when the header is missing or unreadable, then it says so', async () => {
    expect(await verifyWebhookRequest({ headers: {}, rawBody, secret, header, now })).toEqual({ valid: false, reason: 'missing_header' });
    expect(await verifyWebhookRequest({ headers: { 'x-vault-signature': 'nonsense' }, rawBody, secret, header, now })).toEqual({ valid: false, reason: 'malformed' });
  });

  it('when the body was tampered with, then the request is a mismatch', async () => {
    const value = `t=${t},v1=${sign(t, rawBody)}`;
    expect(await verifyWebhookRequest({ headers: { 'x-vault-signature': value }, rawBody: `${rawBody} `, secret, header, now })).toEqual({
      valid: false,
      reason: 'mismatch',
    });
  });
});

describe("verifyWebhookRequest with the document's header", () => {
  const value = `t=${t},v1=${sign(t, rawBody)}`;

  it('when no header is named, then it reads Vault-Signature: t=<seconds>,v1=<hex>, the format the document gives', async () => {
    expect(WEBHOOK_SIGNATURE).toEqual({ header: 'Vault-Signature', value: 't={t},v1={signature}', timestampUnit: 'seconds', signatureEncoding: 'hex' });
    expect(await verifyWebhookRequest({ headers: { 'vault-signature': value }, rawBody, secret, now })).toEqual({ valid: true, timestamp: now });
    expect(await verifyWebhookRequest({ headers: new Headers({ 'Vault-Signature': value }), rawBody, secret, now })).toMatchObject({ valid: true });
  });

  it('when the default header is absent, or its value does not follow the format, then it is missing or malformed', async () => {
    expect(await verifyWebhookRequest({ headers: { 'x-vault-signature': value }, rawBody, secret, now })).toEqual({ valid: false, reason: 'missing_header' });
    for (const wrong of [`v1=${sign(t, rawBody)},t=${t}`, `t=${t}`, `t=soon,v1=${sign(t, rawBody)}`, `t=${t},v1=${sign(t, rawBody)},extra`]) {
      expect(await verifyWebhookRequest({ headers: { 'vault-signature': wrong }, rawBody, secret, now }), wrong).toEqual({ valid: false, reason: 'malformed' });
    }
  });

  it('when a deployment chose another header, then a format made from its template overrides the default', async () => {
    const other = signatureHeaderFormat('X-Other-Signature', 'sig={signature}; ts={t}');
    const header = `sig=${sign(t, rawBody)}; ts=${t}`;
    expect(await verifyWebhookRequest({ headers: { 'x-other-signature': header }, rawBody, secret, header: other, now })).toMatchObject({ valid: true });
    expect(await verifyWebhookRequest({ headers: { 'vault-signature': value }, rawBody, secret, header: other, now })).toEqual({ valid: false, reason: 'missing_header' });
    expect(DEFAULT_SIGNATURE_HEADER.parse(value)).toEqual({ timestamp: t, signature: sign(t, rawBody) });
  });
});
