import type { Passing } from './tamper.js';

/**
 * The recipe format of another team's registry (section 2.2 does not show the structure of a
 * recipe body): the reference's members under names of their own, tagged with the format's name.
 * Its deployment translates a body in this format to the reference's before the reference behind
 * it sees it, and shows the full bundle in it; its driver writes samples in it.
 */

/** The tag of the first other team's format; the second's is its own. */
export const OWN_RECIPE_FORMAT = 'acme-recipe/2';

/** Their names for the reference's members of a recipe body. */
const OWN_NAMES: Record<string, string> = { recipeKey: 'key', recipeKind: 'kind', recipeStatus: 'status', basedOn: 'platform', covers: 'match', actions: 'steps' };
const REFERENCE_NAMES = Object.fromEntries(Object.entries(OWN_NAMES).map(([own, ref]) => [ref, own]));

function renamed(body: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [names[k] ?? k, v]));
}

/** A recipe body in the format `tag` as the reference reads it; undefined for any other body. */
export function fromOwnFormat(recipe: unknown, tag: string): Record<string, unknown> | undefined {
  if (!recipe || typeof recipe !== 'object' || (recipe as { format?: unknown }).format !== tag) return undefined;
  const { format: _, ...rest } = recipe as Record<string, unknown>;
  return renamed(rest, OWN_NAMES);
}

/** A reference recipe body shown in the format `tag`. */
export function toOwnFormat(recipe: Record<string, unknown>, tag: string): Record<string, unknown> {
  return { format: tag, ...renamed(recipe, REFERENCE_NAMES) };
}

/** The key of a contribution as sent, in either format, wrapped or not. */
export function sentRecipeKey(seen: string): string | undefined {
  try {
    const sent = JSON.parse(seen) as Record<string, unknown>;
    const recipe = (sent && typeof sent.recipe === 'object' && sent.recipe !== null ? sent.recipe : sent) as Record<string, unknown>;
    const key = recipe.recipeKey ?? recipe.key;
    return typeof key === 'string' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The text of a body, or undefined when it is not UTF-8 (RFC 8259 §8.1: then it is not JSON either). */
export function utf8(body: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}

/**
 * What the deployment sends on in place of a body it refuses for its format: a recipe the
 * reference behind refuses too, after it checked the key, so that the refusal keeps the
 * deployment's order (authentication first, then the format, then anything else).
 */
export function unreadable(tag: string): Buffer {
  return Buffer.from(JSON.stringify({ format: `${tag}:unread` }));
}

/** Whether an answer is the refusal of a body sent on as `unreadable`. */
export const refusedUnread = (p: Passing, tag: string) => p.method === 'POST' && p.path === '/v1/recipes' && p.status === 400 && p.seen === unreadable(tag).toString();

/** The body of a 400 `invalid_recipe` that names the format the registry reads. */
export function formatProblem(tag: string): Buffer {
  return Buffer.from(JSON.stringify({ code: 'invalid_recipe', error: `The recipe is not in the registry's format (${tag}).`, errors: [{ path: '/format', message: `must be ${tag}` }] }));
}

/** Whether an answer is the full bundle (`full=1` without `url`). */
export const isFullBundle = (p: Passing) => p.method === 'GET' && p.path === '/v1/recipes' && p.status === 200 && p.query.get('full') === '1' && !p.query.has('url');
