import { transaction, stmt, type Db } from './db.js';
import type { Sealer } from './secrets.js';

export interface CardWebhookRow {
  card_id: string;
  url: string | null;
  secret: Buffer;
  /** The secret a rotation replaced, sealed; it signs beside `secret` until `previous_until`. */
  previous_secret: Buffer | null;
  previous_until: number | null;
  updated_at: number;
}

export type AttemptOutcome = 'delivered' | 'timed_out' | 'redirected' | 'refused' | 'connection_failed' | 'interrupted';

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  outcome: AttemptOutcome;
  detail: string;
}

export interface DeliveryRow {
  id: string;
  card_id: string;
  event_id: string;
  event_type: string;
  url: string;
  created_at: number;
}

export async function getCardWebhook(db: Db, cardId: string): Promise<CardWebhookRow | undefined> {
  return (await stmt(db, 'SELECT card_id, url, secret, previous_secret, previous_until, updated_at FROM card_webhooks WHERE card_id = ?').get(cardId)) as
    | CardWebhookRow
    | undefined;
}

/** The card's webhook row, made with a new sealed secret the first time it is asked for. */
export async function ensureCardWebhook(db: Db, sealer: Sealer, cardId: string, newSecret: () => string, now: number): Promise<CardWebhookRow> {
  await stmt(db, 'INSERT INTO card_webhooks (card_id, url, secret, updated_at) VALUES (?, NULL, ?, ?) ON CONFLICT DO NOTHING').run(cardId, sealer.seal(newSecret()), now);
  return (await getCardWebhook(db, cardId))!;
}

export async function setWebhookUrl(db: Db, cardId: string, url: string | null, now: number): Promise<void> {
  await stmt(db, 'UPDATE card_webhooks SET url = ?, updated_at = ? WHERE card_id = ?').run(url, now, cardId);
}

/** A rotation: `secret` becomes the current one, the one it replaces signs on until `previousUntil`. */
export async function rotateWebhookSecret(db: Db, sealer: Sealer, cardId: string, secret: string, previousUntil: number, now: number): Promise<void> {
  await stmt(db, 'UPDATE card_webhooks SET previous_secret = secret, previous_until = ?, secret = ?, updated_at = ? WHERE card_id = ?').run(
    previousUntil,
    sealer.seal(secret),
    now,
    cardId,
  );
}

/** A delivery about to be attempted; `pendingUntil` (real clock) is when that attempt is over at the latest. */
export async function insertDelivery(db: Db, row: DeliveryRow, pendingUntil: number): Promise<void> {
  await stmt(db, 'INSERT INTO webhook_deliveries (id, card_id, event_id, event_type, url, created_at, pending_until) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    row.id,
    row.card_id,
    row.event_id,
    row.event_type,
    row.url,
    row.created_at,
    pendingUntil,
  );
}

/** Records an attempt's outcome, unless one is recorded already (an attempt ended by a stop, then settling late). */
export function recordAttempt(db: Db, row: AttemptRow): Promise<void> {
  return transaction(db, async (tx) => {
    await stmt(
      tx,
      'INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, outcome, detail) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    ).run(row.delivery_id, row.attempt, row.started_at, row.duration_ms, row.status_code, row.outcome, row.detail);
    await stmt(tx, 'UPDATE webhook_deliveries SET pending_until = NULL WHERE id = ?').run(row.delivery_id);
  });
}

/** The deliveries still waiting for an outcome whose attempt was over at the latest before `before` (real clock). */
export async function overdueDeliveries(db: Db, before: number): Promise<{ id: string; pending_until: number }[]> {
  return (await stmt(db, 'SELECT id, pending_until FROM webhook_deliveries WHERE pending_until IS NOT NULL AND pending_until < ?').all(before)) as {
    id: string;
    pending_until: number;
  }[];
}

/** The card's newest deliveries, newest first, each with its attempts in order. */
export async function recentDeliveries(db: Db, cardId: string, limit: number): Promise<(DeliveryRow & { attempts: AttemptRow[] })[]> {
  const deliveries = await stmt(
    db,
    'SELECT id, card_id, event_id, event_type, url, created_at FROM webhook_deliveries WHERE card_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
  ).all(cardId, limit) as DeliveryRow[];
  const attemptsOf = stmt(
    db,
    'SELECT delivery_id, attempt, started_at, duration_ms, status_code, outcome, detail FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt',
  );
  const withAttempts: (DeliveryRow & { attempts: AttemptRow[] })[] = [];
  for (const d of deliveries) withAttempts.push({ ...d, attempts: (await attemptsOf.all(d.id)) as AttemptRow[] });
  return withAttempts;
}

/** An agent card of the account: webhooks are per agent card (section 6 item 1). */
export async function getAgentCard(db: Db, accountId: string, cardId: string): Promise<{ id: string; account_id: string } | undefined> {
  return (await stmt(db, 'SELECT id, account_id FROM cards WHERE id = ? AND account_id = ? AND agent = 1').get(cardId, accountId)) as
    | { id: string; account_id: string }
    | undefined;
}
