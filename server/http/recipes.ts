import type { Handlers } from './handlers.js';

/** Tag Recipes: getRecipes, submitRecipe, getRecipeSubmission. */
export const recipeHandlers: Handlers = {};
