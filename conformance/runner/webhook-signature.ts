import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Section 6 item 3 signs `t`, a period and the raw body with the card's secret; item 6 leaves open
 * the header that carries the signature and the format of `t`. A deployment's driver (or an option)
 * may declare both; failing that, every header is searched for a `t` and, in the same header or
 * another, a keyed HMAC (SHA-256, SHA-512 or SHA-1; hex or base64) of `t`, a period and the body.
 * "Signed with the signing secret" is read as a keyed HMAC, the common meaning.
 */

export type TimestampFormat = 'unix-seconds' | 'unix-milliseconds' | 'iso-8601' | 'http-date';

export const TIMESTAMP_FORMATS: Record<TimestampFormat, RegExp> = {
  'unix-seconds': /^\d{9,11}$/,
  'unix-milliseconds': /^\d{12,14}$/,
  'iso-8601': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/,
  'http-date': /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
};

/** What a deployment declares of its signature: the header, the header of `t` when another, and the format of `t`. */
export interface SignatureDeclaration {
  header?: string;
  timestampHeader?: string;
  timestamp?: TimestampFormat;
}

export interface FoundSignature {
  header: string;
  timestampHeader: string;
  t: string;
  format: TimestampFormat | 'other';
  algorithm: string;
}

const ALGORITHMS = ['sha256', 'sha512', 'sha1'];

function values(headers: IncomingHttpHeaders, only?: string): [string, string][] {
  return Object.entries(headers)
    .filter(([name]) => only === undefined || name === only.toLowerCase())
    .flatMap(([name, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x): [string, string] => [name, x])));
}

/** Timestamps a header value may carry: the whole value, each part of it, each part's value after `=`, and any run of 9 to 14 digits. */
function stamps(value: string, format?: TimestampFormat): string[] {
  const parts = value.split(/[,;]\s*/).flatMap((p) => [p.trim(), p.slice(p.indexOf('=') + 1).trim()]);
  const found = new Set([value.trim(), ...parts, ...(value.match(/\d{9,14}/g) ?? [])]);
  const shapes = format ? [TIMESTAMP_FORMATS[format]] : Object.values(TIMESTAMP_FORMATS);
  return [...found].filter((t) => shapes.some((shape) => shape.test(t)));
}

/** Signatures a header value may carry, decoded: each token of 27 characters or more, as hex and as base64 (or base64url). */
function signatures(value: string): Buffer[] {
  const tokens = value.split(/[,;\s]+/).flatMap((part) => [part, part.slice(part.indexOf('=') + 1)]);
  return tokens
    .filter((token) => /^[A-Za-z0-9+/_-]{27,}={0,2}$/.test(token))
    .flatMap((token) => [
      ...(/^[0-9a-fA-F]+$/.test(token) && token.length % 2 === 0 ? [Buffer.from(token, 'hex')] : []),
      Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64'),
    ]);
}

function formatOf(t: string): FoundSignature['format'] {
  return (Object.entries(TIMESTAMP_FORMATS).find(([, shape]) => shape.test(t))?.[0] as TimestampFormat | undefined) ?? 'other';
}

/** The signature over `t`, a period and the raw body, as declared or wherever it is; undefined when none verifies. */
export function findSignature(headers: IncomingHttpHeaders, body: Buffer, secret: string, declared: SignatureDeclaration = {}): FoundSignature | undefined {
  const signed = values(headers, declared.header);
  const timed = values(headers, declared.timestampHeader ?? declared.header);
  for (const [timestampHeader, value] of timed) {
    for (const t of stamps(value, declared.timestamp)) {
      for (const algorithm of ALGORITHMS) {
        const expected = createHmac(algorithm, secret).update(`${t}.`).update(body).digest();
        for (const [header, candidate] of signed) {
          if (signatures(candidate).some((s) => s.length === expected.length && timingSafeEqual(s, expected))) {
            return { header, timestampHeader, t, format: formatOf(t), algorithm };
          }
        }
      }
    }
  }
  return undefined;
}

/** The declaration in words, for what a case expected. */
export function describeDeclaration(d: SignatureDeclaration): string {
  const where = d.header ? `in ${d.header}` : 'in some header';
  const t = [d.timestamp ? `t as ${d.timestamp}` : 't', d.timestampHeader ? `in ${d.timestampHeader}` : ''].filter(Boolean).join(' ');
  return `an HMAC of t, a period and the raw body under the card's secret ${where}, with ${t}`;
}
