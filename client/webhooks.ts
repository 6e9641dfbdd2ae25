// Verifying a webhook delivery (section 6): HMAC-SHA256, keyed with the signing secret of the agent card
// named in the payload's `agent_card_id`, over the timestamp `t`, a period, and the raw body. A header
// may carry several signatures of the same `t` and body: while a secret is being rotated, the service
// signs with the old and the new one, and a receiver that holds either verifies the delivery.
//
// Web Crypto, not node:crypto, so that the package runs wherever `fetch` does; `crypto.subtle.verify`
// compares the signature in constant time. The header's name and format default to the document's
// (`WEBHOOK_SIGNATURE`, from the webhook's `x-signature-format`), the reference server's choices.
import { WEBHOOK_SIGNATURE } from './generated/document.js';

export interface WebhookSignatureInput {
  /** The request body exactly as received: bytes, or the string they decode to. Never a re-serialised body. */
  rawBody: string | Uint8Array;
  /** The agent card's signing secret; its UTF-8 bytes are the HMAC key. */
  secret: string;
  /** `t` exactly as received; the signed string starts with it verbatim. */
  timestamp: string;
  /** The signature as received, in `signatureEncoding`; or several, of which any one valid one suffices. */
  signature: string | readonly string[];
  /** How far `t` may be from now, either way, in seconds. Default 300. */
  toleranceSeconds?: number | undefined;
  /** The unit of `t`, which the specification leaves open. Default: the document's (`seconds`, Unix time). */
  timestampUnit?: 'seconds' | 'milliseconds' | undefined;
  /** The encoding of the signature, which the specification leaves open. Default: the document's (`hex`). */
  signatureEncoding?: 'hex' | 'base64' | undefined;
  /** The current time in ms; default `Date.now()`. */
  now?: number | undefined;
}

/**
 * Why a delivery did not verify. `missing_header`: no signature header; `malformed`: `t` or a
 * signature cannot be read (or the header carries more than `MAX_SIGNATURES`); `mismatch`: no
 * signature is right (tampered body or timestamp, or another secret); `stale`: `t` outside the tolerance.
 */
export type WebhookVerificationFailure = 'missing_header' | 'malformed' | 'mismatch' | 'stale';

export type WebhookVerification = { valid: true; /** `t`, in ms. */ timestamp: number } | { valid: false; reason: WebhookVerificationFailure };

const DEFAULT_TOLERANCE_SECONDS = 300;
/**
 * The most signatures one header may carry. A rotation's overlap needs two; each one costs an HMAC of
 * the whole body, so a sender cannot make the receiver hash a body hundreds of times.
 */
export const MAX_SIGNATURES = 8;

/**
 * Verifies a delivery's signature: HMAC-SHA256 over `t + "." + rawBody`, compared in constant time,
 * and `t` within `toleranceSeconds` of now (a replayed delivery is refused as `stale`). Given several
 * signatures, any one that is right verifies it. To read `t` and the signatures from the request's
 * headers as well, use `verifyWebhookRequest`.
 */
export async function verifyWebhookSignature(input: WebhookSignatureInput): Promise<WebhookVerification> {
  if (!/^\d+$/.test(input.timestamp)) return { valid: false, reason: 'malformed' };
  const timestampMs = Number(input.timestamp) * ((input.timestampUnit ?? WEBHOOK_SIGNATURE.timestampUnit) === 'milliseconds' ? 1 : 1000);
  const given = typeof input.signature === 'string' ? [input.signature] : input.signature;
  if (given.length === 0 || given.length > MAX_SIGNATURES) return { valid: false, reason: 'malformed' };
  const signatures = given.map((s) => decode(s.trim(), input.signatureEncoding ?? WEBHOOK_SIGNATURE.signatureEncoding));
  if (signatures.some((s) => s === undefined)) return { valid: false, reason: 'malformed' };

  const signed = signedBytes(input.timestamp, input.rawBody);
  const key = await hmacKey(input.secret, 'verify');
  let verified = false;
  // Every signature is checked, so the time taken does not say which one (if any) was right.
  for (const signature of signatures) if (await crypto.subtle.verify('HMAC', key, signature!, signed)) verified = true;
  if (!verified) return { valid: false, reason: 'mismatch' };

  const tolerance = (input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) * 1000;
  if (Math.abs((input.now ?? Date.now()) - timestampMs) > tolerance) return { valid: false, reason: 'stale' };
  return { valid: true, timestamp: timestampMs };
}

/** Where a deployment puts `t` and the signatures: the header's name, and how to read its value. */
export interface SignatureHeaderFormat {
  /** The header's name (any case). */
  name: string;
  /** Reads `t` and the signature, or several, from the header's value; undefined when it cannot. */
  parse(value: string): { timestamp: string; signature: string | readonly string[] } | undefined;
  /** Writes a value carrying `t` and the signatures (`signWebhookPayload` needs it). */
  format?(timestamp: string, signatures: readonly string[]): string;
}

const SEPARATORS = ',; ';

/**
 * A header format from a template such as `t={t},v1={signature}`: the value must be the template with
 * `{t}` replaced by digits and `{signature}` by one signature, or by several, each after the template's
 * label for it (`t=1764201600,v1=<new>,v1=<old>`, as a rotation's overlap sends).
 */
export function signatureHeaderFormat(name: string, template: string): SignatureHeaderFormat {
  const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
  const parts = template.split('{signature}');
  if (parts.length !== 2 || template.split('{t}').length !== 2) throw new TypeError(`signatureHeaderFormat: ${template} must carry {t} and {signature} once each`);
  const [before, after] = parts as [string, string];
  // The label of a signature is the text before `{signature}` back to the separators before it (`v1=`
  // after `,`); a further signature repeats those separators and that label.
  const labelled = /^.*?(?<separator>[,; ]*)(?<label>[^,; ]*)$/s.exec(before)!.groups!;
  const separator = labelled.separator || ',';
  const label = labelled.label!;
  const repeat = `${separator.trim() === '' ? '\\s+' : `${escape(separator.trim())}\\s*`}${escape(label)}`;
  const one = '[^\\s,;]+';
  const pattern = new RegExp(
    `^${escape(before).replace(escape('{t}'), '(?<t>\\d+)')}(?<signatures>${one}(?:${repeat}${one})*)${escape(after).replace(escape('{t}'), '(?<t>\\d+)')}$`,
  );
  return {
    name,
    parse(value) {
      const match = pattern.exec(value.trim());
      if (!match?.groups) return undefined;
      const signatures = match.groups.signatures!.split(new RegExp(repeat));
      return { timestamp: match.groups.t!, signature: signatures };
    },
    format: (timestamp, signatures) => template.replace('{t}', timestamp).replace('{signature}', signatures.join(`${separator}${label}`)),
  };
}

/** The document's signature header (`WEBHOOK_SIGNATURE`): `Vault-Signature: t=<unix seconds>,v1=<hex>`, the reference server's. */
export const DEFAULT_SIGNATURE_HEADER: SignatureHeaderFormat = signatureHeaderFormat(WEBHOOK_SIGNATURE.header, WEBHOOK_SIGNATURE.value);

export interface WebhookRequestInput extends Omit<WebhookSignatureInput, 'timestamp' | 'signature'> {
  /** The request's headers: a `Headers`, or Node's `IncomingHttpHeaders`. */
  headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The signature header's name and format. Default: the document's (`DEFAULT_SIGNATURE_HEADER`). A
   * deployment that chose otherwise (section 6 item 6 leaves them open) passes its own.
   */
  header?: SignatureHeaderFormat | undefined;
}

/**
 * Verifies a delivery from its headers and raw body: reads the signature header (the document's
 * `Vault-Signature` unless `header` names another), parses it, then checks it as
 * `verifyWebhookSignature` does.
 */
export async function verifyWebhookRequest(input: WebhookRequestInput): Promise<WebhookVerification> {
  const { headers, header = DEFAULT_SIGNATURE_HEADER, ...rest } = input;
  const value = readHeader(headers, header.name);
  if (value === undefined) return { valid: false, reason: 'missing_header' };
  const parsed = header.parse(value);
  if (!parsed) return { valid: false, reason: 'malformed' };
  return verifyWebhookSignature({ ...rest, timestamp: parsed.timestamp, signature: parsed.signature });
}

/** The bytes an HMAC covers: `t`, a period, and the raw body. */
export function signedBytes(timestamp: string, rawBody: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const prefix = encoder.encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  return signed;
}

/** The HMAC-SHA256 key of a signing secret (its UTF-8 bytes). */
export function hmacKey(secret: string, use: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [use]);
}

function readHeader(headers: WebhookRequestInput['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(', ');
  }
  return undefined;
}

function decode(text: string, encoding: 'hex' | 'base64'): Uint8Array<ArrayBuffer> | undefined {
  if (encoding === 'hex') {
    if (text.length === 0 || text.length % 2 !== 0 || !/^[0-9a-f]+$/i.test(text)) return undefined;
    const bytes = new Uint8Array(text.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
    return bytes;
  }
  try {
    return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
