// Receiving a webhook delivery as an event: verify its signature, then parse its raw body into one of
// the event types the document describes, in one step, as Stripe's `constructEvent` does. A delivery
// that fails either is a `VaultWebhookError` saying why. And the other side, for a receiver's tests:
// a payload signed as the service signs it.
import { VaultWebhookError } from './errors.js';
import { WEBHOOK_EVENT_SHAPES, WEBHOOK_EVENT_TYPES, WEBHOOK_SIGNATURE, type WebhookEvent } from './generated/document.js';
import { shapeProblem } from './shapes.js';
import { DEFAULT_SIGNATURE_HEADER, hmacKey, signedBytes, verifyWebhookRequest, type SignatureHeaderFormat, type WebhookRequestInput } from './webhooks.js';

/** A `type` the document describes for webhook events. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

// Where the document's event schema is one union of kinds, each kind is its own branch; where it
// leaves `type` open, each described type gets the common envelope.
type EventOf<T extends WebhookEventType> = [Extract<WebhookEvent, { type: T }>] extends [never]
  ? Omit<WebhookEvent, 'type'> & { type: T }
  : Extract<WebhookEvent, { type: T }>;

/**
 * A verified webhook event, discriminated by `type` over every event type the document describes, so
 * that a `switch (event.type)` closed with `event.type satisfies never` is checked for exhaustiveness
 * (a type the document adds does not compile until it has its case).
 */
export type VaultWebhookEvent = { [T in WebhookEventType]: EventOf<T> }[WebhookEventType];

/**
 * Verifies a delivery (as `verifyWebhookRequest` does: the signature header, any one of its
 * signatures, `t` within the tolerance) and parses its raw body into a typed event. Throws
 * `VaultWebhookError`: `missing_header`, `malformed`, `mismatch` or `stale` when it does not verify;
 * `invalid_payload` when the body is not UTF-8 JSON of the event's shape; `unknown_event_type` for a
 * verified event of a type the document does not describe, which a receiver acknowledges and ignores.
 */
export async function constructWebhookEvent(input: WebhookRequestInput): Promise<VaultWebhookEvent> {
  const check = await verifyWebhookRequest(input);
  if (!check.valid) throw new VaultWebhookError(check.reason, REASONS[check.reason]);
  let payload: unknown;
  try {
    const text = typeof input.rawBody === 'string' ? input.rawBody : new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input.rawBody);
    payload = JSON.parse(text);
  } catch {
    throw new VaultWebhookError('invalid_payload', 'the body is not UTF-8 JSON');
  }
  const problem = shapeProblem(payload, WEBHOOK_EVENT_SHAPES);
  if (problem !== undefined) throw new VaultWebhookError('invalid_payload', `the body is not an event: ${problem}`);
  const type = (payload as { type: string }).type;
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
    throw new VaultWebhookError('unknown_event_type', `the event's type ${JSON.stringify(type)} is not one the document describes`, type);
  }
  return payload as VaultWebhookEvent;
}

const REASONS = {
  missing_header: 'no signature header',
  malformed: 'the signature header cannot be read',
  mismatch: 'no signature matches the body and the secret',
  stale: "the signature's t is outside the tolerance",
} as const;

export interface SignWebhookInput {
  /** The body to sign, exactly as it will be sent: bytes, or the string they encode. */
  rawBody: string | Uint8Array;
  /** The signing secret, or several (a rotation's overlap signs with the old and the new one). */
  secret: string | readonly string[];
  /** The time of the delivery, in ms; default `Date.now()`. Written as `t` in the header's unit. */
  now?: number | undefined;
  /** The header's name and format. Default: the document's (`DEFAULT_SIGNATURE_HEADER`); it must have `format`. */
  header?: SignatureHeaderFormat | undefined;
  /** The unit of `t`. Default: the document's. */
  timestampUnit?: 'seconds' | 'milliseconds' | undefined;
  /** The encoding of each signature. Default: the document's. */
  signatureEncoding?: 'hex' | 'base64' | undefined;
}

/**
 * The signature header of a delivery of `rawBody`, as the service writes it, by name:
 * `{ 'Vault-Signature': 't=<seconds>,v1=<hex>' }` by default, with one signature per secret. For a
 * receiver's tests: post `rawBody` with these headers, and `constructWebhookEvent` accepts it.
 */
export async function signWebhookPayload(input: SignWebhookInput): Promise<Record<string, string>> {
  const header = input.header ?? DEFAULT_SIGNATURE_HEADER;
  if (!header.format) throw new TypeError(`signWebhookPayload: the ${header.name} format has no format() to write a value with`);
  const now = input.now ?? Date.now();
  const timestamp = String((input.timestampUnit ?? WEBHOOK_SIGNATURE.timestampUnit) === 'milliseconds' ? Math.floor(now) : Math.floor(now / 1000));
  const signed = signedBytes(timestamp, input.rawBody);
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), signed));
      return (input.signatureEncoding ?? WEBHOOK_SIGNATURE.signatureEncoding) === 'hex'
        ? Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')
        : btoa(String.fromCharCode(...mac));
    }),
  );
  return { [header.name]: header.format(timestamp, signatures) };
}
