import type { Db } from '../../store/db.js';
import type { Sealer } from '../../store/secrets.js';
import type { Contract } from '../../contract.js';
import type { ServerConfig } from '../../config.js';
import type { AccountRow } from '../../store/accounts.js';
import { ensureCardWebhook, getAgentCard, recentDeliveries, rotateWebhookSecret, setWebhookUrl, type CardWebhookRow } from '../../store/webhooks.js';
import { checkEndpointUrl } from './webhook-endpoint.js';
import { newSigningSecret, type WebhookSender } from '../../webhooks/sender.js';
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import { requireAccount } from './lookups.js';

/**
 * The account holder's side of section 6: an agent card's webhook endpoint, its signing secrets,
 * test deliveries and the recent deliveries. The plan rule (items 1 and section 8.1), which secrets
 * sign (a rotation's overlap), and what a delivery's status is are decided here; the sender
 * (server/webhooks/) only sends and records.
 */

export interface WebhookDeps {
  db: Db;
  sealer: Sealer;
  clock: Clock;
  contract: Contract;
  webhooks: WebhookSender;
  config: Pick<ServerConfig, 'allowLoopbackWebhooks'>;
}

/** How many deliveries the list shows, newest first (the reference's choice; section 6 item 4 says "recent"). */
export const RECENT_DELIVERIES = 50;

interface CardWebhook {
  account: AccountRow;
  hook: CardWebhookRow;
}

/** The agent card's webhook, made with its first secret the first time; 404 for an unknown account or card. */
async function cardWebhook({ db, sealer, clock }: WebhookDeps, accountId: string, cardId: string): Promise<CardWebhook> {
  const account = await requireAccount(db, accountId);
  const card = await getAgentCard(db, account.id, cardId);
  if (!card) throw new ApiError(404, 'not_found', 'No agent card with this id in this account; webhooks are per agent card.');
  return { account, hook: await ensureCardWebhook(db, sealer, card.id, newSigningSecret, clock.now()) };
}

/** Section 6 item 1 and the plan table of section 8.1; the code is the reference's own. */
function requirePlan({ contract }: WebhookDeps, account: AccountRow): void {
  if (contract.plans[account.plan]?.webhookNotifications !== true) {
    throw new ApiError(403, 'webhooks_not_in_plan', `Webhook notifications are not part of the ${account.plan} plan; they come with Plus and Enterprise.`);
  }
}

/** The secret a rotation replaced, while it still signs: until its overlap ends, by the server's clock. */
function previousSecret({ sealer, clock }: WebhookDeps, hook: CardWebhookRow): { secret: string; until: number } | undefined {
  if (hook.previous_secret === null || hook.previous_until === null || clock.now() >= hook.previous_until) return undefined;
  return { secret: sealer.open(hook.previous_secret), until: hook.previous_until };
}

/** Every secret a delivery made now is signed with: the current one first, then the one in its overlap. */
function signingSecrets(deps: WebhookDeps, hook: CardWebhookRow): string[] {
  const previous = previousSecret(deps, hook);
  return [deps.sealer.open(hook.secret), ...(previous ? [previous.secret] : [])];
}

export async function readCardWebhook(deps: WebhookDeps, accountId: string, cardId: string) {
  const { hook } = await cardWebhook(deps, accountId, cardId);
  const previous = previousSecret(deps, hook);
  return {
    cardId: hook.card_id,
    url: hook.url,
    signingSecret: deps.sealer.open(hook.secret),
    ...(previous && { previousSecret: { signingSecret: previous.secret, expiresAt: new Date(previous.until).toISOString() } }),
  };
}

export async function setCardWebhook(deps: WebhookDeps, accountId: string, cardId: string, urlText: string): Promise<{ cardId: string; url: string }> {
  const { account, hook } = await cardWebhook(deps, accountId, cardId);
  requirePlan(deps, account);
  const url = checkEndpointUrl(urlText, deps.config.allowLoopbackWebhooks).href;
  await setWebhookUrl(deps.db, hook.card_id, url, deps.clock.now());
  return { cardId: hook.card_id, url };
}

export async function removeCardWebhook(deps: WebhookDeps, accountId: string, cardId: string): Promise<void> {
  const { hook } = await cardWebhook(deps, accountId, cardId);
  await setWebhookUrl(deps.db, hook.card_id, null, deps.clock.now());
}

/**
 * A new current secret; the one it replaces signs beside it for the overlap (`rotationOverlap` of
 * the document's `x-signature-format`). A second rotation within an overlap ends the older secret's
 * at once: at most two secrets sign a delivery.
 */
export async function rotateCardWebhookSecret(deps: WebhookDeps, accountId: string, cardId: string): Promise<void> {
  const { hook } = await cardWebhook(deps, accountId, cardId);
  const now = deps.clock.now();
  await rotateWebhookSecret(deps.db, deps.sealer, hook.card_id, newSigningSecret(), now + deps.webhooks.format.rotationOverlapMs, now);
}

export async function sendTestDelivery(deps: WebhookDeps, accountId: string, cardId: string): Promise<{ deliveryId: string; eventId: string }> {
  const { account, hook } = await cardWebhook(deps, accountId, cardId);
  requirePlan(deps, account);
  if (hook.url === null) throw new ApiError(409, 'webhook_not_set', 'This agent card has no webhook endpoint; set one first.');
  return deps.webhooks.sendTest(hook.card_id, hook.url, signingSecrets(deps, hook));
}

/** The card's recent deliveries: `pending` while the attempt runs, then `delivered` or `failed`. */
export async function listDeliveries(deps: WebhookDeps, accountId: string, cardId: string) {
  const { hook } = await cardWebhook(deps, accountId, cardId);
  await deps.webhooks.settleOverdue();
  return (await recentDeliveries(deps.db, hook.card_id, RECENT_DELIVERIES)).map((d) => ({
    deliveryId: d.id,
    eventId: d.event_id,
    type: d.event_type,
    url: d.url,
    createdAt: new Date(d.created_at).toISOString(),
    status: d.attempts.length === 0 ? 'pending' : d.attempts.some((a) => a.outcome === 'delivered') ? 'delivered' : 'failed',
    attempts: d.attempts.map((a) => ({
      attempt: a.attempt,
      at: new Date(a.started_at).toISOString(),
      statusCode: a.status_code,
      outcome: a.outcome,
      durationMs: a.duration_ms,
      detail: a.detail,
    })),
  }));
}
