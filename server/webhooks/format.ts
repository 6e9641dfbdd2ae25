import { createHmac } from 'node:crypto';
import type { Contract } from '../contract.js';

/**
 * How a delivery is signed and sent, read from the document's `webhooks` (the signature header's
 * `x-signature-format`, the operation's `x-webhook-delivery`): the client's verifier and the docs
 * read the same members, so the three cannot disagree.
 */
export interface WebhookFormat {
  header: string;
  /**
   * The header's value for `t` and one signature per valid secret, from the document's templates:
   * `value` with the first, then `additionalSignature` for each further one (a rotation's overlap).
   */
  headerValue(t: string, signatures: string[]): string;
  /** The signature of `t` and the raw body with the card's secret. */
  sign(secret: string, t: string, body: Buffer): string;
  timestampUnit: 'seconds' | 'milliseconds';
  noDataTimeoutMs: number;
  totalTimeoutMs: number;
  responseBodyCap: number;
  retries: number[];
  /** How long a rotated secret keeps signing beside its successor. */
  rotationOverlapMs: number;
}

export function webhookFormat(contract: Contract): WebhookFormat {
  const operation = contract.resolve(contract.doc.webhooks?.agentCardEvent)?.post;
  if (!operation) throw new Error('the document has no agentCardEvent webhook');
  const header = (operation.parameters ?? []).map((p: unknown) => contract.resolve(p)).find((p: any) => p?.['x-signature-format']);
  const format = header?.['x-signature-format'];
  const delivery = operation['x-webhook-delivery'];
  if (!format || !delivery) throw new Error('the agentCardEvent webhook lacks x-signature-format or x-webhook-delivery');
  if (format.algorithm !== 'HMAC-SHA256' || format.signedPayload !== '{t}.{body}') {
    throw new Error(`this server signs only HMAC-SHA256 over {t}.{body}, not ${format.algorithm} over ${format.signedPayload}`);
  }
  if (!Number.isInteger(format.rotationOverlap) || format.rotationOverlap < 0 || typeof format.additionalSignature !== 'string') {
    throw new Error('x-signature-format needs additionalSignature and a whole rotationOverlap in seconds');
  }
  const encoding: 'hex' | 'base64' = format.signatureEncoding;
  const entry = (template: string, signature: string) => template.replace('{signature}', signature);
  return {
    header: header.name,
    headerValue: (t, [first, ...more]) =>
      entry(String(format.value).replace('{t}', t), first!) + more.map((signature) => entry(format.additionalSignature, signature)).join(''),
    sign: (secret, t, body) => createHmac('sha256', secret).update(`${t}.`).update(body).digest(encoding),
    timestampUnit: format.timestampUnit,
    noDataTimeoutMs: delivery.noDataTimeout * 1000,
    totalTimeoutMs: delivery.totalTimeout * 1000,
    responseBodyCap: delivery.responseBodyCap,
    retries: delivery.retries,
    rotationOverlapMs: format.rotationOverlap * 1000,
  };
}
