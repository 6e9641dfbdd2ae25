import { parse } from 'node:querystring';

/**
 * The query parser of the app. Every documented query parameter is one string, so a parameter sent
 * more than once (`?url=a&url=b`) is read as an empty value: a value that does not parse, which the
 * document answers without an error (the info section "Query parameters"), never as a 400 for an
 * array where a string was expected.
 *
 * A name is taken literally, so a name with a bracket (`url[]`, `url[0]`) is not a documented
 * parameter: it is left out here, as every unlisted parameter is ignored. Left in, the validator
 * would read it as bracket notation for `url` (an array or an object) and refuse it.
 */
export function parseQuery(text: string): Record<string, string> {
  const query: Record<string, string> = {};
  // Every parameter is read: node:querystring stops at 1,000 by default, which would silently drop
  // a `url` sent after 1,000 others and widen the filter to everything. The header cap bounds the
  // count (a 16 KB request line holds a few thousand).
  for (const [name, value] of Object.entries(parse(text, undefined, undefined, { maxKeys: 0 }))) {
    if (name.includes('[')) continue;
    query[name] = typeof value === 'string' ? value : '';
  }
  return query;
}
