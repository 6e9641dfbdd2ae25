import type { Exchange } from './exchange.js';
import type { Node } from './document.js';

/**
 * Reading answers by meaning rather than by the reference's shapes: a body that may be empty (a 204
 * is a legal answer where the specification gives no body), a member whose container the
 * specification does not give (a list, or an object keyed by label), a card told by its tokens.
 */

/** The answer's JSON object, or an empty one when it has none: a missing member then reads as absent. */
export function body(ex: Exchange): Record<string, Node> {
  const json = ex.response.json;
  return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, Node>) : {};
}

/** The entries a member holds, whatever holds them: a list's items, or an object's values. */
export function entries(value: unknown): Node[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') return Object.values(value);
  return [];
}

/** Every string in a JSON value, wherever it sits: a card's tokens whatever their member names. */
export function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringLeaves);
  return [];
}

/** The same entry, told by its strings (its tokens) rather than by member names the specification does not give. */
export function sameEntry(a: unknown, b: unknown): boolean {
  const x = stringLeaves(a).sort();
  const y = stringLeaves(b).sort();
  return x.length > 0 && x.length === y.length && x.every((s, i) => s === y[i]);
}

/** JSON pointers at which two values differ (a member on one side only counts as a difference). */
export function differences(a: unknown, b: unknown, at = ''): string[] {
  if (a === b) return [];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return [at || '/'];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}/${k}`));
}

/** A value without some of its top-level members. */
export function without(value: Record<string, unknown>, members: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !members.includes(k)));
}

/** A value with only some of its top-level members. */
export function only(value: Record<string, unknown>, members: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => members.includes(k)));
}

// What differs in every answer ------------------------------------------------------------------------

/** Within a day of now, in seconds or milliseconds since the epoch, or as a date. */
function looksLikeTime(value: unknown, now: number): boolean {
  const day = 86_400_000;
  if (typeof value === 'number') return Math.abs(value - now) < day || Math.abs(value * 1000 - now) < day;
  if (typeof value !== 'string' || !/\d{4}-\d{2}-\d{2}|\d{1,2} [A-Z][a-z]{2} \d{4}/.test(value)) return false;
  const t = Date.parse(value);
  return !Number.isNaN(t) && Math.abs(t - now) < day;
}

/** A request or trace id: a UUID, or a run of 16 or more hex digits. */
function looksLikeId(value: unknown): boolean {
  return typeof value === 'string' && (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) || /^[0-9a-f]{16,}$/i.test(value));
}

function leaves(value: unknown, at = ''): [string, unknown][] {
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, `${at}/${k}`));
  return [[at || '/', value]];
}

/**
 * The members of answers to one request that differ from answer to answer: per-answer content, such
 * as a request id or a serving time, which says nothing of what the answer is about. A member is
 * per-answer when it differs between two of `repeats` (answers to the same request), or when it is
 * outside the members the specification names (`named`, top-level) and its value is a time within a
 * day of now or has the shape of a request id. A member the specification names is never per-answer:
 * the specification says what it means, so a difference in it is always real.
 */
export function perAnswerMembers(repeats: unknown[], named: readonly string[], now = Date.now()): string[] {
  const noise = new Set<string>();
  for (let i = 1; i < repeats.length; i++) for (const d of differences(repeats[0], repeats[i])) noise.add(d);
  for (const answer of repeats) {
    for (const [path, value] of leaves(answer)) if (looksLikeTime(value, now) || looksLikeId(value)) noise.add(path);
  }
  const top = (path: string) => path.split('/')[1] ?? '';
  return [...noise].filter((path) => !named.includes(top(path)));
}

/** The differences of `a` and `b` outside the per-answer members. */
export function meaningfulDifferences(a: unknown, b: unknown, perAnswer: string[]): string[] {
  return differences(a, b).filter((d) => !perAnswer.some((n) => d === n || d.startsWith(`${n}/`)));
}
