// Webhook signatures (section 6): signed here with node:crypto, independently of the Web Crypto code
// under test, then verified good, tampered and stale; several signatures in one header, as a secret
// rotation's overlap sends; deliveries parsed into typed events; and the signing helper for tests.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  constructWebhookEvent,
  DEFAULT_SIGNATURE_HEADER,
  MAX_SIGNATURES,
  signatureHeaderFormat,
  signWebhookPayload,
  VaultWebhookError,
  verifyWebhookRequest,
  verifyWebhookSignature,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SIGNATURE,
  type SignatureHeaderFormat,
} from '../index.js';

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
    expect(DEFAULT_SIGNATURE_HEADER.parse(value)).toEqual({ timestamp: t, signature: [sign(t, rawBody)] });
  });
});

describe('a header with several signatures, as a secret rotation sends', () => {
  const oldSecret = 'whsec_old';
  const newSecret = 'whsec_new';
  const both = `t=${t},v1=${sign(t, rawBody, newSecret)},v1=${sign(t, rawBody, oldSecret)}`;

  it('when the receiver holds either secret, then the delivery verifies; with neither, it is a mismatch', async () => {
    for (const secret of [oldSecret, newSecret]) {
      expect(await verifyWebhookRequest({ headers: { 'vault-signature': both }, rawBody, secret, now }), secret).toEqual({ valid: true, timestamp: now });
    }
    expect(await verifyWebhookRequest({ headers: { 'vault-signature': both }, rawBody, secret: 'whsec_other', now })).toEqual({ valid: false, reason: 'mismatch' });
    expect(DEFAULT_SIGNATURE_HEADER.parse(both)).toEqual({ timestamp: t, signature: [sign(t, rawBody, newSecret), sign(t, rawBody, oldSecret)] });
    expect(await verifyWebhookSignature({ rawBody, secret: oldSecret, timestamp: t, signature: ['zz', sign(t, rawBody, oldSecret)], now })).toEqual({ valid: false, reason: 'malformed' });
  });

  it('when one of the signatures is tampered with, then the one that is right still verifies, and a stale t still fails', async () => {
    const tampered = `t=${t},v1=${'0'.repeat(64)},v1=${sign(t, rawBody, oldSecret)}`;
    expect(await verifyWebhookRequest({ headers: { 'vault-signature': tampered }, rawBody, secret: oldSecret, now })).toMatchObject({ valid: true });
    expect(await verifyWebhookRequest({ headers: { 'vault-signature': both }, rawBody, secret: oldSecret, now: now + 301_000 })).toEqual({ valid: false, reason: 'stale' });
  });

  it(`when a header carries more than ${MAX_SIGNATURES} signatures, then it is malformed: each would cost an HMAC of the body`, async () => {
    const many = `t=${t},${Array.from({ length: MAX_SIGNATURES + 1 }, () => `v1=${sign(t, rawBody)}`).join(',')}`;
    expect(await verifyWebhookRequest({ headers: { 'vault-signature': many }, rawBody, secret, now })).toEqual({ valid: false, reason: 'malformed' });
    const enough = `t=${t},${Array.from({ length: MAX_SIGNATURES }, () => `v1=${sign(t, rawBody)}`).join(',')}`;
    expect(await verifyWebhookRequest({ headers: { 'vault-signature': enough }, rawBody, secret, now })).toMatchObject({ valid: true });
  });

  it('when a format is made from another template, then several signatures repeat its label after its separator', async () => {
    const other = signatureHeaderFormat('X-Other-Signature', 'ts={t}; sig={signature}');
    expect(other.parse('ts=1; sig=aa; sig=bb')).toEqual({ timestamp: '1', signature: ['aa', 'bb'] });
    expect(other.format!('1', ['aa', 'bb'])).toBe('ts=1; sig=aa; sig=bb');
    expect(() => signatureHeaderFormat('X', 'v1={signature}')).toThrow(/must carry \{t\} and \{signature\} once each/);
  });
});

describe('constructWebhookEvent', () => {
  const event = { id: 'evt_1', type: 'test', created_at: '2026-01-05T12:00:00.000Z', agent_card_id: 'card_1' };
  const body = JSON.stringify(event);
  const headersFor = (payload: string, key = secret) => ({ 'vault-signature': `t=${t},v1=${sign(t, payload, key)}` });

  it('when a delivery verifies and its body is an event of a type the document describes, then it is returned typed', async () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual(['test']);
    const received = await constructWebhookEvent({ headers: headersFor(body), rawBody: body, secret, now });
    expect(received).toEqual(event);
    expect(await constructWebhookEvent({ headers: new Headers(headersFor(body)), rawBody: new TextEncoder().encode(body), secret, now })).toEqual(event);
  });

  it.each([
    ['the signature does not match', { headers: headersFor(body, 'whsec_other') }, 'mismatch'],
    ['the header is missing', { headers: {} }, 'missing_header'],
    ['the delivery is old', { now: now + 3_600_000 }, 'stale'],
    ['the header cannot be read', { headers: { 'vault-signature': 'garbage' } }, 'malformed'],
  ])('when %s, then it throws a VaultWebhookError saying so', async (_name, change, reason) => {
    const error = await constructWebhookEvent({ headers: headersFor(body), rawBody: body, secret, now, ...change }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultWebhookError);
    expect(error).toMatchObject({ reason, code: null, name: 'VaultWebhookError' });
  });

  it.each([
    ['not JSON', 'not json'],
    ['JSON that is not an object', '[1,2]'],
    ['an object without the envelope', JSON.stringify({ type: 'test' })],
    ['an event whose id is not a string', JSON.stringify({ ...event, id: 7 })],
  ])('when the verified body is %s, then it is invalid_payload', async (_name, payload) => {
    const error = await constructWebhookEvent({ headers: headersFor(payload), rawBody: payload, secret, now }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'invalid_payload' });
  });

  it('when the verified body is not UTF-8, then it is invalid_payload', async () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
    const signature = createHmac('sha256', secret).update(`${t}.`).update(bytes).digest('hex');
    const error = await constructWebhookEvent({ headers: { 'vault-signature': `t=${t},v1=${signature}` }, rawBody: bytes, secret, now }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'invalid_payload' });
  });

  it('when a verified event has a type the document does not describe, then it is unknown_event_type, naming it, for the receiver to acknowledge and ignore', async () => {
    const payload = JSON.stringify({ ...event, type: 'card.limit_reached' });
    const error = await constructWebhookEvent({ headers: headersFor(payload), rawBody: payload, secret, now }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'unknown_event_type', eventType: 'card.limit_reached' });
  });
});

describe('signWebhookPayload', () => {
  it('when a payload is signed, then the header is the document\'s, with the HMAC node:crypto computes, and constructWebhookEvent accepts it', async () => {
    const payload = JSON.stringify({ id: 'evt_2', type: 'test', created_at: '2026-01-05T12:00:00.000Z', agent_card_id: 'card_2' });
    const headers = await signWebhookPayload({ rawBody: payload, secret, now });
    expect(headers).toEqual({ 'Vault-Signature': `t=${t},v1=${sign(t, payload)}` });
    expect(await constructWebhookEvent({ headers, rawBody: payload, secret, now })).toMatchObject({ id: 'evt_2' });
  });

  it('when several secrets are given, then one signature each is written, in order, and a receiver with any one verifies', async () => {
    const headers = await signWebhookPayload({ rawBody, secret: ['whsec_new', 'whsec_old'], now });
    expect(headers['Vault-Signature']).toBe(`t=${t},v1=${sign(t, rawBody, 'whsec_new')},v1=${sign(t, rawBody, 'whsec_old')}`);
    expect(await verifyWebhookRequest({ headers, rawBody, secret: 'whsec_old', now })).toMatchObject({ valid: true });
  });

  it('when the format uses milliseconds and base64, then the header follows it', async () => {
    const header = signatureHeaderFormat('X-Sig', 't={t},s={signature}');
    const headers = await signWebhookPayload({ rawBody, secret, now, header, timestampUnit: 'milliseconds', signatureEncoding: 'base64' });
    expect(headers).toEqual({ 'X-Sig': `t=${now},s=${sign(String(now), rawBody, secret, 'base64')}` });
    const custom: SignatureHeaderFormat = { name: 'X-Parse-Only', parse: () => undefined };
    await expect(signWebhookPayload({ rawBody, secret, header: custom })).rejects.toThrow(/has no format\(\)/);
  });
});
