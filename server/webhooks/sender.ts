import { randomBytes } from 'node:crypto';
import type { Db } from '../store/db.js';
import { newId } from '../store/ids.js';
import { insertDelivery, overdueDeliveries, recordAttempt, type AttemptRow } from '../store/webhooks.js';
import type { WebhookFormat } from './format.js';
import { attemptDelivery, INTERRUPTED_DETAIL, systemConnector, systemResolver, type Connector, type Resolver } from './deliver.js';

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
  /** The sandbox's clock, which a delivery's creation time is read from. */
  clock: { now(): number };
  format: WebhookFormat;
  /** The deployment setting that lets a receiver on this machine (loopback, http:// too) take deliveries. */
  allowLoopback: boolean;
  transport?: Partial<WebhookTransport>;
}

/**
 * How long past its total bound an attempt may take to be recorded before it is taken for cut off:
 * its outcome is written a moment after the bound, by a process that may be busy.
 */
export const RECORDING_GRACE_MS = 1000;

/** A new signing secret: 32 random bytes, with a prefix that says what it is when it turns up in a paste. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

interface InFlight {
  deliveryId: string;
  started: number;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Sends deliveries in the background and records every attempt. The reference makes one attempt
 * per delivery (`retries` of the document's `x-webhook-delivery` is empty): the account holder
 * reads the outcome in the delivery list and sends again. Every delivery gets an outcome: one cut
 * off by a stop is recorded `interrupted` by `stop()`, and one cut off by a crash (or by a stop of
 * another process on the same file) by `settleOverdue()` once its attempt is over at the latest.
 */
export class WebhookSender {
  private readonly transport: WebhookTransport;
  private readonly inFlight = new Set<InFlight>();
  private stopped = false;

  constructor(private readonly options: WebhookSenderOptions) {
    this.transport = { ...systemTransport, ...options.transport };
    if (options.format.retries.length > 0) throw new Error('this server does not retry webhook deliveries; the document asks for retries');
    // Settled in the background: a delivery cut off by an earlier stop or crash is recorded soon after
    // start. A database not reachable yet must not end the process: the next listing settles them.
    this.settleOverdue().catch(() => undefined);
  }

  get format(): WebhookFormat {
    return this.options.format;
  }

  private get totalTimeoutMs(): number {
    return this.transport.totalTimeoutMs ?? this.options.format.totalTimeoutMs;
  }

  /** Starts a test delivery to `url`, signed with each of `secrets` (the current one first); returns its ids at once. */
  async sendTest(cardId: string, url: string, secrets: string[]): Promise<{ deliveryId: string; eventId: string }> {
    if (this.stopped) throw new Error('the webhook sender has stopped');
    const { db, clock } = this.options;
    const deliveryId = newId('whd');
    const eventId = newId('evt');
    const createdAt = clock.now();
    const event = { id: eventId, type: 'test', created_at: new Date(createdAt).toISOString(), agent_card_id: cardId };
    const started = this.transport.wallClock();
    await insertDelivery(db, { id: deliveryId, card_id: cardId, event_id: eventId, event_type: 'test', url, created_at: createdAt }, started + this.totalTimeoutMs + RECORDING_GRACE_MS);
    const abort = new AbortController();
    const flight: InFlight = { deliveryId, started, abort, done: Promise.resolve() };
    flight.done = this.deliver(flight, new URL(url), Buffer.from(JSON.stringify(event)), secrets).finally(() => this.inFlight.delete(flight));
    this.inFlight.add(flight);
    return { deliveryId, eventId };
  }

  /** Resolves once every delivery started so far has its attempt recorded (tests, and a clean stop). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight].map((f) => f.done));
  }

  /**
   * A stop: every attempt in flight ends now and is recorded `interrupted`, while the database is
   * still open (the caller closes it next). Nothing is sent again after a restart.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const flight of this.inFlight) {
      await this.record(flight.deliveryId, { started_at: flight.started, duration_ms: this.transport.wallClock() - flight.started, status_code: null, outcome: 'interrupted', detail: INTERRUPTED_DETAIL });
      flight.abort.abort();
    }
  }

  /** Records `interrupted` for every delivery whose attempt is over at the latest and was never recorded. */
  async settleOverdue(): Promise<void> {
    const now = this.transport.wallClock();
    const window = this.totalTimeoutMs + RECORDING_GRACE_MS;
    for (const { id, pending_until } of await overdueDeliveries(this.options.db, now)) {
      await this.record(id, { started_at: pending_until > window ? pending_until - window : now, duration_ms: 0, status_code: null, outcome: 'interrupted', detail: INTERRUPTED_DETAIL });
    }
  }

  private async record(deliveryId: string, attempt: Omit<AttemptRow, 'delivery_id' | 'attempt'>): Promise<void> {
    try {
      await recordAttempt(this.options.db, { delivery_id: deliveryId, attempt: 1, ...attempt });
    } catch {
      // The database closed while the attempt was in flight: stop() recorded it first, or the next start will.
    }
  }

  private async deliver(flight: InFlight, url: URL, body: Buffer, secrets: string[]): Promise<void> {
    const { format, allowLoopback } = this.options;
    const { wallClock, resolve, connect } = this.transport;
    const t = String(format.timestampUnit === 'milliseconds' ? flight.started : Math.floor(flight.started / 1000));
    const result = await attemptDelivery({
      url,
      body,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'credential-vault-webhooks/1',
        [format.header]: format.headerValue(t, secrets.map((secret) => format.sign(secret, t, body))),
      },
      allowLoopback,
      noDataTimeoutMs: this.transport.noDataTimeoutMs ?? format.noDataTimeoutMs,
      totalTimeoutMs: this.totalTimeoutMs,
      responseBodyCap: format.responseBodyCap,
      resolve,
      connect,
      signal: flight.abort.signal,
    }).catch((e: Error) => ({ statusCode: null, outcome: 'connection_failed' as const, detail: `The attempt failed (${e.name}).` }));
    await this.record(flight.deliveryId, { started_at: flight.started, duration_ms: Math.max(0, wallClock() - flight.started), status_code: result.statusCode, outcome: result.outcome, detail: result.detail });
  }
}
