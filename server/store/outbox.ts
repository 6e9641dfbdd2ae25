import { stmt, type Db } from './db.js';
import type { Sealer } from './secrets.js';
import type { LinkKind } from './links.js';

/**
 * The account-holder links of one account that this connection inserts, as they are inserted: the
 * demo outbox's feed. A TEMP trigger (it exists on this connection only, and dies with it) calls a
 * function registered here with the new row's key and account. The row is read back once the
 * inserting transaction is over, by its token hash, which no other row can ever have: a rolled-back
 * insert is never reported.
 */

export interface NewLink {
  token: string;
  kind: LinkKind;
  /** The kind's facts as stored (a purchase hold's kind, amount, merchant...). */
  details: Record<string, unknown>;
  /** The site of a signup request's link. */
  website: string | null;
  expiresAt: number;
}

export function watchNewLinks(db: Db, sealer: Sealer, accountId: string, onLink: (link: NewLink) => void): void {
  const inserted: Buffer[] = [];
  const drain = () => {
    for (const hash of inserted.splice(0)) {
      const row = stmt(
        db,
        `SELECT l.token, l.kind, l.details, l.expires_at, r.website FROM account_links l
         LEFT JOIN signup_requests r ON r.id = l.signup_request_id WHERE l.token_hash = ?`,
      ).get(hash) as { token: Buffer; kind: LinkKind; details: string; expires_at: number; website: string | null } | undefined;
      if (row) onLink({ token: sealer.open(row.token), kind: row.kind, details: JSON.parse(row.details), website: row.website, expiresAt: row.expires_at });
    }
  };
  db.function('vault_outbox_inserted', { deterministic: false }, (hash: unknown, account: unknown) => {
    // Runs inside the inserting statement: only note the row; never throw, or the insert fails.
    if (Buffer.isBuffer(hash) && account === accountId) {
      if (inserted.push(hash) === 1) setImmediate(drain);
    }
    return null;
  });
  db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS vault_outbox AFTER INSERT ON main.account_links
           BEGIN SELECT vault_outbox_inserted(NEW.token_hash, NEW.account_id); END`);
}
