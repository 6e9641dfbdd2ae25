import type { Handlers } from './handlers.js';
import { context, requireKey } from './context.js';
import { kept, sendKept } from './answer-cache.js';
import { writeAsKey } from './auth.js';
import { scopes } from '../store/read-cache.js';

/** Section 4.2: the index and full bundle may be cached by anyone; a per-URL lookup never. */
const INDEX_CACHE = 'public, max-age=300';
const LOOKUP_CACHE = 'no-store';

/**
 * Tag Recipes: getRecipes, submitRecipe, getRecipeSubmission. The body cap, `$` removal and the
 * document's validation are applied by the pipeline; the registry's rules are the domain's
 * (server/domain/recipes.ts, described in docs/recipes.md).
 */
export const recipeHandlers: Handlers = {
  async getRecipes(req, res, { db, recipes }) {
    const url = req.query.url;
    if (url !== undefined) {
      res.setHeader('Cache-Control', LOOKUP_CACHE);
      res.status(200).json(await recipes.lookup(typeof url === 'string' ? url : ''));
      return;
    }
    res.setHeader('Cache-Control', INDEX_CACHE);
    // The index and the full bundle change only when a recipe does.
    const full = req.query.full === '1';
    const answer = await kept(db, `recipes:${full ? 'full' : 'index'}`, scopes.registry);
    sendKept(res, answer, answer.bytes ? undefined : { recipes: await recipes.index(full) });
  },

  async submitRecipe(req, res, { db, recipes, limiter }) {
    const accepted = await writeAsKey(req, db, (key, tx) => recipes.submit(tx, key, req.body, limiter));
    res.status(202).json(accepted);
    // Screening runs after the response (section 3), never before it.
    recipes.screening.add(accepted.id);
  },

  async getRecipeSubmission(req, res, { recipes }) {
    res.status(200).json(await recipes.submission(requireKey(req), context(req).params.id!));
  },
};
