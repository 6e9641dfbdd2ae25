import { createHash } from 'node:crypto';

/**
 * The secret-canary check (section 5, and "secrets are never returned"): every value the runner
 * stores through the account-holder driver (card numbers, passwords, TOTP secrets, identity and
 * address values) is a canary, and no response body or header may carry one, in any of the
 * encodings below. The values are random and long enough that a match is never a coincidence.
 */

export type CanaryKind = 'card number' | 'password' | 'TOTP secret' | 'identity value' | 'address value';

export interface CanaryFinding {
  kind: CanaryKind;
  encoding: string;
  where: string;
}

interface Canary {
  value: string;
  kind: CanaryKind;
  forms: [string, string][];
}

function encodings(value: string, kind: CanaryKind): [string, string][] {
  const bytes = Buffer.from(value, 'utf8');
  const forms: [string, string][] = [
    ['as stored', value],
    ['lowercase', value.toLowerCase()],
    ['uppercase', value.toUpperCase()],
    ['base64', bytes.toString('base64').replace(/=+$/, '')],
    ['base64url', bytes.toString('base64url')],
    ['hex', bytes.toString('hex')],
    ['HEX', bytes.toString('hex').toUpperCase()],
    ['percent-encoded', encodeURIComponent(value)],
    ['JSON \\u escapes', [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['HTML entities', [...value].map((c) => `&#${c.charCodeAt(0)};`).join('')],
    ['reversed', [...value].reverse().join('')],
    ['SHA-256 hex', createHash('sha256').update(value).digest('hex')],
  ];
  if (kind === 'card number') {
    const groups = value.match(/.{1,4}/g) ?? [value];
    forms.push(['grouped with spaces', groups.join(' ')], ['grouped with dashes', groups.join('-')]);
  }
  // A form that collapses to something short or common proves nothing.
  const seen = new Set<string>();
  return forms.filter(([, form]) => form.length >= 6 && !seen.has(form) && (seen.add(form), true));
}

export class Canaries {
  private readonly canaries: Canary[] = [];
  private readonly known = new Set<string>();

  add(value: string | null | undefined, kind: CanaryKind): void {
    if (!value || value.length < 6 || this.known.has(value)) return;
    this.known.add(value);
    this.canaries.push({ value, kind, forms: encodings(value, kind) });
  }

  get size(): number {
    return this.canaries.length;
  }

  /**
   * `text` with every stored value replaced by what it is (`<password>`), as sent: as stored,
   * JSON-escaped, percent-encoded or form-encoded. The runner's own records (the HAR file) hold
   * what it sent to the driver's back office, and must not keep them in clear.
   */
  maskStored(text: string, placeholder: (kind: CanaryKind) => string = (kind) => `<${kind}>`): string {
    let out = text;
    for (const { value, kind } of [...this.canaries].sort((a, b) => b.value.length - a.value.length)) {
      const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value), encodeURIComponent(value).replace(/%20/g, '+')]);
      for (const form of forms) if (out.includes(form)) out = out.split(form).join(placeholder(kind));
    }
    return out;
  }

  /** The first canary found in a response's headers or body, if any. */
  scan(headers: Record<string, string>, body: string): CanaryFinding | undefined {
    const places: [string, string][] = [...Object.entries(headers).map(([k, v]): [string, string] => [`header ${k}`, v]), ['body', body]];
    for (const [where, text] of places) {
      for (const canary of this.canaries) {
        for (const [encoding, form] of canary.forms) {
          if (text.includes(form)) return { kind: canary.kind, encoding, where };
        }
      }
    }
    return undefined;
  }
}
