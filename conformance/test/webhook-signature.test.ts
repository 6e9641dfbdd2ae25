import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findSignature } from '../runner/webhook-signature.js';

/** The search for a deployment's own webhook signature (section 6 item 6); against a deployment, in webhook-remote.e2e.test.ts. */

describe('the signature search', () => {
  const secret = 'whsec_test';
  const body = Buffer.from('{"agent_card_id":"card_1"}');
  const sign = (t: string, encoding: 'hex' | 'base64') => createHmac('sha256', secret).update(`${t}.`).update(body).digest(encoding);

  it('when t is an HTTP date in Date-like header and the signature hex in another, then it is found; with another secret it is not', () => {
    const t = 'Tue, 01 Dec 2026 10:00:00 GMT';
    const headers = { 'x-signed-at': t, 'x-signature': `v1=${sign(t, 'hex')}` };
    expect(findSignature(headers, body, secret)).toMatchObject({ header: 'x-signature', timestampHeader: 'x-signed-at', format: 'http-date', algorithm: 'sha256' });
    expect(findSignature(headers, body, 'whsec_other')).toBeUndefined();
    expect(findSignature(headers, body, secret, { timestamp: 'unix-seconds' })).toBeUndefined();
  });
});
