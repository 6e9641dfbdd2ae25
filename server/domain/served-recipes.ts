import type { Db } from '../store/db.js';
import * as store from '../store/recipes.js';
import { parseWithoutRefusedNames } from './member-names.js';
import { registrableDomain } from './sites.js';
import { SUBMISSION_VERSION, normalizeHost, type Recipe, type RecipeKind, type RecipeStatus, type Release } from './registry.js';

/**
 * The live recipe set (docs/recipes.md, "What the registry serves"): the release, replaced key by
 * key by contributions, indexed by the normal form of every match host. The release's part is
 * built once per release; a contribution or a verdict changes only the contributions laid over it.
 */

export interface LiveRecipe {
  recipe: Recipe;
  registryVersion: string;
  submissionId?: string;
  /** The recipe's match hosts in their normal form (registry.ts normalizeHost), each once. */
  hosts: readonly string[];
}

/** Keys by normalised host: every key one of whose versions lists the host. */
type HostIndex = Map<string, string[]>;

/** The release, built once: its recipes by key, sorted by key, and indexed by host. */
export class ReleaseIndex {
  readonly byKey = new Map<string, LiveRecipe>();
  readonly sorted: LiveRecipe[];
  readonly hosts: HostIndex = new Map();

  constructor(readonly release: Release) {
    for (const recipe of release.recipes) {
      const live = liveRecipe(recipe, release.registryVersion);
      this.byKey.set(recipe.key, live);
      addHosts(this.hosts, live);
    }
    this.sorted = [...this.byKey.values()].sort((a, b) => compareText(a.recipe.key, b.recipe.key));
  }
}

/**
 * The registry as it serves: the reviewed recipes (the release, each key replaced by its newest
 * merged contribution), and the live ones (per key, the newest contribution after the merged one
 * that displaces no verified recipe, else the reviewed one). Only contributions are held here;
 * every other key reads through to the release.
 */
export class LiveSet {
  constructor(
    readonly release: ReleaseIndex,
    /** Merged contributions by key. */
    private readonly merged: Map<string, LiveRecipe>,
    /** Live contributions by key (merged or not). */
    private readonly contributed: Map<string, LiveRecipe>,
    /** Hosts of every contribution that is not rejected. */
    private readonly contributedHosts: HostIndex,
  ) {}

  /** The live recipe of a key. */
  get(key: string): LiveRecipe | undefined {
    return this.contributed.get(key) ?? this.release.byKey.get(key);
  }

  /** The reviewed recipe of a key: what serves it while no unreviewed contribution does. */
  reviewed(key: string): LiveRecipe | undefined {
    return this.merged.get(key) ?? this.release.byKey.get(key);
  }

  /** The keys one of whose versions lists `host` (a superset of the live recipes that do). */
  keysServing(host: string): Iterable<string> {
    const fromRelease = this.release.hosts.get(host);
    const fromContributions = this.contributedHosts.get(host);
    if (!fromContributions) return fromRelease ?? [];
    if (!fromRelease) return fromContributions;
    return new Set([...fromRelease, ...fromContributions]);
  }

  /** Every live recipe, sorted by key. */
  sorted(): LiveRecipe[] {
    const added = [...this.contributed.values()].filter((l) => !this.release.byKey.has(l.recipe.key));
    const replaced = this.release.sorted.map((l) => this.contributed.get(l.recipe.key) ?? l);
    if (added.length === 0) return replaced;
    added.sort((a, b) => compareText(a.recipe.key, b.recipe.key));
    return mergeSorted(replaced, added);
  }

  /**
   * Whether a contribution would take a verified recipe's place: it has the key of one (the index
   * lists one recipe per key), or it is of the same kind and lists a host that one serves (the host
   * itself or its registrable domain is among the verified recipe's hosts), where it could win the
   * lookup by an exact host or a longer path.
   */
  displacesVerified(recipe: Recipe): boolean {
    if (this.reviewed(recipe.key)?.recipe.status === 'verified') return true;
    return (recipe.match?.hosts ?? []).some((h) => {
      const host = normalizeHost(h);
      if (host === null) return false;
      const domain = registrableDomain(host);
      return this.servedVerified(recipe.kind, host) || (domain !== null && this.servedVerified(recipe.kind, domain));
    });
  }

  private servedVerified(kind: RecipeKind, host: string): boolean {
    for (const key of this.keysServing(host)) {
      const r = this.reviewed(key);
      if (r && r.recipe.status === 'verified' && r.recipe.kind === kind && r.hosts.includes(host)) return true;
    }
    return false;
  }
}

/** Parsed contributions, kept by submission while their row is unchanged: a new view parses only what changed. */
export type ContributionMemo = Map<string, { row: store.ContributedRow; live: LiveRecipe }>;

/**
 * Reads the contributions and lays them over the release. Per key (rows newest first), the first
 * merged row is the reviewed version; the newest unreviewed row after it that displaces no
 * verified recipe is live, else the reviewed version serves.
 */
export async function readLiveSet(db: Db, release: ReleaseIndex, memo: ContributionMemo): Promise<LiveSet> {
  const unreviewed = new Map<string, LiveRecipe[]>();
  const merged = new Map<string, LiveRecipe>();
  const hosts: HostIndex = new Map();
  const seen = new Set<string>();
  for (const row of await store.contributions(db)) {
    seen.add(row.submission_id);
    const live = contributedFrom(row, memo);
    addHosts(hosts, live);
    // Rows older than the key's merged one never serve again until a maintainer merges them.
    if (merged.has(row.key)) continue;
    if (row.reviewed === 1) merged.set(row.key, live);
    else {
      const rows = unreviewed.get(row.key);
      if (rows) rows.push(live);
      else unreviewed.set(row.key, [live]);
    }
  }
  for (const id of memo.keys()) if (!seen.has(id)) memo.delete(id);
  const contributed = new Map(merged);
  const reviewedOnly = new LiveSet(release, merged, new Map(), hosts);
  for (const [key, rows] of unreviewed) {
    const candidate = rows.find((l) => !reviewedOnly.displacesVerified(l.recipe));
    if (candidate) contributed.set(key, candidate);
  }
  return new LiveSet(release, merged, contributed, hosts);
}

function contributedFrom(row: store.ContributedRow, memo: ContributionMemo): LiveRecipe {
  const known = memo.get(row.submission_id);
  if (known && sameRow(known.row, row)) return known.live;
  const live = liveRecipe(liveBody(row.body, row.status, row.evidence), SUBMISSION_VERSION, row.submission_id);
  memo.set(row.submission_id, { row, live });
  return live;
}

function sameRow(a: store.ContributedRow, b: store.ContributedRow): boolean {
  return a.status === b.status && a.evidence === b.evidence && a.body === b.body && a.key === b.key;
}

/** A contribution as it is live: the submitted body at its live status, evidence only a maintainer's. */
export function liveBody(json: string, status: string, evidence: string | null): Recipe {
  const { evidence: _submitted, ...body } = parseWithoutRefusedNames(json) as Recipe;
  return { ...body, status: status as RecipeStatus, ...(evidence !== null ? { evidence } : {}) };
}

export function liveRecipe(recipe: Recipe, registryVersion: string, submissionId?: string): LiveRecipe {
  const hosts = new Set<string>();
  for (const h of recipe.match?.hosts ?? []) {
    const host = normalizeHost(h);
    if (host !== null) hosts.add(host);
  }
  return { recipe, registryVersion, ...(submissionId !== undefined ? { submissionId } : {}), hosts: [...hosts] };
}

/** Recipes come key by key (a release has each key once; contributions are read sorted by key), so a repeated key is the last one listed. */
function addHosts(index: HostIndex, live: LiveRecipe): void {
  for (const host of live.hosts) {
    const keys = index.get(host);
    if (!keys) index.set(host, [live.recipe.key]);
    else if (keys[keys.length - 1] !== live.recipe.key) keys.push(live.recipe.key);
  }
}

function mergeSorted(a: LiveRecipe[], b: LiveRecipe[]): LiveRecipe[] {
  const out: LiveRecipe[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && compareText(a[i]!.recipe.key, b[j]!.recipe.key) < 0)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
