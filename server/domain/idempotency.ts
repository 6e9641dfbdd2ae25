import { transaction, type Db } from '../store/db.js';
import { randomBytes } from '../store/random.js';
import type { Sealer } from '../store/secrets.js';
import { findLink } from '../store/links.js';
import {
  answerIdempotencyKey,
  claimIdempotencyKey,
  findIdempotencyKey,
  purgeIdempotencyKeys,
  releaseIdempotencyKey,
  type IdempotencyRow,
} from '../store/idempotency.js';
import type { Clock } from './clock.js';

/**
 * Idempotent writes, the reference server's own (the document's `Idempotency-Key` parameter): the
 * first final answer to a key is kept for the key's window, and the same write sent again with that
 * key is answered with it instead of being carried out again. Every decision reads and claims the
 * key in one transaction, so two requests with one key, in one process, in two on the same file or
 * in two replicas on one PostgreSQL database, never both go on.
 */

/** An answer as it was sent: what a replay sends again. */
export interface KeptAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** The request that holds a key while it is processed. */
export interface Claim {
  readonly credential: string;
  readonly key: string;
  readonly owner: string;
}

export type Decision =
  /** The key is this request's: carry it out, then `keep` or `release`. */
  | { kind: 'claimed'; claim: Claim }
  /** The same write was answered: send this again. */
  | { kind: 'replay'; answer: KeptAnswer }
  /** The key was sent with another body or path. */
  | { kind: 'reused' }
  /** The first request with the key is still being processed. */
  | { kind: 'in-use' };

export interface IdempotentRequest {
  /** Whose key it is: the API key, or the account-holder link (http/idempotency.ts names them). */
  credential: string;
  key: string;
  method: string;
  path: string;
  /** The body's bytes as they arrived. */
  body: Buffer;
}

export interface IdempotencySettings {
  /** How long a kept answer is replayed, from the key's first request (`idempotency-key-window`). */
  windowMs: number;
  /** How long an unanswered claim holds its key (`idempotency-key-in-flight`). */
  inFlightMs: number;
}

/** How often keys past their window are deleted, at most. */
const PURGE_EVERY_MS = 10 * 60 * 1000;

/**
 * Only final answers are kept: a 2xx, or a 4xx that the same request would get again. A 401 (the
 * key may work again), a 408 (the request did not arrive) and a 429 (a limit that will reset) are
 * not, nor any 5xx: sending the key again then tries the write again. A 409
 * `idempotency_key_in_use` is never a claimed request's answer, so it is never kept either.
 */
export function keepsAnswer(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429);
}

export class IdempotentWrites {
  private purgedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: { db: Db; sealer: Sealer; clock: Clock },
    private readonly settings: IdempotencySettings,
  ) {}

  /** What to do with a request that carries a key: go on with it, answer it again, or refuse it. */
  async begin(request: IdempotentRequest): Promise<Decision> {
    const { db, sealer, clock } = this.deps;
    // Tags, not hashes: a body of a few guessable members (a website and an email) cannot be
    // confirmed against them without the master key. latin1 keeps every byte as one character.
    const requestTag = sealer.tag('idempotency-request', `${request.method} ${request.path}`);
    const bodyTag = sealer.tag('idempotency-body', request.body.toString('latin1'));
    const purge = clock.now() - this.purgedAt >= PURGE_EVERY_MS;
    // Read and claim in one transaction (run again whole on PostgreSQL after a conflict), so two
    // requests with one key, on one process or on two, never both claim it.
    const decision = await transaction(db, async (tx): Promise<Decision> => {
      const now = clock.now();
      if (purge) await purgeIdempotencyKeys(tx, now - this.settings.windowMs);
      const row = await findIdempotencyKey(tx, request.credential, request.key);
      if (row && !this.over(row, now)) {
        if (!row.request_tag.equals(requestTag) || !row.body_tag.equals(bodyTag)) return { kind: 'reused' };
        if (row.answer === null) return { kind: 'in-use' };
        return { kind: 'replay', answer: this.open(row.answer) };
      }
      const claim: Claim = { credential: request.credential, key: request.key, owner: randomBytes(12).toString('base64url') };
      await claimIdempotencyKey(tx, { ...claim, requestTag, bodyTag, startedAt: now });
      return { kind: 'claimed', claim };
    });
    if (purge) this.purgedAt = clock.now();
    return decision;
  }

  /** Keeps the claim's final answer; an answer that is not final frees the key instead. */
  async finish(claim: Claim, answer: KeptAnswer): Promise<void> {
    const { db, sealer } = this.deps;
    if (!keepsAnswer(answer.status)) return this.release(claim);
    const sealed = sealer.seal(JSON.stringify({ status: answer.status, headers: answer.headers, body: answer.body.toString('base64') }));
    await transaction(db, (tx) => answerIdempotencyKey(tx, claim.credential, claim.key, claim.owner, sealed));
  }

  /** Frees the claim's key, so that the write is tried again when it is sent again. */
  async release(claim: Claim): Promise<void> {
    const { db } = this.deps;
    await transaction(db, (tx) => releaseIdempotencyKey(tx, claim.credential, claim.key, claim.owner));
  }

  /** A kept answer past the window, or a claim past the in-flight bound (its process stopped). */
  private over(row: IdempotencyRow, now: number): boolean {
    return now >= row.started_at + (row.answer === null ? this.settings.inFlightMs : this.settings.windowMs);
  }

  private open(sealed: Buffer): KeptAnswer {
    const kept = JSON.parse(this.deps.sealer.open(sealed)) as { status: number; headers: KeptAnswer['headers']; body: string };
    return { status: kept.status, headers: kept.headers, body: Buffer.from(kept.body, 'base64') };
  }
}

/** The credential that owns an API key's idempotency keys: the key, by its id. */
export function keyCredential(keyId: string): string {
  return `key:${keyId}`;
}

/**
 * The credential that owns an account-holder link's idempotency keys: the link, by a tag of its
 * token (never the token). Only a link that exists, in any state, owns keys: a stranger's guesses
 * at tokens store nothing, and are refused by the link's own lookup.
 */
export async function linkCredential(deps: { db: Db; sealer: Sealer }, token: string): Promise<string | undefined> {
  if (!(await findLink(deps.db, deps.sealer, token))) return undefined;
  return `link:${deps.sealer.tag('idempotency-link', token).toString('base64url')}`;
}
