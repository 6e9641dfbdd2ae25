import type { Response } from 'express';
import type { Db } from '../store/db.js';
import { cachedRead } from '../store/read-cache.js';
import type { ItemVerdicts } from './validated-items.js';

/** The longest key kept: an answer keyed by a long query value a caller chose is built every time. */
const MAX_KEY_LENGTH = 512;
const JSON_UTF8 = 'application/json; charset=utf-8';

/** An answer's place in the cache: its bytes once it has been sent and let through. */
export interface Kept {
  bytes?: Buffer;
}

/**
 * A 200 JSON answer that depends only on stored data is kept as the bytes first sent until that
 * data may have changed: a write to its `scope` (store/read-cache.ts). The first time, it goes through res.json, so the
 * validator's response hook checks it, and it is kept only when that check let it through.
 * Afterwards the same bytes are sent with the Content-Type res.json sets, as res.send sends bytes
 * (Content-Length, HEAD, conditional requests), which is what res.json does after serialising:
 * nothing is built, serialised or validated again, and a check of the same bytes against the same schema has one
 * verdict. For operations whose 200 has one media type, so the verdict does not depend on Accept.
 */
export async function kept(db: Db, key: string, scope: string): Promise<Kept> {
  return key.length <= MAX_KEY_LENGTH ? await cachedRead<Kept>(db, `answer:${key}`, newKept, scope) : newKept();
}

const newKept = (): Promise<Kept> => Promise.resolve({});

/** An answer's JSON bytes in pieces, with their length; `join` makes them the one buffer kept. */
export interface JsonPieces {
  pieces: Buffer[];
  length: number;
  join(): Buffer;
}

/** What res.json makes of a body whose JSON `text` gives: a stand-in that sendKept replaces. */
const STAND_IN = 'kept-json: serialised by its text';
const STAND_IN_JSON = JSON.stringify(STAND_IN);

/** A request res.send answers itself, with 304, when the answer is fresh. */
const conditional = (res: Response) => res.req.headers['if-none-match'] !== undefined || res.req.headers['if-modified-since'] !== undefined;

/**
 * Sends the kept bytes with status 200, or else `body`, keeping it when the response hook let it
 * through. `json`, when given, makes the UTF-8 bytes of JSON.stringify(body) more cheaply (from
 * kept parts): res.json still hands `body` to the response hook, and only its serialising is replaced.
 * Those bytes are written in their pieces, and joined into the bytes kept once they are written.
 * With `verdicts` too, the hook is handed `body` without the array items it has already let through.
 */
export function sendKept(res: Response, answer: Kept, body?: unknown, json?: () => JsonPieces, verdicts?: ItemVerdicts): void {
  res.statusCode = 200;
  if (answer.bytes) {
    if (res.getHeader('Content-Type') === undefined) res.setHeader('Content-Type', JSON_UTF8);
    // It answers a conditional request itself (If-None-Match: * is fresh without an ETag), so such
    // a request still goes through it.
    if (conditional(res)) res.send(answer.bytes);
    else sendBytes(res, [answer.bytes], answer.bytes.length);
    return;
  }
  // The text res.json made is what is kept: a large catalog is serialised once, not twice, and
  // encoded once: the bytes sent are the bytes kept, with the charset res.send would add to the text.
  const send = res.send;
  const own = Object.hasOwn(res, 'send');
  let bytes: Buffer | undefined;
  let written: JsonPieces | undefined;
  const restore = () => {
    if (own) res.send = send;
    else delete (res as Partial<Response>).send;
  };
  const standIn = json !== undefined && typeof body === 'object' && body !== null;
  // The bytes come from `json`, so what the hook is handed need not serialise to them.
  const checked = standIn && verdicts ? verdicts.unseen(body) : body;
  if (standIn) Object.defineProperty(checked, 'toJSON', { value: () => STAND_IN, configurable: true });
  res.send = function (this: Response, chunk: unknown) {
    restore();
    if (typeof chunk !== 'string') return send.call(this, chunk);
    const replaced = standIn && chunk === STAND_IN_JSON;
    const type = this.get('Content-Type');
    if (type !== 'application/json' && type !== JSON_UTF8) {
      // Another type: res.send gives it its charset from the text, as it always has.
      const text = replaced ? json().join().toString('utf8') : chunk;
      bytes = Buffer.from(text);
      return send.call(this, text);
    }
    this.set('Content-Type', JSON_UTF8);
    if (!replaced) {
      bytes = Buffer.from(chunk);
      return send.call(this, bytes);
    }
    const made = json();
    if (conditional(this)) {
      bytes = made.join();
      return send.call(this, bytes);
    }
    sendBytes(this, made.pieces, made.length);
    written = made;
    return this;
  } as Response['send'];
  try {
    res.json(checked);
  } finally {
    restore();
    if (standIn) delete (checked as { toJSON?: unknown }).toJSON;
  }
  // A refusal of the response hook has been answered by the error handler, with another status.
  if (res.statusCode === 200 && (bytes || written)) {
    answer.bytes = bytes ?? written!.join();
    if (checked !== body) verdicts!.passed(body as object, checked as object);
  }
}

/**
 * What res.send does with bytes for a request that is not conditional, in its order, written out:
 * Content-Length, then the body but to HEAD. Pieces go out in one write of the socket.
 */
function sendBytes(res: Response, pieces: Buffer[], length: number): void {
  res.setHeader('Content-Length', length);
  if (res.req.method === 'HEAD' || pieces.length === 1) {
    res.end(res.req.method === 'HEAD' ? undefined : pieces[0]);
    return;
  }
  res.cork();
  for (const piece of pieces) res.write(piece);
  res.end();
  res.uncork();
}
