import type { components } from '../../client/generated/schema.js';
import { stmt, type Db } from './db.js';
import { newId } from './ids.js';

/** Recipe submissions and the contributed recipes they make live (migration 0002-recipes). */

export type SubmissionStatus = components['schemas']['RecipeSubmission']['status'];

export interface SubmissionRow {
  id: string;
  account_id: string;
  key_id: string | null;
  recipe_key: string;
  kind: string;
  platform: string | null;
  body: string;
  live_status: string;
  evidence: string | null;
  note: string | null;
  verification_requested: number;
  status: SubmissionStatus;
  verdict: string;
  created_at: number;
  live_since: number;
}

/**
 * A contribution that may be live: a submission that is not rejected. `reviewed` is 1 once a
 * maintainer merged (or verified) it; an unreviewed one may be held back (domain/recipes.ts).
 */
export interface ContributedRow {
  submission_id: string;
  key: string;
  kind: string;
  platform: string | null;
  status: string;
  body: string;
  evidence: string | null;
  reviewed: 0 | 1;
}

const COLUMNS = `id, account_id, key_id, recipe_key, kind, platform, body, live_status, evidence, note, verification_requested,
  status, verdict, created_at, live_since`;

export interface NewSubmission {
  accountId: string;
  keyId: string;
  key: string;
  kind: string;
  platform: string | null;
  body: string;
  liveStatus: string;
  note: string | null;
  verificationRequested: boolean;
  now: number;
}

export async function insertSubmission(db: Db, input: NewSubmission): Promise<string> {
  const id = newId('sub');
  await stmt(
    db,
    `INSERT INTO recipe_submissions (id, account_id, key_id, recipe_key, kind, platform, body, live_status, note, verification_requested,
       created_at, live_since)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    input.accountId,
    input.keyId,
    input.key,
    input.kind,
    input.platform,
    input.body,
    input.liveStatus,
    input.note,
    input.verificationRequested ? 1 : 0,
    input.now,
    input.now,
  );
  return id;
}

export async function getSubmission(db: Db, id: string): Promise<SubmissionRow | undefined> {
  return (await stmt(db, `SELECT ${COLUMNS} FROM recipe_submissions WHERE id = ?`).get(id)) as SubmissionRow | undefined;
}

/** Ids of submissions still waiting for screening, oldest first (re-queued when a server starts). */
export async function pendingSubmissionIds(db: Db): Promise<string[]> {
  return (((await stmt(db, "SELECT id FROM recipe_submissions WHERE status = 'pending' ORDER BY created_at, rowid").all()) as { id: string }[])).map(
    (r) => r.id,
  );
}

/**
 * Every submission that is not rejected, by key and newest first (by live_since, then by
 * insertion): per key, the live contribution is the first of these the registry does not hold back.
 */
export async function contributions(db: Db): Promise<ContributedRow[]> {
  return (await stmt(
    db,
    `SELECT id AS submission_id, recipe_key AS key, kind, platform, live_status AS status, body, evidence, CASE WHEN status = 'merged' THEN 1 ELSE 0 END AS reviewed
     FROM recipe_submissions WHERE status <> 'rejected' ORDER BY recipe_key, live_since DESC, rowid DESC`,
  ).all()) as ContributedRow[];
}

/**
 * Writes a screening result, only onto a submission that is still pending: a maintainer's
 * decision, or another server process screening the same row, wins. Returns whether it wrote.
 */
export async function finishScreening(db: Db, id: string, status: SubmissionStatus, verdict: string[]): Promise<boolean> {
  return (
    (await stmt(db, "UPDATE recipe_submissions SET status = ?, verdict = ? WHERE id = ? AND status = 'pending'").run(status, JSON.stringify(verdict), id))
      .changes === 1
  );
}

/** A maintainer's decision: the new status and verdict, and for a merge the live status, evidence and live_since. */
export async function recordDecision(
  db: Db,
  id: string,
  change: { status: SubmissionStatus; verdict: string[]; liveStatus?: string; evidence?: string | null; liveSince?: number },
): Promise<void> {
  await stmt(
    db,
    `UPDATE recipe_submissions
     SET status = @status, verdict = @verdict,
         live_status = COALESCE(@liveStatus, live_status),
         evidence = CASE WHEN @setEvidence = 1 THEN @evidence ELSE evidence END,
         live_since = COALESCE(@liveSince, live_since)
     WHERE id = @id`,
  ).run({
    id,
    status: change.status,
    verdict: JSON.stringify(change.verdict),
    liveStatus: change.liveStatus ?? null,
    setEvidence: change.evidence !== undefined ? 1 : 0,
    evidence: change.evidence ?? null,
    liveSince: change.liveSince ?? null,
  });
}
