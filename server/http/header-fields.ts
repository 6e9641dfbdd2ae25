/**
 * How many fields named `name` (lower case) the request sent. Node keeps the first of two
 * `Authorization` or `Content-Type` fields; a proxy in front may keep the last one, so a request
 * with two names two different things, and is refused. `rawHeaders` alternates names and values.
 */
export function fieldCount(raw: string[], name: string): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) count++;
  return count;
}
