import type { RequestHandler } from 'express';
import { ApiError } from '../domain/errors.js';
import { context } from './context.js';

/** Bodies of operations without a documented cap; generous, but never unbounded. */
const DEFAULT_CAP = 64 * 1024;

/**
 * Reads a JSON body, counting bytes as they arrive and cutting the request at the operation's cap
 * (sections 4.3, 4.5) without reading the rest. Then parses it and removes member names with the
 * operation's `x-removed-key-prefix`, at every depth, before anything else sees the body.
 */
export function readJsonBody(): RequestHandler {
  return (req, res, next) => {
    const op = context(req).operation;
    if (!op || !hasBody(req.headers)) return next();
    const cap = op.bodyLimit?.value ?? DEFAULT_CAP;
    const tooLarge = () =>
      new ApiError(op.bodyLimit?.status ?? 413, op.bodyLimit?.code ?? 'bad_request', `The request body is larger than ${cap} bytes.`, {
        headers: { Connection: 'close' },
      });
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) return refuse(req, next, tooLarge());

    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err?: unknown) => {
      if (done) return;
      done = true;
      req.off('data', onData).off('end', onEnd).off('error', onError);
      if (err) return refuse(req, next, err);
      try {
        req.body = parse(Buffer.concat(chunks, size), op.removedKeyPrefix, op.validationErrorCode);
        next();
      } catch (e) {
        next(e);
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) return finish(tooLarge());
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = () => finish(new ApiError(400, op.validationErrorCode, 'The request body could not be read.'));
    req.on('data', onData).on('end', onEnd).on('error', onError);
  };
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

/** Stops reading: the rest of the body is never consumed, and the connection closes after the answer. */
function refuse(req: Parameters<RequestHandler>[0], next: Parameters<RequestHandler>[2], err: unknown) {
  req.pause();
  req.unpipe?.();
  next(err);
}

function parse(raw: Buffer, removedPrefix: string | undefined, code: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, code, 'The request body is not valid JSON.', code === 'invalid_recipe' ? { errors: [{ path: '', message: 'not valid JSON' }] } : {});
  }
  return removedPrefix ? strip(value, removedPrefix) : value;
}

function strip(value: unknown, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((v) => strip(v, prefix));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // defineProperty, so a member named "__proto__" stays a plain member and never a prototype.
    if (!k.startsWith(prefix)) Object.defineProperty(out, k, { value: strip(v, prefix), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
