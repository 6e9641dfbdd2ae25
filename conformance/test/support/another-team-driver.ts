import { createBackOfficeDriver } from '../../drivers/back-office.js';
import type { DriverFactory, LookupSlot, RecipeRequest, RecipeSample } from '../../drivers/driver.js';
import { OWN_RECIPE_FORMAT } from './recipe-format.js';

/**
 * The account-holder driver another team writes for its deployment (teams.ts), as a QA engineer
 * would from the README: its back office is the reference's fixture surface, and it supplies what
 * only that deployment knows, recipes in its own format (`--driver-option format=<tag>`, the first
 * team's by default) and pages its registry serves. `--driver-option samples=withheld` leaves both
 * out, as a driver that does not know them.
 */
const createDriver: DriverFactory = async (context) => {
  const base = await createBackOfficeDriver(context);
  if (context.options.samples === 'withheld') return base;
  const origin = context.baseUrl.replace(/\/+$/, '');
  const format = context.options.format ?? OWN_RECIPE_FORMAT;

  const sampleRecipe = async ({ kind, site, status, platform }: RecipeRequest): Promise<RecipeSample> => {
    const name = site.replace(/[^a-z0-9]/g, '');
    const own = (key: string, covers?: { hosts: string[]; paths?: string[] }, basedOn?: string) => ({
      format,
      recipeKey: key,
      recipeKind: kind,
      recipeStatus: status,
      ...(basedOn ? { basedOn } : {}),
      ...(covers ? { covers } : {}),
      actions: [{ action: 'click', target: 'Continue' }],
    });
    if (kind === 'platform') return { recipe: own(`acmepay${name}`, { hosts: [`checkout.${site}`] }), key: `acmepay${name}`, page: `https://checkout.${site}/s/1` };
    if (kind === 'signup-platform') return { recipe: own(`signup:acmeauth${name}`), key: `signup:acmeauth${name}` };
    if (kind === 'signup') return { recipe: own(`signup:${site}`, { hosts: [`accounts.${site}`], paths: ['/register'] }, platform ?? 'custom'), key: `signup:${site}`, page: `https://accounts.${site}/register` };
    return { recipe: own(site, { hosts: [`shop.${site}`], paths: ['/basket/pay'] }, platform ?? 'custom'), key: site, page: `https://shop.${site}/basket/pay` };
  };

  /** The registry's own recipes, read as this deployment serves them (its format). */
  const registryPages = async (): Promise<Partial<Record<LookupSlot, string>>> => {
    // A read that met a connection the deployment closed as it was reused is sent again.
    const url = `${origin}/v1/recipes?full=1`;
    const res = await fetch(url).catch(() => fetch(url));
    const { recipes } = (await res.json()) as { recipes: { kind: string; registryVersion: string; recipe: { covers?: { hosts?: string[]; paths?: string[] } } }[] };
    const slots: Record<string, LookupSlot> = { merchant: 'merchant', platform: 'platform', signup: 'signup', 'signup-platform': 'signupPlatform' };
    const pages: Partial<Record<LookupSlot, string>> = {};
    for (const entry of recipes) {
      const host = entry.recipe.covers?.hosts?.[0];
      const slot = slots[entry.kind];
      if (entry.registryVersion === 'submission' || !host || !slot || pages[slot]) continue;
      pages[slot] = `https://${host}${entry.recipe.covers?.paths?.[0] ?? '/'}`;
    }
    return pages;
  };

  return { ...base, sampleRecipe, registryPages };
};

export default createDriver;
