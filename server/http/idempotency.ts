import type { Request, RequestHandler, Response } from 'express';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Contract, Operation } from '../contract.js';
import { ApiError } from '../domain/errors.js';
import { keyCredential, linkCredential, type Claim, type IdempotentWrites, type KeptAnswer } from '../domain/idempotency.js';
import type { Db } from '../store/db.js';
import type { Sealer } from '../store/secrets.js';
import { context } from './context.js';
import { receiveBody } from './body.js';
import type { Log } from './logging.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/**
 * The `Idempotency-Key` header of the document (components/parameters/IdempotencyKey), honoured on
 * exactly the operations that list it. Two stages:
 * - `echo`, as soon as the operation is known: a well-formed key is sent back on every answer, so a
 *   caller learns that this deployment honours keys;
 * - `decide`, after authentication (a key belongs to a credential, and a 401 is never kept) and
 *   before the per-minute limits (a replay charges nothing): reads the body, which the decision
 *   compares, then replays the kept answer, refuses, or claims the key and keeps the answer the
 *   request ends with. The body's cap, media type and charset are checked first, and a refusal of
 *   theirs keeps nothing; the rest of the pipeline (limits, validation, the handler) runs on the
 *   claimed key, and its final answer is kept, a 400 included.
 */

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const REPLAYED_HEADER = 'Idempotent-Replayed';
const PARAMETER = IDEMPOTENCY_KEY_HEADER.toLowerCase();
/** Seconds a request that found its key in use waits before sending it again. */
const IN_USE_RETRY_AFTER = 1;

// Per request, or to the connection: never part of the answer a key keeps.
const NOT_KEPT = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding', 'date', REQUEST_ID_HEADER.toLowerCase(), PARAMETER, REPLAYED_HEADER.toLowerCase()]);

export interface IdempotencyDeps {
  writes: IdempotentWrites;
  contract: Contract;
  db: Db;
  sealer: Sealer;
  log: Log;
}

const keys = new WeakMap<Request, string | { malformed: true }>();

export function idempotency(deps: IdempotencyDeps): { echo: RequestHandler; decide: RequestHandler } {
  const honoured = honouringOperations(deps.contract);
  return {
    echo: (req, res, next) => {
      const op = context(req).operation;
      const value = req.headers[PARAMETER];
      if (!op || value === undefined) return next();
      const wellFormed = honoured.get(op.operationId);
      if (!wellFormed) return next();
      // Two fields arrive joined by ", ", which no key may contain: refused as malformed.
      if (typeof value !== 'string' || !wellFormed(value)) {
        keys.set(req, { malformed: true });
        return next();
      }
      keys.set(req, value);
      res.setHeader(IDEMPOTENCY_KEY_HEADER, value);
      next();
    },
    decide: (req, res, next) => {
      const key = keys.get(req);
      if (key === undefined) return next();
      const op = context(req).operation!;
      if (typeof key !== 'string') throw malformed(op);
      return credentialOf(req, deps).then(async (credential) => {
        if (credential === undefined) return next();
        const body = await receiveBody(req, res);
        const decision = await deps.writes.begin({ credential, key, method: req.method, path: pathOf(req), body });
        if (decision.kind === 'replay') return replay(res, decision.answer);
        if (decision.kind === 'reused') {
          throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with another body or path; send this request with a new key.');
        }
        if (decision.kind === 'in-use') {
          throw new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; send it again after Retry-After seconds.', {
            retryAfter: IN_USE_RETRY_AFTER,
          });
        }
        keepAnswer(res, decision.claim, deps);
        next();
      });
    },
  };
}

/** operationId → the check of a key's value, for each operation whose document lists the header. */
function honouringOperations(contract: Contract): Map<string, (value: string) => boolean> {
  const ajv = new Ajv2020({ strict: false });
  const out = new Map<string, (value: string) => boolean>();
  for (const op of contract.operations.values()) {
    const parameter = ((op.raw.parameters ?? []) as unknown[]).map((p) => contract.resolve(p)).find((p) => p?.in === 'header' && String(p.name).toLowerCase() === PARAMETER);
    if (!parameter) continue;
    const validate = ajv.compile(parameter.schema ?? {});
    out.set(op.operationId, (value) => validate(value));
  }
  return out;
}

function malformed(op: Operation): ApiError {
  const message = 'The Idempotency-Key header must be 1 to 255 visible ASCII characters, sent once.';
  const errors = op.validationErrorCode === 'invalid_recipe' ? { errors: [{ path: '', message: 'is sent with an Idempotency-Key header that is not 1 to 255 visible ASCII characters' }] } : {};
  return new ApiError(400, op.validationErrorCode, message, errors);
}

/** The API key that authenticated the request, or the account-holder link its path names. */
async function credentialOf(req: Request, deps: IdempotencyDeps): Promise<string | undefined> {
  const ctx = context(req);
  if (ctx.key) return keyCredential(ctx.key.id);
  const token = ctx.params.token;
  return token === undefined ? undefined : linkCredential(deps, token);
}

/** The path as sent, without its query: what a key's write is compared by, beside its method and body. */
function pathOf(req: Request): string {
  const url = req.originalUrl ?? req.url;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function replay(res: Response, answer: KeptAnswer): void {
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(REPLAYED_HEADER, 'true');
  res.setHeader('Content-Length', answer.body.length);
  res.statusCode = answer.status;
  res.end(answer.body);
}

/**
 * Keeps what the request is answered, as it is handed to the connection: its status, the headers
 * that belong to the answer, and every byte of its body. The head is fixed when the answer ends, and
 * the end goes out once the answer is kept, so a caller that sends the key again as soon as it has
 * the answer finds it kept, and an answer lost with its process was never received.
 */
function keepAnswer(res: Response, claim: Claim, deps: IdempotencyDeps): void {
  const chunks: Buffer[] = [];
  const collect = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response['write'];
  res.end = function (this: Response, ...args: unknown[]) {
    res.write = write;
    res.end = end;
    if (typeof args[0] !== 'function') collect(args[0], args[1]);
    const answer = answerOf(this, Buffer.concat(chunks));
    // Written now, the head counts as sent (the handler is done); its bytes go with the end.
    if (!this.headersSent) this.writeHead(this.statusCode);
    void settle(claim, deps, answer, this).then(() => (end as (...a: unknown[]) => Response).apply(this, args));
    return this;
  } as Response['end'];
}

function answerOf(res: Response, body: Buffer): KeptAnswer {
  const headers: KeptAnswer['headers'] = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value !== undefined && !NOT_KEPT.has(name)) headers[name] = typeof value === 'number' ? String(value) : value;
  }
  return { status: res.statusCode, headers, body };
}

/** Keeps the answer, or frees the key; never fails, since the answer goes out whatever happens here. */
async function settle(claim: Claim, deps: IdempotencyDeps, answer: KeptAnswer, res: Response): Promise<void> {
  try {
    await deps.writes.finish(claim, answer);
  } catch (err) {
    // A key that cannot be settled frees itself after its in-flight bound.
    deps.log({ level: 'error', msg: 'idempotency key not settled', requestId: res.getHeader(REQUEST_ID_HEADER), error: err instanceof Error ? err.message : String(err) });
    await deps.writes.release(claim).catch(() => undefined);
  }
}
