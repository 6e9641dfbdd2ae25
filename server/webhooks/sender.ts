import { randomBytes } from 'node:crypto';
import type { Db } from '../store/db.js';
import type { Sealer } from '../store/secrets.js';
import type { Clock } from '../domain/clock.js';
import { newId } from '../store/ids.js';
import { insertAttempt, insertDelivery } from '../store/webhooks.js';
import type { WebhookFormat } from './format.js';
import { attemptDelivery, systemConnector, systemResolver, type Connector, type Resolver } from './deliver.js';

/** What the sender reaches the network and the wall clock through; tests replace each. */
export interface WebhookTransport {
  resolve: Resolver;
  connect: Connector;
  /** The time a delivery is signed with (`t`) and its attempts are logged at: the receiver compares `t` with its own clock, so a manual sandbox clock never signs. */
  wallClock: () => number;
  /** Shorter time-outs for tests; the document's (section 6 item 2) otherwise. */
  noDataTimeoutMs?: number;
  totalTimeoutMs?: number;
}

export const systemTransport: WebhookTransport = { resolve: systemResolver, connect: systemConnector, wallClock: () => Date.now() };

export interface WebhookSenderOptions {
  db: Db;
  sealer: Sealer;
  clock: Clock;
  format: WebhookFormat;
  /** The deployment setting that lets a receiver on this machine (loopback, http:// too) take deliveries. */
  allowLoopback: boolean;
  transport?: Partial<WebhookTransport>;
}

/** A new signing secret: 32 random bytes, with a prefix that says what it is when it turns up in a paste. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * Sends deliveries in the background and records every attempt. The reference makes one attempt
 * per delivery (`retries` of the document's `x-webhook-delivery` is empty): the account holder
 * reads the outcome in the delivery list and sends again.
 */
export class WebhookSender {
  private readonly transport: WebhookTransport;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: WebhookSenderOptions) {
    this.transport = { ...systemTransport, ...options.transport };
    if (options.format.retries.length > 0) throw new Error('this server does not retry webhook deliveries; the document asks for retries');
  }

  /** Starts a test delivery to `url`, signed with `secret`; returns its ids at once. */
  sendTest(cardId: string, url: string, secret: string): { deliveryId: string; eventId: string } {
    const { db, clock } = this.options;
    const deliveryId = newId('whd');
    const eventId = newId('evt');
    const createdAt = clock.now();
    const event = { id: eventId, type: 'test', created_at: new Date(createdAt).toISOString(), agent_card_id: cardId };
    insertDelivery(db, { id: deliveryId, card_id: cardId, event_id: eventId, event_type: 'test', url, created_at: createdAt });
    const done = this.deliver(deliveryId, new URL(url), Buffer.from(JSON.stringify(event)), secret).finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
    return { deliveryId, eventId };
  }

  /** Resolves once every delivery started so far has its attempt recorded (tests, and a clean stop). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async deliver(deliveryId: string, url: URL, body: Buffer, secret: string): Promise<void> {
    const { format, allowLoopback, db } = this.options;
    const { wallClock, resolve, connect } = this.transport;
    const started = wallClock();
    const t = String(format.timestampUnit === 'milliseconds' ? started : Math.floor(started / 1000));
    const result = await attemptDelivery({
      url,
      body,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'credential-vault-webhooks/1',
        [format.header]: format.headerValue(t, format.sign(secret, t, body)),
      },
      allowLoopback,
      noDataTimeoutMs: this.transport.noDataTimeoutMs ?? format.noDataTimeoutMs,
      totalTimeoutMs: this.transport.totalTimeoutMs ?? format.totalTimeoutMs,
      responseBodyCap: format.responseBodyCap,
      resolve,
      connect,
    }).catch((e: Error) => ({ statusCode: null, outcome: 'connection_failed' as const, detail: `The attempt failed (${e.message}).` }));
    try {
      insertAttempt(db, { delivery_id: deliveryId, attempt: 1, started_at: started, duration_ms: Math.max(0, wallClock() - started), ...result, status_code: result.statusCode });
    } catch {
      // The database closed while the attempt was in flight (a stop): the delivery stays listed as pending.
    }
  }
}
