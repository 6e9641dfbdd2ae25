import { transaction, type Db } from '../store/db.js';
import type { Contract, PlanName } from '../contract.js';
import * as store from '../store/recipes.js';
import type { Clock } from './clock.js';
import type { Limiter } from './limiter.js';
import { ApiError } from './errors.js';
import { cachedRead, scopes } from '../store/read-cache.js';
import type { RecipeKind, RecipeStatus, Recipe, Release } from './registry.js';
import { LiveSet, ReleaseIndex, readLiveSet, type ContributionMemo, type LiveRecipe } from './served-recipes.js';
import { lookup, type Lookup } from './recipe-lookup.js';
import { VERDICT, invalidRecipe, readSubmission, screenSubmission } from './recipe-submissions.js';
import { ScreeningQueue } from './screening-queue.js';

export type { Lookup, Summary } from './recipe-lookup.js';
export { VERDICT, invalidRecipe, submissionProblems } from './recipe-submissions.js';

/**
 * The checkout-recipe registry (sections 2.2-2.4, 3, 4.2-4.4, 8.3): the live recipes
 * (served-recipes.ts), the per-URL lookup (recipe-lookup.ts), submissions and their screening
 * (recipe-submissions.ts, run on screening-queue.ts), and a maintainer's decisions. The rules are
 * written down for integrators in docs/recipes.md; keep the two in step.
 */

export interface IndexEntry {
  key: string;
  kind: RecipeKind;
  platform?: string;
  status: RecipeStatus;
  registryVersion: string;
  recipe?: Recipe;
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

export interface RegistryDeps {
  db: Db;
  clock: Clock;
  contract: Contract;
  log?: (line: Record<string, unknown>) => void;
}

export class RecipeRegistry {
  readonly screening: ScreeningQueue;
  private readonly releaseIndex: ReleaseIndex;
  /** Contributions already parsed, by submission (served-recipes.ts). */
  private readonly parsed: ContributionMemo = new Map();

  constructor(
    private readonly deps: RegistryDeps,
    readonly release: Release,
  ) {
    this.releaseIndex = new ReleaseIndex(release);
    this.screening = new ScreeningQueue(
      (id) => this.screen(id),
      (id, err) => deps.log?.({ level: 'error', msg: 'recipe screening failed', submission: id, error: err instanceof Error ? err.message : String(err) }),
    );
    // Submissions left pending by a previous run (screening is in memory) are screened again.
    void store.pendingSubmissionIds(deps.db).then((ids) => this.screening.add(...ids));
  }

  /**
   * The live set (served-recipes.ts). Kept until a write may have changed the contributions
   * (store/read-cache.ts, scope `registry`), so a lookup reads and parses nothing while they are
   * unchanged; a new one reads the contributions only, over the release index built once.
   * Callers never change what it returns.
   */
  live(db: Db = this.deps.db): Promise<LiveSet> {
    return cachedRead(db, 'recipes:live', () => readLiveSet(db, this.releaseIndex, this.parsed), scopes.registry);
  }

  /** GET /v1/recipes without `url`: every live recipe, with its body when `full`. */
  async index(full: boolean): Promise<IndexEntry[]> {
    return (await this.live())
      .sorted()
      .map((l) => entryOf(l, full));
  }

  /** GET /v1/recipes?url=: the four slots for a page; a value that does not parse gives four nulls. */
  async lookup(url: string): Promise<Lookup> {
    return lookup(await this.live(), url);
  }

  /**
   * POST /v1/recipes, after the document's validation: the server's own checks, then the
   * account's rolling budget and the write in one immediate transaction, so a refused submission
   * records nothing. The recipe is live from here on; screening is queued by the caller, after
   * the response.
   */
  submit(db: Db, key: Submitter, body: unknown, limiter: Limiter): Promise<{ id: string; status: 'pending' }> {
    const { clock, contract } = this.deps;
    const submission = readSubmission(contract, body);
    if (submission.problems.length > 0) throw invalidRecipe(submission.problems);
    const { recipe, note, verificationRequested } = submission;
    return transaction(db, async (tx) => {
        try {
          await limiter.consumeInTransaction(tx, [{ limit: contract.limit('recipe-submissions-per-account'), subject: key.account_id, plan: key.plan }]);
        } catch (e) {
          if (e instanceof ApiError) throw new ApiError(e.status, e.code, 'Too many recipe submissions for this account in the last 24 hours.', e.extra);
          throw e;
        }
        const id = await store.insertSubmission(tx, {
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
        return { id, status: 'pending' as const };
      });
  }

  /** GET /v1/recipes/submissions/{id}: only the caller's account's submissions exist for it. */
  async submission(key: Submitter, id: string): Promise<SubmissionView> {
    const row = await store.getSubmission(this.deps.db, id);
    if (!row || row.account_id !== key.account_id) throw new ApiError(404, 'not_found', 'No submission with this id for this account.');
    return viewOf(row);
  }

  /** Screens one pending submission; the rules are in screenSubmission and docs/recipes.md. */
  screen(id: string): Promise<void> {
    return transaction(this.deps.db, async (db) => {
      const row = await store.getSubmission(db, id);
      if (!row || row.status !== 'pending') return;
      const { outcome, verdict } = screenSubmission(row, await this.live(db));
      await store.finishScreening(db, id, outcome, verdict);
    });
  }

  /**
   * A maintainer's decision (the back office): merge makes the submission the live version of
   * its key again; verify also sets `verified` and publishes the note as `evidence`; reject takes
   * it out of the live set. Allowed in any state, and it ends screening if still pending.
   */
  decide(id: string, decision: Decision): Promise<{ submission: SubmissionView; live: IndexEntry | null }> {
    const { clock } = this.deps;
    return transaction(this.deps.db, async (db) => {
        const row = await store.getSubmission(db, id);
        if (!row) throw new ApiError(404, 'not_found', 'No submission with this id.');
        const verdict = JSON.parse(row.verdict) as string[];
        const note = row.note?.trim() ? row.note : null;
        if (decision === 'reject') {
          await store.recordDecision(db, id, { status: 'rejected', verdict: [...verdict, VERDICT.rejected] });
        } else if (decision === 'merge') {
          await store.recordDecision(db, id, { status: 'merged', verdict: [...verdict, VERDICT.merged], liveSince: clock.now() });
        } else {
          await store.recordDecision(db, id, {
            status: 'merged',
            verdict: [...verdict, note ? VERDICT.verified : VERDICT.verifiedWithoutNote],
            liveStatus: 'verified',
            ...(note ? { evidence: note } : {}),
            liveSince: clock.now(),
          });
        }
        const live = (await this.live(db)).get(row.recipe_key);
        return { submission: viewOf((await store.getSubmission(db, id))!), live: live ? entryOf(live, true) : null };
      });
  }
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

function viewOf(row: store.SubmissionRow): SubmissionView {
  return { id: row.id, key: row.recipe_key, status: row.status, verdict: JSON.parse(row.verdict) as string[] };
}

