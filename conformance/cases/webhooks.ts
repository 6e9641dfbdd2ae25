import { createHmac, timingSafeEqual } from 'node:crypto';
import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Account } from '../runner/account.js';
import type { WebhookDeliveryState } from '../drivers/driver.js';
import type { ApiDocument } from '../runner/document.js';
import { reference, spec } from '../runner/basis.js';
import { NotRun } from '../runner/outcome.js';
import { followedRedirect, type ReceivedDelivery, type ReceiverAnswer, type WebhookReceiver } from '../runner/webhook-receiver.js';
import { webhooksOf } from '../runner/webhook-setup.js';
import { describeDeclaration, findSignature } from '../runner/webhook-signature.js';

/**
 * Section 6: webhook deliveries, as a black box sees them. The runner starts a receiver of its own
 * (runner/webhook-receiver.ts), where `--webhook-listen` says and announced as `--webhook-url`
 * says, and registers it through the driver's optional `registerWebhook`. A deployment whose driver
 * cannot, that will not register the receiver, or whose delivery log shows it could not connect
 * to it, gets `not run`: the runner's receiver out of reach is never the deployment's fault.
 */

const WEBHOOK_METHODS = ['registerWebhook', 'sendTestWebhook', 'webhookDeliveries'] as const;
const DOCUMENT_HEADER = reference('Section 6 item 6 does not show the signature header or its format; the reference sends `Vault-Signature: t=<seconds>,v1=<hex HMAC-SHA256>`, as its document says.');
const NOT_FOLLOWED = reference('Section 6 item 2 says a redirect fails the delivery; it does not say whether the redirect is followed. The reference never follows one.');
/** Seconds past the specification's 15 s bound that the runner gives a deployment to report an attempt. */
const GRACE_SECONDS = 10;

/** Section 6 item 2's bound on one attempt, as the document gives it (15 s). */
function totalTimeoutSeconds(doc: ApiDocument): number {
  const op = doc.resolve(doc.doc.webhooks?.agentCardEvent)?.post;
  return Number(op?.['x-webhook-delivery']?.totalTimeout ?? 15);
}

/** The signature header the document names, and its format (the reference's choice). */
function documentHeader(doc: ApiDocument): { name: string; pattern: RegExp } | undefined {
  const op = doc.resolve(doc.doc.webhooks?.agentCardEvent)?.post;
  const header = (op?.parameters ?? []).map((p: unknown) => doc.resolve(p)).find((p: { [k: string]: unknown }) => p?.['x-signature-format']);
  const template = header?.['x-signature-format']?.value as string | undefined;
  if (!header || !template) return undefined;
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return { name: String(header.name).toLowerCase(), pattern: new RegExp(`^${escaped.replace('{t}', '(?<t>\\d+)').replace('{signature}', '(?<signature>[0-9a-f]+)')}$`) };
}

const hmac = (algorithm: string, secret: string, t: string, body: Buffer) => createHmac(algorithm, secret).update(`${t}.`).update(body).digest();

function same(candidate: Buffer, expected: Buffer): boolean {
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

/** An agent card on `account` with the receiver as its endpoint, or `not run` when the deployment refuses it. */
const NOT_REGISTERED = "the deployment would not register the runner's webhook receiver";
const NOT_REACHED = "the deployment could not connect to the runner's webhook receiver";
const REACH_IT = 'let the deployment reach the receiver: --webhook-listen an address it can reach, and --webhook-url the public URL (a tunnel\'s, an ingress\'s) that leads there';

async function register(ctx: CaseContext, account: Account, receiver: WebhookReceiver) {
  const registration = await account.registerWebhook(receiver.url);
  // The label carries no URL or port, so that every case it stops is counted under one cause.
  if ('refused' in registration) throw new NotRun(`${NOT_REGISTERED} ${receiver.url} on ${account.plan}: ${registration.refused.replace(/\.$/, '')}. To run it: ${REACH_IT}`, 'capability', NOT_REGISTERED);
  ctx.step(`registered the runner's receiver ${receiver.url} for agent card ${registration.cardId} on ${account.plan}`);
  return registration;
}

/** Polls the card's delivery list until `found` picks something, or the bound passes. */
async function untilListed<T>(account: Account, cardId: string, found: (deliveries: WebhookDeliveryState[]) => T | undefined, seconds: number): Promise<T | undefined> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const value = found(await account.webhookDeliveries(cardId));
    if (value !== undefined || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The first delivery at the receiver within `seconds`. While none has come, the deployment's
 * delivery log says why: an attempt that could not connect means the runner's receiver is out of
 * the deployment's reach, and the case is not run, with the reason, as soon as the log shows it.
 */
async function arrival(ctx: CaseContext, account: Account, cardId: string, receiver: WebhookReceiver, seconds: number): Promise<ReceivedDelivery | undefined> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const delivery = await receiver.next(Math.max(0, Math.min(1000, end - Date.now())));
    if (delivery) return delivery;
    await unreachable(ctx, account, cardId, receiver);
    if (Date.now() >= end) return undefined;
  }
}

async function unreachable(ctx: CaseContext, account: Account, cardId: string, receiver: WebhookReceiver): Promise<void> {
  const deliveries = await account.webhookDeliveries(cardId);
  const attempt = deliveries.flatMap((d) => d.attempts).find((a) => a.connectionFailed);
  if (!attempt) return;
  ctx.step(`the delivery log shows an attempt that could not connect: ${attempt.detail ?? 'no detail'}`);
  throw new NotRun(`${NOT_REACHED} at ${receiver.url}: ${attempt.detail ?? 'its delivery log shows a connection that failed'}. To run it: ${REACH_IT}`, 'capability', NOT_REACHED);
}

async function withReceiver(ctx: CaseContext, answer: ReceiverAnswer, body: (receiver: WebhookReceiver) => Promise<void>): Promise<void> {
  const receiver = await webhooksOf(ctx.env).hub.open(answer);
  try {
    await body(receiver);
  } finally {
    await receiver.close();
  }
}

/** A test delivery to a receiver that answers as asked, and the attempt the list shows for it. */
async function failedAttempt(ctx: CaseContext, answer: ReceiverAnswer, failed: (a: WebhookDeliveryState['attempts'][number]) => boolean) {
  const bound = totalTimeoutSeconds(ctx.doc) + GRACE_SECONDS;
  let outcome: { receiver: WebhookReceiver; delivery?: WebhookDeliveryState; attempt?: WebhookDeliveryState['attempts'][number] } | undefined;
  await withReceiver(ctx, answer, async (receiver) => {
    const account = await ctx.account({ plan: 'Plus' });
    const { cardId } = await register(ctx, account, receiver);
    await account.sendTestWebhook(cardId);
    ctx.step(`asked for a test delivery; the receiver ${answer === 'redirect' ? 'answers 307' : 'never answers'}`);
    const arrived = await arrival(ctx, account, cardId, receiver, bound);
    ctx.check(arrived, `a test delivery at the runner's receiver within ${bound} s`, 'none arrived, and the delivery log shows no attempt that failed to connect', spec('webhook-test-and-log'));
    const listed = await untilListed(account, cardId, (ds) => ds.find((d) => d.attempts.some(failed)), bound);
    outcome = { receiver, delivery: listed, attempt: listed?.attempts.find(failed) };
  });
  return outcome!;
}

export function webhookCases(): Case[] {
  return [
    defineCase({
      id: 'deliverAgentCardEvent/test-delivery-arrives-signed',
      title: 'A test delivery arrives signed with the card secret over t.body',
      requirements: ['webhook-signed', 'webhook-test-and-log', 'webhooks-per-card-on-paid-plans'],
      needs: { driver: [...WEBHOOK_METHODS] },
      costs: {},
      async run(ctx) {
        const bound = totalTimeoutSeconds(ctx.doc) + GRACE_SECONDS;
        await withReceiver(ctx, 'acknowledge', async (receiver) => {
          const account = await ctx.account({ plan: 'Plus' });
          const { cardId, signingSecret } = await register(ctx, account, receiver);
          await account.sendTestWebhook(cardId);
          ctx.step('asked for a test delivery');
          const delivery = await arrival(ctx, account, cardId, receiver, bound);
          if (!delivery) return ctx.fail(`a test delivery at the runner's receiver within ${bound} s`, 'none arrived, and the delivery log shows no attempt that failed to connect', spec('webhook-test-and-log'));
          let payload: { agent_card_id?: unknown } | undefined;
          try {
            payload = JSON.parse(delivery.body.toString('utf8')) as { agent_card_id?: unknown };
          } catch {
            payload = undefined;
          }
          ctx.expectEqual(payload?.agent_card_id, cardId, "the payload's agent_card_id (the card whose secret signs it):", spec('webhook-signed'));
          const declared = webhooksOf(ctx.env).signature;
          const found = findSignature(delivery.headers, delivery.body, signingSecret, declared);
          ctx.check(found, describeDeclaration(declared), `headers ${Object.keys(delivery.headers).join(', ')}, none verifying`, spec('webhook-signed'));
          if (found) ctx.step(`signed in ${found.header} with ${found.algorithm}, t ${found.t} (${found.format}) in ${found.timestampHeader}`);
          const header = documentHeader(ctx.doc);
          const value = header && delivery.headers[header.name];
          const match = header && typeof value === 'string' ? header.pattern.exec(value) : null;
          const verifies = match?.groups !== undefined && same(Buffer.from(match.groups.signature!, 'hex'), hmac('sha256', signingSecret, match.groups.t!, delivery.body));
          ctx.check(verifies, `${header?.name ?? 'the signature header'} in the document's format, verifying with HMAC-SHA256`, value === undefined ? 'no such header' : 'a value that does not verify', DOCUMENT_HEADER);
          const listed = await untilListed(account, cardId, (ds) => ds.find((d) => d.delivered) ?? undefined, bound);
          ctx.check(
            listed?.attempts.some((a) => a.statusCode === 200 && !a.failed),
            'the delivery listed as delivered, with the 200 the receiver answered',
            JSON.stringify(listed ?? 'no delivered delivery listed'),
            spec('webhook-test-and-log'),
          );
        });
      },
    }),
    defineCase({
      id: 'deliverAgentCardEvent/free-plan-cannot-register',
      title: 'Free gets no delivery to an endpoint that Plus is given',
      requirements: ['webhooks-per-card-on-paid-plans'],
      needs: { driver: [...WEBHOOK_METHODS] },
      costs: {},
      async run(ctx) {
        await withReceiver(ctx, 'acknowledge', async (receiver) => {
          // The same endpoint must be one the deployment accepts, or a refusal on Free proves nothing about the plan.
          await register(ctx, await ctx.account({ plan: 'Plus' }), receiver);
          const free = await ctx.account({ plan: 'Free' });
          const registration = await free.registerWebhook(receiver.url);
          if ('refused' in registration) {
            ctx.check(true, 'the endpoint refused on Free', '', spec('webhooks-per-card-on-paid-plans'));
            ctx.step(`on Free the deployment refused it: ${registration.refused}`);
            return;
          }
          // The other reading of section 6 item 1: Free may set an endpoint, but nothing is delivered to it.
          const before = receiver.received.length;
          await free.sendTestWebhook(registration.cardId).catch((e: Error) => ctx.step(`on Free the test delivery was refused: ${e.message}`));
          const arrived = await receiver.next(totalTimeoutSeconds(ctx.doc) * 1000);
          ctx.check(!arrived && receiver.received.length === before, 'no delivery to an endpoint set on Free', 'a delivery arrived', spec('webhooks-per-card-on-paid-plans'));
        });
      },
    }),
    defineCase({
      id: 'deliverAgentCardEvent/redirect-counts-as-failed',
      title: 'A redirect fails the delivery in the delivery list',
      requirements: ['webhook-delivery-fails'],
      needs: { driver: [...WEBHOOK_METHODS] },
      costs: {},
      async run(ctx) {
        const { receiver, delivery, attempt } = await failedAttempt(ctx, 'redirect', (a) => a.statusCode === 307);
        ctx.check(attempt?.failed, 'an attempt listed with status 307 and failed', JSON.stringify(delivery ?? 'no attempt with status 307 listed'), spec('webhook-delivery-fails', 'webhook-test-and-log'));
        ctx.check(delivery && !delivery.delivered, 'the delivery not delivered', JSON.stringify(delivery), spec('webhook-delivery-fails'));
        ctx.check(!receiver.received.some(followedRedirect), 'the redirect not followed', 'a request to the redirect\'s target', NOT_FOLLOWED);
      },
    }),
    defineCase({
      id: 'deliverAgentCardEvent/slow-receiver-counts-as-failed',
      title: 'A receiver that never answers fails the delivery in the list',
      requirements: ['webhook-delivery-fails'],
      needs: { driver: [...WEBHOOK_METHODS] },
      costs: { waits: 'up to 15 s for the deployment to give up on a receiver that never answers' },
      async run(ctx) {
        const { delivery, attempt } = await failedAttempt(ctx, 'silent', (a) => a.failed);
        ctx.check(attempt && attempt.statusCode === null, 'an attempt listed as failed, with no status code (no answer came)', JSON.stringify(delivery ?? 'no failed attempt listed'), spec('webhook-delivery-fails', 'webhook-test-and-log'));
        ctx.check(delivery && !delivery.delivered, 'the delivery not delivered', JSON.stringify(delivery), spec('webhook-delivery-fails'));
      },
    }),
  ];
}
