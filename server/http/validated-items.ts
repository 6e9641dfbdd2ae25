import type { Contract } from '../contract.js';

/**
 * What the response hook has let through among the items of an answer's arrays. When an array's
 * schema constrains nothing but its items (no maxItems, uniqueItems or contains), and the object
 * around it nothing that depends on them, an answer is valid when each item is valid against the
 * item schema: an item's verdict does not depend on its neighbours or its place. An item that is
 * never changed once built (a catalog's entries, domain/catalog.ts) and was let through once
 * would be let through again, so the hook is handed the answer with only the items it has not seen,
 * and the bytes sent are the whole answer's (http/answer-cache.ts). A refusal names an item by its
 * place among the items checked.
 */
export interface ItemVerdicts {
  /** `body` with each array member holding only the items the hook has not let through. */
  unseen<T extends object>(body: T): T;
  /** The hook let `checked`, made by unseen from `body`, through: its items are let through from now on. */
  passed(body: object, checked: object): void;
}

/** How far ahead the walk of unseen looks for an item the hook let through in another place. */
const LOOK_AHEAD = 8;

/**
 * The items not in `seen`, found by walking `last` (the member's items last let through) in step:
 * an answer built from the last one mostly holds the same items in the same order, and comparing
 * two references costs less than a look-up in the set.
 */
function unseenItems(items: unknown[], last: unknown[], seen: WeakSet<object>): unknown[] {
  const unseen: unknown[] = [];
  let j = 0;
  for (const item of items) {
    // `last` holds objects only, so the item is not looked at when it is the one expected.
    if (j < last.length && item === last[j]) j++;
    else if (typeof item !== 'object' || item === null || !seen.has(item)) unseen.push(item);
    else {
      // Let through, but not here: the last list had items here that this one lacks.
      const end = Math.min(last.length, j + LOOK_AHEAD);
      for (let k = j + 1; k < end; k++) {
        if (last[k] === item) {
          j = k + 1;
          break;
        }
      }
    }
  }
  return unseen;
}

/** Keywords of the answer's schema and of its arrays' that say nothing of the items' number, order or company. */
const ANNOTATIONS = ['title', 'description', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'default'];
const OBJECT_KEYWORDS = new Set(['type', 'required', 'properties', 'additionalProperties', ...ANNOTATIONS]);
const ARRAY_KEYWORDS = new Set(['type', 'items', ...ANNOTATIONS]);

const annotation = (keyword: string, allowed: Set<string>) => allowed.has(keyword) || keyword.startsWith('x-');

/**
 * The verdicts of an operation's 200 JSON answer, for its array `members`; undefined when its
 * schema does not allow them to be taken item by item (the whole answer is then checked).
 */
export function itemVerdicts(contract: Contract, operationId: string, members: readonly string[]): ItemVerdicts | undefined {
  const operation = contract.operations.get(operationId);
  const response = contract.resolve(operation?.raw.responses?.['200']);
  const schema = contract.resolve(response?.content?.['application/json']?.schema) as Record<string, unknown> | undefined;
  if (!schema || schema.type !== 'object' || !Object.keys(schema).every((k) => annotation(k, OBJECT_KEYWORDS))) return undefined;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const member of members) {
    const array = contract.resolve(properties[member]) as Record<string, unknown> | undefined;
    if (!array || array.type !== 'array' || typeof array.items !== 'object' || Array.isArray(array.items) || !Object.keys(array).every((k) => annotation(k, ARRAY_KEYWORDS))) return undefined;
  }
  const seen = new Map(members.map((m) => [m, new WeakSet<object>()]));
  const last = new Map<string, unknown[]>(members.map((m) => [m, []]));
  const itemsOf = (body: object, member: string): unknown[] | undefined => {
    const items = (body as Record<string, unknown>)[member];
    return Array.isArray(items) ? items : undefined;
  };
  return {
    unseen(body) {
      const part = { ...body } as Record<string, unknown>;
      for (const [member, set] of seen) {
        const items = itemsOf(body, member);
        if (items) part[member] = unseenItems(items, last.get(member)!, set);
      }
      return part as typeof body;
    },
    passed(body, checked) {
      for (const [member, set] of seen) {
        for (const item of itemsOf(checked, member) ?? []) if (typeof item === 'object' && item !== null) set.add(item);
        // Each of the body's items is now let through: those checked, and those left out as let through before.
        const items = itemsOf(body, member);
        if (items) last.set(member, items.every((item) => typeof item === 'object' && item !== null) ? items : []);
      }
    },
  };
}
