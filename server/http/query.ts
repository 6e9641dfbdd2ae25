import { parse } from 'node:querystring';

/**
 * The query parser of the app. Every documented query parameter is one string, so a parameter sent
 * more than once (`?url=a&url=b`) is read as an empty value: a value that does not parse, which the
 * document answers without an error (the info section "Query parameters"), never as a 400 for an
 * array where a string was expected.
 */
export function parseQuery(text: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(parse(text))) query[name] = typeof value === 'string' ? value : '';
  return query;
}
