import type { Contract } from '../contract.js';

/**
 * What the response hook has let through among the items of an answer's arrays. When an array's
 * schema constrains nothing but its items (no maxItems, uniqueItems or contains), and the object
 * around it nothing that depends on them, an answer is valid when each item is valid against the
 * item schema: an item's verdict does not depend on its neighbours or its place. An item that is
 * never changed once built (a catalog's entries, domain/catalog.ts) and was let through once
 * would be let through again, so the hook is handed the answer with only the items it has not seen,
 * and the bytes sent are the whole answer's (http/kept-json.ts). A refusal names an item by its
 * place among the items checked.
 */
export interface ItemVerdicts {
  /** `body` with each array member holding only the items the hook has not let through. */
  unseen<T extends object>(body: T): T;
  /** The hook let `checked` through: its items are let through from now on. */
  passed(checked: object): void;
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
  const itemsOf = (body: object, member: string): unknown[] | undefined => {
    const items = (body as Record<string, unknown>)[member];
    return Array.isArray(items) ? items : undefined;
  };
  return {
    unseen(body) {
      const part = { ...body } as Record<string, unknown>;
      for (const [member, set] of seen) {
        const items = itemsOf(body, member);
        if (items) part[member] = items.filter((item) => typeof item !== 'object' || item === null || !set.has(item));
      }
      return part as typeof body;
    },
    passed(checked) {
      for (const [member, set] of seen) {
        for (const item of itemsOf(checked, member) ?? []) if (typeof item === 'object' && item !== null) set.add(item);
      }
    },
  };
}
