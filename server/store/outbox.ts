import { stmt, type SqliteStore } from './db.js';
import type { Sealer } from './secrets.js';
import { signupLinkToken, type LinkKind } from './links.js';

/**
 * The account-holder links of one account that this connection issues, as they are issued: the
 * demo outbox's feed. TEMP triggers (they exist on this connection only, and die with it) call a
 * function registered here with the new row's key and account: a stored link's, or a signup
 * request's, whose link is derived from it. The row is read back once the inserting transaction is
 * over, by a key no other row can ever have: a rolled-back insert is never reported, nor a request
 * that was pre-approved, which has no link.
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

type Inserted = { link: Buffer } | { request: string };

export function watchNewLinks(db: SqliteStore, sealer: Sealer, accountId: string, onLink: (link: NewLink) => void): void {
  const inserted: Inserted[] = [];
  const read = async (row: Inserted): Promise<NewLink | undefined> => {
    if ('request' in row) {
      const r = await stmt(db, 'SELECT website, expires_at FROM signup_requests WHERE id = ? AND preapproved = 0').get(row.request) as
        | { website: string; expires_at: number }
        | undefined;
      return r && { token: signupLinkToken(sealer, row.request), kind: 'signup', details: {}, website: r.website, expiresAt: r.expires_at };
    }
    const r = await stmt(
      db,
      `SELECT l.token, l.kind, l.details, l.expires_at, r.website FROM account_links l
       LEFT JOIN signup_requests r ON r.id = l.signup_request_id WHERE l.token_hash = ?`,
    ).get(row.link) as { token: Buffer; kind: LinkKind; details: string; expires_at: number; website: string | null } | undefined;
    return r && { token: sealer.open(r.token), kind: r.kind, details: JSON.parse(r.details), website: r.website, expiresAt: r.expires_at };
  };
  const drain = async () => {
    for (const row of inserted.splice(0)) {
      const link = await read(row);
      if (link) onLink(link);
    }
  };
  const note = (row: Inserted) => {
    if (inserted.push(row) === 1) setImmediate(drain);
  };
  // These run inside the inserting statement: only note the row; never throw, or the insert fails.
  db.sqlite.function('vault_outbox_inserted', { deterministic: false }, (hash: unknown, account: unknown) => {
    if (Buffer.isBuffer(hash) && account === accountId) note({ link: hash });
    return null;
  });
  db.sqlite.function('vault_outbox_requested', { deterministic: false }, (id: unknown, account: unknown) => {
    if (typeof id === 'string' && account === accountId) note({ request: id });
    return null;
  });
  db.sqlite.exec(`CREATE TEMP TRIGGER IF NOT EXISTS vault_outbox AFTER INSERT ON main.account_links
           BEGIN SELECT vault_outbox_inserted(NEW.token_hash, NEW.account_id); END;
           CREATE TEMP TRIGGER IF NOT EXISTS vault_outbox_requests AFTER INSERT ON main.signup_requests
           BEGIN SELECT vault_outbox_requested(NEW.id, NEW.account_id); END`);
}
