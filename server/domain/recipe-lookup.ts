import { registrableDomain } from './sites.js';
import { CUSTOM_PLATFORM, type RecipeKind, type RecipeStatus } from './registry.js';
import { compareText, type LiveRecipe, type LiveSet } from './served-recipes.js';

/**
 * GET /v1/recipes?url= (docs/recipes.md, "How recipe lookups match"): the page's host is put in
 * its normal form once, and the recipes that list it or its registrable domain are read from the
 * live set's host index; no lookup scans the registry.
 */

export interface Summary {
  id: string;
  kind: RecipeKind;
  platform?: string;
  status: RecipeStatus;
}

export interface Lookup {
  merchant: Summary | null;
  platform: Summary | null;
  signup: Summary | null;
  signupPlatform: Summary | null;
}

export interface Page {
  host: string;
  domain: string | null;
  path: string;
}

const STATUS_RANK: Record<RecipeStatus, number> = { verified: 0, partial: 1, unverified: 2, 'dead-end': 3 };

/** The four slots for a page; a value that does not parse gives four nulls. */
export function lookup(live: LiveSet, url: string): Lookup {
  const page = parseLookupUrl(url);
  if (!page) return { merchant: null, platform: null, signup: null, signupPlatform: null };
  const best = new Map<RecipeKind, { l: LiveRecipe; score: number[] }>();
  const consider = (key: string) => {
    const l = live.get(key);
    if (!l) return;
    const m = matchOf(l, page);
    if (!m) return;
    const score = [-m.host, -m.path, STATUS_RANK[l.recipe.status], l.submissionId ? 0 : 1];
    const known = best.get(l.recipe.kind);
    if (!known || compareScores(score, known.score) < 0 || (compareScores(score, known.score) === 0 && compareText(l.recipe.key, known.l.recipe.key) < 0)) {
      best.set(l.recipe.kind, { l, score });
    }
  };
  // A key listed under both the host and the domain is scored twice, to the same score.
  for (const key of live.keysServing(page.host)) consider(key);
  if (page.domain !== null && page.domain !== page.host) for (const key of live.keysServing(page.domain)) consider(key);
  const merchant = best.get('merchant')?.l;
  const signup = best.get('signup')?.l;
  const named = (from: LiveRecipe | undefined, kind: RecipeKind) => {
    const platform = from?.recipe.platform;
    if (platform === undefined || platform === CUSTOM_PLATFORM) return undefined;
    const l = live.get(platform);
    return l?.recipe.kind === kind ? l : undefined;
  };
  const platform = named(merchant, 'platform') ?? best.get('platform')?.l;
  const signupPlatform = named(signup, 'signup-platform') ?? best.get('signup-platform')?.l;
  return { merchant: summaryOf(merchant), platform: summaryOf(platform), signup: summaryOf(signup), signupPlatform: summaryOf(signupPlatform) };
}

/**
 * The page of a lookup: scheme, host and path of an absolute http(s) URL; query, fragment,
 * port and user info are ignored whatever the caller sent. Anything else does not parse.
 */
export function parseLookupUrl(value: string): Page | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.replace(/\.$/, '');
  if (host === '') return null;
  return { host, domain: registrableDomain(host), path: url.pathname || '/' };
}

/**
 * How a recipe covers a page, or null: a listed host equal to the page's host (2) or to its
 * registrable domain (1), and the longest listed path prefix of the page's path (0 when it lists
 * no paths).
 */
function matchOf(l: LiveRecipe, page: Page): { host: number; path: number } | null {
  const host = l.hosts.includes(page.host) ? 2 : page.domain !== null && l.hosts.includes(page.domain) ? 1 : 0;
  if (host === 0) return null;
  const paths = l.recipe.match?.paths;
  if (paths === undefined) return { host, path: 0 };
  let longest = -1;
  for (const p of paths) if (p.length > longest && page.path.startsWith(p)) longest = p.length;
  return longest < 0 ? null : { host, path: longest };
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

export function summaryOf(l: LiveRecipe | undefined): Summary | null {
  if (!l) return null;
  const r = l.recipe;
  return { id: r.key, kind: r.kind, ...(r.platform !== undefined ? { platform: r.platform } : {}), status: r.status };
}
