import { stmt, type Db } from './db.js';
import { newId } from './ids.js';
import { issueToken } from './tokens.js';
import type { Sealer } from './secrets.js';

export interface CardRow {
  id: string;
  account_id: string;
  any_site: number;
  agent: number;
  created_at: number;
}

export interface NewCard {
  accountId: string;
  number: string;
  anySite: boolean;
  allow: string[];
  block: string[];
  agent: boolean;
  limits: Record<string, number | null> | null;
  now: number;
}

export async function insertCard(db: Db, sealer: Sealer, input: NewCard): Promise<string> {
  const id = newId('card');
  await stmt(db, 'INSERT INTO cards (id, account_id, number, any_site, agent, limits, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    id,
    input.accountId,
    sealer.seal(input.number),
    input.anySite ? 1 : 0,
    input.agent ? 1 : 0,
    input.limits ? JSON.stringify(input.limits) : null,
    input.now,
  );
  const addSite = stmt(db, 'INSERT INTO card_sites (card_id, list, site) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  for (const site of input.allow) await addSite.run(id, 'allow', site);
  for (const site of input.block) await addSite.run(id, 'block', site);
  // The security code is never stored: its token asks the account holder to type it live.
  for (const field of ['number', 'securityCode']) await issueToken(db, { accountId: input.accountId, kind: 'card', recordId: id, field });
  return id;
}

export async function listCards(db: Db, accountId: string): Promise<CardRow[]> {
  return (await stmt(db, 'SELECT id, account_id, any_site, agent, created_at FROM cards WHERE account_id = ? ORDER BY created_at, rowid').all(
    accountId,
  )) as CardRow[];
}

export async function countAgentCards(db: Db, accountId: string): Promise<number> {
  return (((await stmt(db, 'SELECT COUNT(*) AS n FROM cards WHERE account_id = ? AND agent = 1').get(accountId)) as { n: number })).n;
}

/** card id → allow-list sites, for the whole account in one query. */
export async function allowSitesByCard(db: Db, accountId: string): Promise<Map<string, string[]>> {
  const rows = await stmt(
    db,
    "SELECT s.card_id, s.site FROM card_sites s JOIN cards c ON c.id = s.card_id WHERE c.account_id = ? AND s.list = 'allow'",
  ).all(accountId) as { card_id: string; site: string }[];
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(r.card_id, [...(map.get(r.card_id) ?? []), r.site]);
  return map;
}
