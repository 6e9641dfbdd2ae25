/**
 * Member names that JavaScript gives a meaning to (an object's prototype and its constructor). A
 * request body that carries one is refused (http/body.ts), so none is stored from then on; a body
 * stored before that rule is published without them.
 */
export const REFUSED_MEMBER_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** JSON.parse without the refused member names, at every depth. */
export function parseWithoutRefusedNames(json: string): unknown {
  return JSON.parse(json, (name, value: unknown) => (REFUSED_MEMBER_NAMES.has(name) ? undefined : value));
}
