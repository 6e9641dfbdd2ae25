import type { Db } from '../store/db.js';
import type { Contract, PlanName } from '../contract.js';
import * as store from '../store/recipes.js';
import type { Clock } from './clock.js';
import type { Limiter } from './limiter.js';
import { ApiError } from './errors.js';
import { registrableDomain } from './sites.js';
import { parseWithoutRefusedNames } from './member-names.js';
import { cachedRead } from '../store/read-cache.js';
import {
  CUSTOM_PLATFORM,
  SIGNUP_PREFIX,
  SUBMISSION_VERSION,
  dedupeProblems,
  isObject,
  normalizeHost,
  platformKindFor,
  recipeProblems,
  schemaValidator,
  type Problem,
  type Recipe,
  type RecipeKind,
  type RecipeStatus,
  type Release,
} from './registry.js';

/**
 * The checkout-recipe registry (sections 2.2-2.4, 3, 4.2-4.4, 8.3): the live recipes (the
 * release, replaced key by key by contributions), the per-URL lookup, submissions and their
 * screening, and a maintainer's decisions. The rules are written down for integrators in
 * docs/recipes.md; keep the two in step.
 */

export interface IndexEntry {
  key: string;
  kind: RecipeKind;
  platform?: string;
  status: RecipeStatus;
  registryVersion: string;
  recipe?: Recipe;
}

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

export interface SubmissionView {
  id: string;
  key: string;
  status: store.SubmissionStatus;
  verdict: string[];
}

export type Decision = 'merge' | 'verify' | 'reject';

/** The caller of a submission: the API key and its account's plan. */
export interface Submitter {
  id: string;
  account_id: string;
  plan: PlanName;
}

interface LiveRecipe {
  recipe: Recipe;
  registryVersion: string;
  submissionId?: string;
}

interface RegistryView {
  live: LiveRecipe[];
  verified: VerifiedRecipes;
}

/** The verified recipes that only a maintainer's merge may displace: their keys, and the hosts each kind serves. */
export interface VerifiedRecipes {
  keys: Set<string>;
  hosts: Map<RecipeKind, Set<string>>;
}

/** Screening findings and maintainer decisions: fixed texts, the only words a verdict holds. */
export const VERDICT = {
  wellFormed: 'Recipe body is well formed.',
  hostsOnSite: "Match hosts belong to the recipe key's site.",
  hostOffSite: "A match host is outside the recipe key's site.",
  keyNotSite: 'The recipe key does not name a site, so its match hosts cannot be checked against it.',
  noMatch: 'The recipe has no match, so no page lookup returns it; it is listed in the index only.',
  unknownPlatform: 'The recipe names a platform recipe that the registry does not have.',
  kindChanged: 'The recipe key belongs to a recipe of another kind.',
  coversVerified: 'The recipe covers a host or key that a verified recipe already serves.',
  verificationClaimed: 'Verification claimed; a maintainer reviews the note before setting verified.',
  verifiedDowngraded: 'Submitted as verified; live as unverified, since only a maintainer sets verified.',
  evidenceNotPublished: 'The evidence member of the recipe is not published; only a maintainer publishes evidence, from the note.',
  deadEndWithoutNote: 'A dead-end recipe needs a note saying what blocked the checkout or signup.',
  merged: 'A maintainer merged the recipe.',
  verified: 'A maintainer verified the recipe and published its note as evidence.',
  verifiedWithoutNote: 'A maintainer verified the recipe.',
  rejected: 'A maintainer rejected the recipe.',
} as const;

type Outcome = 'approved' | 'needs_human' | 'rejected';
const SEVERITY: Record<Outcome, number> = { approved: 0, needs_human: 1, rejected: 2 };
const STATUS_RANK: Record<RecipeStatus, number> = { verified: 0, partial: 1, unverified: 2, 'dead-end': 3 };
const NO_MATCH: Lookup = { merchant: null, platform: null, signup: null, signupPlatform: null };

export interface RegistryDeps {
  db: Db;
  clock: Clock;
  contract: Contract;
  log?: (line: Record<string, unknown>) => void;
}

export class RecipeRegistry {
  readonly screening: ScreeningQueue;

  constructor(
    private readonly deps: RegistryDeps,
    readonly release: Release,
  ) {
    this.screening = new ScreeningQueue(
      (id) => this.screen(id),
      (id, err) => deps.log?.({ level: 'error', msg: 'recipe screening failed', submission: id, error: err instanceof Error ? err.message : String(err) }),
    );
    // Submissions left pending by a previous run (screening is in memory) are screened again.
    this.screening.add(...store.pendingSubmissionIds(deps.db));
  }

  /**
   * Every live recipe by key (see view()). Kept until a write may have changed the contributions
   * (store/read-cache.ts), so a lookup reads and parses nothing while they are unchanged. Callers
   * never change what it returns.
   */
  live(): LiveRecipe[] {
    return this.view().live;
  }

  private view(): RegistryView {
    return cachedRead(this.deps.db, 'recipes:live', () => this.readView());
  }

  /**
   * The reviewed recipes first: the release, each key replaced by its newest merged contribution;
   * the verified ones among them are the recipes no contribution may displace unreviewed. Then,
   * per key, the newest contribution after the merged one that displaces no verified recipe (its
   * key, or a host one serves) is live; one that would is held back until a maintainer merges it,
   * and the key's previous version serves meanwhile.
   */
  private readView(): RegistryView {
    const reviewed = new Map<string, LiveRecipe>();
    for (const recipe of this.release.recipes) reviewed.set(recipe.key, { recipe, registryVersion: this.release.registryVersion });
    const byKey = new Map<string, store.ContributedRow[]>();
    for (const row of store.contributions(this.deps.db)) {
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
    return { live: [...live.values()].sort((a, b) => compareText(a.recipe.key, b.recipe.key)), verified };
  }

  /** GET /v1/recipes without `url`: every live recipe, with its body when `full`. */
  index(full: boolean): IndexEntry[] {
    return this.live().map((l) => entryOf(l, full));
  }

  /** GET /v1/recipes?url=: the four slots for a page; a value that does not parse gives four nulls. */
  lookup(url: string): Lookup {
    const page = parseLookupUrl(url);
    if (!page) return { ...NO_MATCH };
    const live = this.live();
    const best = (kind: RecipeKind) => bestMatch(live.filter((l) => l.recipe.kind === kind), page);
    const merchant = best('merchant');
    const signup = best('signup');
    const named = (from: LiveRecipe | undefined, kind: RecipeKind) => {
      const platform = from?.recipe.platform;
      if (platform === undefined || platform === CUSTOM_PLATFORM) return undefined;
      return live.find((l) => l.recipe.key === platform && l.recipe.kind === kind);
    };
    const platform = named(merchant, 'platform') ?? best('platform');
    const signupPlatform = named(signup, 'signup-platform') ?? best('signup-platform');
    return { merchant: summaryOf(merchant), platform: summaryOf(platform), signup: summaryOf(signup), signupPlatform: summaryOf(signupPlatform) };
  }

  /**
   * POST /v1/recipes, after the document's validation: the server's own checks, then the
   * account's rolling budget and the write in one immediate transaction, so a refused submission
   * records nothing. The recipe is live from here on; screening is queued by the caller, after
   * the response.
   */
  submit(key: Submitter, body: unknown, limiter: Limiter): { id: string; status: 'pending' } {
    const { db, clock, contract } = this.deps;
    const submission = readSubmission(contract, body);
    if (submission.problems.length > 0) throw invalidRecipe(submission.problems);
    const { recipe, note, verificationRequested } = submission;
    const id = db
      .transaction(() => {
        try {
          limiter.consumeInTransaction([{ limit: contract.limit('recipe-submissions-per-account'), subject: key.account_id, plan: key.plan }]);
        } catch (e) {
          if (e instanceof ApiError) throw new ApiError(e.status, e.code, 'Too many recipe submissions for this account in the last 24 hours.', e.extra);
          throw e;
        }
        return store.insertSubmission(db, {
          accountId: key.account_id,
          keyId: key.id,
          key: recipe.key,
          kind: recipe.kind,
          platform: recipe.platform ?? null,
          body: JSON.stringify(recipe),
          // Only a maintainer sets verified (section 3); a claim of it goes live as unverified.
          liveStatus: recipe.status === 'verified' ? 'unverified' : recipe.status,
          note,
          verificationRequested,
          now: clock.now(),
        });
      })
      .immediate();
    return { id, status: 'pending' };
  }

  /** GET /v1/recipes/submissions/{id}: only the caller's account's submissions exist for it. */
  submission(key: Submitter, id: string): SubmissionView {
    const row = store.getSubmission(this.deps.db, id);
    if (!row || row.account_id !== key.account_id) throw new ApiError(404, 'not_found', 'No submission with this id for this account.');
    return viewOf(row);
  }

  /** Screens one pending submission; the rules are in screenSubmission and docs/recipes.md. */
  screen(id: string): void {
    const { db } = this.deps;
    db.transaction(() => {
      const row = store.getSubmission(db, id);
      if (!row || row.status !== 'pending') return;
      const { live, verified } = this.view();
      const { outcome, verdict } = screenSubmission(row, this.release, live, verified);
      store.finishScreening(db, id, outcome, verdict);
    }).immediate();
  }

  /**
   * A maintainer's decision (the fixture surface): merge makes the submission the live version of
   * its key again; verify also sets `verified` and publishes the note as `evidence`; reject takes
   * it out of the live set. Allowed in any state, and it ends screening if still pending.
   */
  decide(id: string, decision: Decision): { submission: SubmissionView; live: IndexEntry | null } {
    const { db, clock } = this.deps;
    return db
      .transaction(() => {
        const row = store.getSubmission(db, id);
        if (!row) throw new ApiError(404, 'not_found', 'No submission with this id.');
        const verdict = JSON.parse(row.verdict) as string[];
        const note = row.note?.trim() ? row.note : null;
        if (decision === 'reject') {
          store.recordDecision(db, id, { status: 'rejected', verdict: [...verdict, VERDICT.rejected] });
        } else if (decision === 'merge') {
          store.recordDecision(db, id, { status: 'merged', verdict: [...verdict, VERDICT.merged], liveSince: clock.now() });
        } else {
          store.recordDecision(db, id, {
            status: 'merged',
            verdict: [...verdict, note ? VERDICT.verified : VERDICT.verifiedWithoutNote],
            liveStatus: 'verified',
            ...(note ? { evidence: note } : {}),
            liveSince: clock.now(),
          });
        }
        const live = this.live().find((l) => l.recipe.key === row.recipe_key);
        return { submission: viewOf(store.getSubmission(db, id)!), live: live ? entryOf(live, true) : null };
      })
      .immediate();
  }
}

/**
 * The body of POST /v1/recipes: the recipe, the note (truncated to the document's length) and
 * the claim, with every problem of the body (submissionProblems).
 */
function readSubmission(
  contract: Contract,
  body: unknown,
): { recipe: Recipe; note: string | null; verificationRequested: boolean; problems: Problem[] } {
  const { wrapped, problems } = formOf(contract, body);
  const b = body as { recipe: Recipe; note?: string; verificationRequested?: boolean };
  const recipe = wrapped ? b.recipe : (body as Recipe);
  const note = wrapped && typeof b.note === 'string' ? truncate(b.note, contract.limit('recipe-note-length').value!) : null;
  return { recipe, note, verificationRequested: wrapped && b.verificationRequested === true, problems };
}

/** 400 `invalid_recipe`: every problem in `errors`, and the same problems as one sentence in `error`. */
export function invalidRecipe(problems: Problem[]): ApiError {
  const listed = problems.map((p) => `${p.path || '/'} ${p.message}`).join('; ');
  return new ApiError(400, 'invalid_recipe', `The recipe failed validation: ${listed}.`, { errors: problems });
}

/**
 * Every problem of a submission body, as `errors` of a 400 `invalid_recipe` lists them: the
 * document's schema problems of the form the body is read as, then the server's own checks
 * (registry.ts recipeProblems, and a claim's note). Exported so that the error handler can list
 * the same problems for a body the request validator refused.
 */
export function submissionProblems(contract: Contract, body: unknown): Problem[] {
  return formOf(contract, body).problems;
}

/**
 * The form of a submission: the wrapper when the body matches the wrapper schema (the document
 * reads a body that matches both as the wrapper), the recipe alone when it matches that; when it
 * matches neither, the form it was meant as (the wrapper when it has a `recipe` member).
 */
function formOf(contract: Contract, body: unknown): { wrapped: boolean; problems: Problem[] } {
  const asWrapper = schemaValidator(contract, 'RecipeSubmissionWrapper')(body);
  const asRecipe = asWrapper.length === 0 ? [] : schemaValidator(contract, 'Recipe')(body);
  const b = (isObject(body) ? body : {}) as { recipe?: unknown; note?: unknown; verificationRequested?: unknown };
  const wrapped = asWrapper.length === 0 || (asRecipe.length > 0 && 'recipe' in b);
  const problems = wrapped ? asWrapper : asRecipe;
  const recipe = wrapped ? b.recipe : body;
  // The server's own check, where the schema has not already found a problem at the same place.
  const seen = new Set(problems.map((p) => p.path));
  if (isObject(recipe)) problems.push(...recipeProblems(recipe as Recipe, wrapped ? '/recipe' : '').filter((p) => !seen.has(p.path)));
  // A claim's note that is missing, empty or blank fails three rules of the schema, each with the
  // document's one message for it at /note: listed once.
  return { wrapped, problems: dedupeProblems(problems) };
}


/** Cuts after `max` characters (code points, so a character is never split in two). */
function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/**
 * The screening rules (docs/recipes.md, "Screening"). Each rule adds a fixed text; the outcome is
 * the most severe of the rules that fired: rejected, then needs_human, else approved.
 */
export function screenSubmission(
  row: store.SubmissionRow,
  release: Release,
  live: LiveRecipe[],
  verified: VerifiedRecipes,
): { outcome: Outcome; verdict: string[] } {
  const body = JSON.parse(row.body) as Recipe;
  const recipe = liveBody(row.body, row.live_status, row.evidence);
  const findings: [Outcome, string][] = [['approved', VERDICT.wellFormed]];
  const others = live.filter((l) => l.submissionId !== row.id).map((l) => l.recipe);

  if (recipe.kind === 'merchant' || recipe.kind === 'signup') {
    const site = recipe.key.startsWith(SIGNUP_PREFIX) ? recipe.key.slice(SIGNUP_PREFIX.length) : recipe.key;
    const siteDomain = normalizeHost(site) ? registrableDomain(site) : null;
    const hosts = recipe.match?.hosts ?? [];
    if (hosts.length === 0) findings.push(['approved', VERDICT.noMatch]);
    else if (!siteDomain) findings.push(['needs_human', VERDICT.keyNotSite]);
    else if (hosts.every((h) => registrableDomain(h) === siteDomain)) findings.push(['approved', VERDICT.hostsOnSite]);
    else findings.push(['needs_human', VERDICT.hostOffSite]);

    if (recipe.platform !== undefined && recipe.platform !== CUSTOM_PLATFORM) {
      const kind = platformKindFor(recipe.kind);
      if (!live.some((l) => l.recipe.key === recipe.platform && l.recipe.kind === kind)) findings.push(['needs_human', VERDICT.unknownPlatform]);
    }
  }

  const sameKey = [...release.recipes, ...others].filter((r) => r.key === recipe.key);
  if (sameKey.some((r) => r.kind !== recipe.kind)) findings.push(['needs_human', VERDICT.kindChanged]);

  if (displacesVerified(recipe, verified)) findings.push(['needs_human', VERDICT.coversVerified]);

  if (row.verification_requested === 1) findings.push(['needs_human', VERDICT.verificationClaimed]);
  if (body.status === 'verified') findings.push(['approved', VERDICT.verifiedDowngraded]);
  if (body.evidence !== undefined) findings.push(['approved', VERDICT.evidenceNotPublished]);
  if (body.status === 'dead-end' && !row.note?.trim()) findings.push(['rejected', VERDICT.deadEndWithoutNote]);

  const outcome = findings.reduce<Outcome>((worst, [o]) => (SEVERITY[o] > SEVERITY[worst] ? o : worst), 'approved');
  return { outcome, verdict: findings.map(([, text]) => text) };
}

/** A contribution as it is live: the submitted body at its live status, evidence only a maintainer's. */
function liveBody(json: string, status: string, evidence: string | null): Recipe {
  const { evidence: _submitted, ...body } = parseWithoutRefusedNames(json) as Recipe;
  return { ...body, status: status as RecipeStatus, ...(evidence !== null ? { evidence } : {}) };
}

function contributed(row: store.ContributedRow): LiveRecipe {
  return { recipe: liveBody(row.body, row.status, row.evidence), registryVersion: SUBMISSION_VERSION, submissionId: row.submission_id };
}

export function verifiedRecipes(recipes: Recipe[]): VerifiedRecipes {
  const verified: VerifiedRecipes = { keys: new Set(), hosts: new Map() };
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

/**
 * Whether a contribution would take a verified recipe's place: it has the key of one (the index
 * lists one recipe per key), or it is of the same kind and lists a host that one serves (the
 * host itself or its registrable domain is among the verified recipe's hosts), where it could
 * win the lookup by an exact host or a longer path.
 */
export function displacesVerified(recipe: Recipe, verified: VerifiedRecipes): boolean {
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

function entryOf(l: LiveRecipe, full: boolean): IndexEntry {
  const r = l.recipe;
  return {
    key: r.key,
    kind: r.kind,
    ...(r.platform !== undefined ? { platform: r.platform } : {}),
    status: r.status,
    registryVersion: l.registryVersion,
    ...(full ? { recipe: r } : {}),
  };
}

function summaryOf(l: LiveRecipe | undefined): Summary | null {
  if (!l) return null;
  const r = l.recipe;
  return { id: r.key, kind: r.kind, ...(r.platform !== undefined ? { platform: r.platform } : {}), status: r.status };
}

function viewOf(row: store.SubmissionRow): SubmissionView {
  return { id: row.id, key: row.recipe_key, status: row.status, verdict: JSON.parse(row.verdict) as string[] };
}

interface Page {
  host: string;
  domain: string | null;
  path: string;
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
 * The recipe that serves a page best: it must cover the page (a listed host equal to the page's
 * host or to its registrable domain, and a listed path prefix of the page's path when it lists
 * paths). Ranked by: exact host over registrable domain, longer path prefix, status (verified,
 * partial, unverified, dead-end), a contribution over a release recipe, then key.
 */
function bestMatch(candidates: LiveRecipe[], page: Page): LiveRecipe | undefined {
  let best: { l: LiveRecipe; score: number[] } | undefined;
  for (const l of candidates) {
    const m = matchOf(l.recipe, page);
    if (!m) continue;
    const score = [-m.host, -m.path, STATUS_RANK[l.recipe.status], l.submissionId ? 0 : 1];
    if (!best || compareScores(score, best.score) < 0 || (compareScores(score, best.score) === 0 && compareText(l.recipe.key, best.l.recipe.key) < 0)) {
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

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Screening runs after the response (section 3): ids are queued and screened one per turn of the
 * event loop, so a burst of submissions never holds up requests. Tests await `idle()`, and
 * `pause()` keeps submissions pending until `resume()`.
 */
export class ScreeningQueue {
  private readonly queue: string[] = [];
  private scheduled = false;
  private paused = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly run: (id: string) => void,
    private readonly onError: (id: string, err: unknown) => void,
  ) {}

  add(...ids: string[]): void {
    this.queue.push(...ids);
    this.schedule();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.schedule();
  }

  /** Resolves once nothing is queued (never while paused with submissions waiting). */
  idle(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.paused || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.step());
  }

  private step(): void {
    this.scheduled = false;
    if (this.paused) return;
    const id = this.queue.shift();
    if (id !== undefined) {
      try {
        this.run(id);
      } catch (err) {
        this.onError(id, err);
      }
    }
    if (this.queue.length > 0) return this.schedule();
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
