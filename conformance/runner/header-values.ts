/**
 * Header values compared by meaning, not by bytes (RFC 9110 §5.6.1: a list's members, in any order,
 * with optional whitespace; RFC 9111 §5.2: directive names are case-insensitive). `Cache-Control`
 * is a set of directives with their arguments; `Vary` a set of field names. A value the
 * specification states is met by a received value holding every member it names: another member
 * beside them (`no-store, private`) keeps the meaning. The reference judgement wants the same set.
 */

export type Comparison = 'holds' | 'equals';

/** `max-age=300, public` → {max-age: "300", public: ""}; quoted arguments unquoted. */
export function directives(value: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of value.split(',')) {
    const [name = '', ...rest] = part.split('=');
    const key = name.trim().toLowerCase();
    if (key === '') continue;
    out.set(key, rest.join('=').trim().replace(/^"(.*)"$/, '$1'));
  }
  return out;
}

function compareMaps(documented: Map<string, string>, received: Map<string, string>, how: Comparison): boolean {
  for (const [k, v] of documented) if (received.get(k) !== v) return false;
  return how === 'holds' || documented.size === received.size;
}

/** Whether `received` means `documented` for header `name`. */
export function sameMeaning(name: string, documented: string, received: string, how: Comparison): boolean {
  const header = name.toLowerCase();
  if (header === 'cache-control') return compareMaps(directives(documented), directives(received), how);
  if (header === 'vary') {
    const tokens = (v: string) => new Map(v.split(',').map((t) => [t.trim().toLowerCase(), '']).filter(([t]) => t !== '') as [string, string][]);
    return compareMaps(tokens(documented), tokens(received), how);
  }
  return how === 'holds' ? documented.trim().toLowerCase() === received.trim().toLowerCase() : documented === received.trim();
}
