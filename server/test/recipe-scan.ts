// The registry's live set and lookup as they were written before the host index: every lookup
// scans every live recipe and normalises each of its hosts again. Kept only as the reference the
// indexed registry is held to (recipe-index.test.ts); nothing in the server uses it.
import type { Db } from '../store/db.js';
import * as store from '../store/recipes.js';
import { registrableDomain } from '../domain/sites.js';
import { CUSTOM_PLATFORM, SUBMISSION_VERSION, normalizeHost, type Recipe, type RecipeKind, type RecipeStatus, type Release } from '../domain/registry.js';
import { liveBody } from '../domain/served-recipes.js';
import { parseLookupUrl, type Lookup, type Page } from '../domain/recipe-lookup.js';

interface ScanRecipe {
  recipe: Recipe;
  registryVersion: string;
  submissionId?: string;
}

interface Verified {
  keys: Set<string>;
  hosts: Map<RecipeKind, Set<string>>;
}

const STATUS_RANK: Record<RecipeStatus, number> = { verified: 0, partial: 1, unverified: 2, 'dead-end': 3 };

export async function scanLive(db: Db, release: Release): Promise<ScanRecipe[]> {
  const contributed = (row: store.ContributedRow): ScanRecipe => ({
    recipe: liveBody(row.body, row.status, row.evidence),
    registryVersion: SUBMISSION_VERSION,
    submissionId: row.submission_id,
  });
  const reviewed = new Map<string, ScanRecipe>();
  for (const recipe of release.recipes) reviewed.set(recipe.key, { recipe, registryVersion: release.registryVersion });
  const byKey = new Map<string, store.ContributedRow[]>();
  for (const row of await store.contributions(db)) {
    const rows = byKey.get(row.key);
    if (rows) rows.push(row);
    else byKey.set(row.key, [row]);
  }
  const unreviewed = new Map<string, store.ContributedRow[]>();
  for (const [key, rows] of byKey) {
    const merged = rows.findIndex((r) => r.reviewed === 1);
    if (merged >= 0) reviewed.set(key, contributed(rows[merged]!));
    unreviewed.set(key, merged >= 0 ? rows.slice(0, merged) : rows);
  }
  const verified = verifiedRecipes([...reviewed.values()].map((l) => l.recipe).filter((r) => r.status === 'verified'));
  const live = new Map(reviewed);
  for (const [key, rows] of unreviewed) {
    for (const row of rows) {
      const candidate = contributed(row);
      if (displacesVerified(candidate.recipe, verified)) continue;
      live.set(key, candidate);
      break;
    }
  }
  return [...live.values()].sort((a, b) => (a.recipe.key < b.recipe.key ? -1 : a.recipe.key > b.recipe.key ? 1 : 0));
}

function verifiedRecipes(recipes: Recipe[]): Verified {
  const verified: Verified = { keys: new Set(), hosts: new Map() };
  for (const r of recipes) {
    verified.keys.add(r.key);
    let hosts = verified.hosts.get(r.kind);
    if (!hosts) verified.hosts.set(r.kind, (hosts = new Set()));
    for (const h of r.match?.hosts ?? []) {
      const host = normalizeHost(h);
      if (host !== null) hosts.add(host);
    }
  }
  return verified;
}

function displacesVerified(recipe: Recipe, verified: Verified): boolean {
  if (verified.keys.has(recipe.key)) return true;
  const served = verified.hosts.get(recipe.kind);
  if (!served) return false;
  return (recipe.match?.hosts ?? []).some((h) => {
    const host = normalizeHost(h);
    if (host === null) return false;
    const domain = registrableDomain(host);
    return served.has(host) || (domain !== null && served.has(domain));
  });
}

export function scanLookup(live: ScanRecipe[], url: string): Lookup {
  const page = parseLookupUrl(url);
  if (!page) return { merchant: null, platform: null, signup: null, signupPlatform: null };
  const best = (kind: RecipeKind) => bestMatch(live.filter((l) => l.recipe.kind === kind), page);
  const merchant = best('merchant');
  const signup = best('signup');
  const named = (from: ScanRecipe | undefined, kind: RecipeKind) => {
    const platform = from?.recipe.platform;
    if (platform === undefined || platform === CUSTOM_PLATFORM) return undefined;
    return live.find((l) => l.recipe.key === platform && l.recipe.kind === kind);
  };
  const platform = named(merchant, 'platform') ?? best('platform');
  const signupPlatform = named(signup, 'signup-platform') ?? best('signup-platform');
  return { merchant: summaryOf(merchant), platform: summaryOf(platform), signup: summaryOf(signup), signupPlatform: summaryOf(signupPlatform) };
}

function bestMatch(candidates: ScanRecipe[], page: Page): ScanRecipe | undefined {
  let best: { l: ScanRecipe; score: number[] } | undefined;
  for (const l of candidates) {
    const m = matchOf(l.recipe, page);
    if (!m) continue;
    const score = [-m.host, -m.path, STATUS_RANK[l.recipe.status], l.submissionId ? 0 : 1];
    if (!best || compareScores(score, best.score) < 0 || (compareScores(score, best.score) === 0 && l.recipe.key < best.l.recipe.key)) {
      best = { l, score };
    }
  }
  return best?.l;
}

function matchOf(recipe: Recipe, page: Page): { host: number; path: number } | null {
  const hosts = (recipe.match?.hosts ?? []).map((h) => normalizeHost(h));
  const host = hosts.includes(page.host) ? 2 : page.domain !== null && hosts.includes(page.domain) ? 1 : 0;
  if (host === 0) return null;
  const paths = recipe.match?.paths;
  if (paths === undefined) return { host, path: 0 };
  const longest = Math.max(-1, ...paths.filter((p) => page.path.startsWith(p)).map((p) => p.length));
  return longest < 0 ? null : { host, path: longest };
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function summaryOf(l: ScanRecipe | undefined) {
  if (!l) return null;
  const r = l.recipe;
  return { id: r.key, kind: r.kind, ...(r.platform !== undefined ? { platform: r.platform } : {}), status: r.status };
}
