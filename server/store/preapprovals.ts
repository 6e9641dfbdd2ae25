import { stmt, type Db } from './db.js';
import type { Sealer } from './secrets.js';

/** The account's pre-approved signup list: site → the exact email saved for it, and its use count. */
export interface PreapprovalRow {
  site: string;
  email: string;
  signups: number;
  added_at: number;
}

/**
 * Saves sites with an email. A site saved again with the same email keeps its count; with another
 * email its count starts again (section 4.6).
 */
export async function savePreapprovals(db: Db, sealer: Sealer, accountId: string, sites: string[], email: string, now: number): Promise<void> {
  const existing = new Map((await listPreapprovals(db, sealer, accountId)).map((p) => [p.site, p]));
  const insert = stmt(db, 'INSERT INTO signup_preapprovals (account_id, site, email, signups, added_at) VALUES (?, ?, ?, 0, ?)');
  const update = stmt(db, 'UPDATE signup_preapprovals SET email = ?, signups = 0, added_at = ? WHERE account_id = ? AND site = ?');
  for (const site of new Set(sites)) {
    const before = existing.get(site);
    if (!before) await insert.run(accountId, site, sealer.seal(email), now);
    else if (before.email !== email) await update.run(sealer.seal(email), now, accountId, site);
  }
}

export async function removePreapproval(db: Db, accountId: string, site: string): Promise<boolean> {
  return (await stmt(db, 'DELETE FROM signup_preapprovals WHERE account_id = ? AND site = ?').run(accountId, site)).changes === 1;
}

export async function listPreapprovals(db: Db, sealer: Sealer, accountId: string): Promise<PreapprovalRow[]> {
  const rows = await stmt(db, 'SELECT site, email, signups, added_at FROM signup_preapprovals WHERE account_id = ? ORDER BY site').all(accountId) as {
    site: string;
    email: Buffer;
    signups: number;
    added_at: number;
  }[];
  return rows.map((r) => ({ ...r, email: sealer.open(r.email) }));
}

export async function getPreapproval(db: Db, sealer: Sealer, accountId: string, site: string): Promise<PreapprovalRow | undefined> {
  const r = await stmt(db, 'SELECT site, email, signups, added_at FROM signup_preapprovals WHERE account_id = ? AND site = ?').get(accountId, site) as
    | { site: string; email: Buffer; signups: number; added_at: number }
    | undefined;
  return r && { ...r, email: sealer.open(r.email) };
}

export async function countPreapprovals(db: Db, accountId: string): Promise<number> {
  return (((await stmt(db, 'SELECT COUNT(*) AS n FROM signup_preapprovals WHERE account_id = ?').get(accountId)) as { n: number })).n;
}

export async function countPreapprovedSignup(db: Db, accountId: string, site: string): Promise<void> {
  await stmt(db, 'UPDATE signup_preapprovals SET signups = signups + 1 WHERE account_id = ? AND site = ?').run(accountId, site);
}
