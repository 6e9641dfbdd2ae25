import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { LimitDef, Operation } from '../contract.js';
import { ApiError } from '../domain/errors.js';
import { REFUSED_MEMBER_NAMES } from '../domain/member-names.js';
import { context } from './context.js';
import { fieldCount } from './header-fields.js';

/** The rules every JSON body follows, whatever the operation (the document's "Request bodies"). */
export interface BodyRules {
  /** The root `x-limits` `body-nesting-depth`. */
  nesting: LimitDef;
  /** Runs before the body is read, whether or not one is sent; throws to refuse the request. */
  beforeBody?: (req: Request) => void | Promise<void>;
  /** Whether the operation also takes the form a browser posts (`application/x-www-form-urlencoded`). */
  takesForm?: (op: Operation) => boolean;
}

const FORM = 'application/x-www-form-urlencoded';
const EXPECTS_CONTINUE = /^[ \t]*100-continue[ \t]*$/i;

// fatal: bytes that are not UTF-8 are refused, never replaced with U+FFFD (which would store
// text the client never sent). ignoreBOM keeps a byte order mark in the text, so JSON.parse
// refuses it as it always has.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// Half of a surrogate pair on its own (`"\ud800"` is valid JSON escaping): not a character,
// and stored as UTF-8 it would silently become U+FFFD.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Reads the JSON body of an operation that takes one (receiveBody), then checks, in this order and
 * before anything walks the value: UTF-8, the nesting depth (on the raw bytes, so no recursive walk
 * ever meets a deeper body), JSON, and well-formed strings; and removes member names with the
 * operation's `x-removed-key-prefix`, at every depth. A body sent to an operation that takes none is
 * never read.
 */
export function readJsonBody(rules: BodyRules): RequestHandler {
  const depth = rules.nesting.value;
  if (depth === undefined) throw new Error('body-nesting-depth needs a value');
  const maxDepth: number = depth;
  return (req, res, next) => {
    const op = context(req).operation;
    if (!op) return next();
    // A check that reads the store settles first; its refusal comes before any body is read.
    const gate = rules.beforeBody?.(req);
    if (gate) return gate.then(() => readBody(req, res, next, op));
    return readBody(req, res, next, op);
  };

  function readBody(req: Request, res: Response, next: NextFunction, op: Operation): void {
    if (!op.readsJson || !hasBody(req.headers)) return next();
    receiveBody(req, res).then((raw) => {
      try {
        req.body =
          rules.takesForm?.(op) && req.is(FORM)
            ? parseForm(raw, op.validationErrorCode)
            : parse(raw, maxDepth, op.removedKeyPrefix, op.validationErrorCode);
      } catch (e) {
        return next(e);
      }
      next();
    }, next);
  }
}

const received = new WeakMap<Request, Buffer>();
const NO_BODY = Buffer.alloc(0);

/**
 * The bytes of the request's body, read once however many stages ask (idempotent writes read it
 * before the per-minute limits, http/idempotency.ts): counted as they arrive and cut at the
 * operation's cap (sections 4.3, 4.5) without reading the rest. Refused before reading: two
 * Content-Type fields, a charset other than UTF-8, a declared length over the cap. A request that
 * declares no body, or whose operation takes none, has no bytes. A refusal stops reading, and the
 * connection closes after the answer.
 */
export function receiveBody(req: Request, res: Response): Promise<Buffer> {
  const op = context(req).operation!;
  const known = received.get(req);
  if (known) return Promise.resolve(known);
  if (!op.readsJson || !hasBody(req.headers)) return Promise.resolve(NO_BODY);
  const refusal = refusedUnread(req, op);
  if (refusal) return stopReading(req, refusal);
  // Every check that needs no body has passed: only now is the client invited to send it
  // (http/server.ts leaves 100 Continue to this point).
  if (EXPECTS_CONTINUE.test(req.headers.expect ?? '')) res.writeContinue();
  const cap = op.bodyLimit!.value!;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (err?: unknown) => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
      if (err) {
        req.pause();
        req.unpipe?.();
        return reject(err);
      }
      const raw = Buffer.concat(chunks, size);
      received.set(req, raw);
      resolve(raw);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) return finish(tooLarge(op));
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = () => finish(new ApiError(400, op.validationErrorCode, 'The request body could not be read.'));
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** Why a body must not be read at all, from the request's head alone. */
function refusedUnread(req: Request, op: Operation): ApiError | undefined {
  // Node reads the first of two Content-Type fields, a proxy may read the last: the body's media
  // type is then not known, as two Authorization fields name no one key.
  if (fieldCount(req.rawHeaders, 'content-type') > 1) {
    return bodyRefusal(op, 'Send one Content-Type header; this request sends more than one.', 'is sent with more than one Content-Type header');
  }
  // RFC 8259 section 8.1: JSON exchanged between systems is UTF-8. Every charset parameter is read,
  // however it is spelt, so no reader behind this one can take the bytes for another encoding.
  const other = charsets(req.headers['content-type'] ?? '').find((c) => !UTF8_LABELS.has(c.toLowerCase()));
  if (other !== undefined) {
    return bodyRefusal(op, `Send the body in UTF-8; this request declares charset=${other}.`, `is declared in charset ${other}, not UTF-8`);
  }
  const cap = op.bodyLimit!.value!;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) return tooLarge(op);
  return undefined;
}

// The labels of UTF-8 that senders use (the WHATWG Encoding Standard's two common ones).
const UTF8_LABELS = new Set(['utf-8', 'utf8']);
const CHARSET_PARAMETER = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/gi;

/** Every charset parameter of a Content-Type value, quoted or not. */
function charsets(contentType: string): string[] {
  return [...contentType.matchAll(CHARSET_PARAMETER)].map((m) => m[1] ?? m[2] ?? '');
}

/** The operation's own 400; invalid_recipe lists the problem with the body's path. */
function bodyRefusal(op: Operation, message: string, problem: string): ApiError {
  return new ApiError(400, op.validationErrorCode, message, op.validationErrorCode === 'invalid_recipe' ? { errors: [{ path: '', message: problem }] } : {});
}

function tooLarge(op: Operation): ApiError {
  const limit = op.bodyLimit!;
  return new ApiError(limit.status ?? 413, limit.code ?? 'bad_request', `The request body is larger than ${limit.value} bytes.`, {
    headers: { Connection: 'close' },
  });
}

/** Whether the request declares a body (a length above zero, or chunked framing). */
export function hasBody(headers: Request['headers']): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

/** Stops reading: the rest of the body is never consumed, and the connection closes after the answer. */
function stopReading(req: Request, err: unknown): Promise<never> {
  req.pause();
  req.unpipe?.();
  return Promise.reject(err);
}

function parse(raw: Buffer, maxDepth: number, removedPrefix: string | undefined, code: string): unknown {
  // invalid_recipe lists its problems: the body's own, or the one the sentence names.
  const refuse = (message: string, errors = [{ path: '', message: asProblem(message) }]) => new ApiError(400, code, message, code === 'invalid_recipe' ? { errors } : {});
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw refuse('The request body is not valid UTF-8.');
  }
  const written = membersWritten(raw, maxDepth);
  if (written < 0) throw refuse(`The request body nests arrays and objects deeper than ${maxDepth} levels.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse('The request body is not valid JSON.');
  }
  const read = membersRead(value);
  if (read < 0) throw refuse('The request body has a string with half of a surrogate pair, which is not a character.');
  // JSON.parse keeps the last of two members with one name: fewer members read than written means
  // an object names one twice (RFC 8259 section 4: its meaning is unpredictable), so it is refused.
  if (read !== written) {
    const twice = nameGivenTwice(text)!;
    throw refuse(`The request body names the member "${twice.name}" twice in one object (at ${twice.path}); each name may appear once.`, [
      { path: twice.path, message: 'is a member name given twice in one object' },
    ]);
  }
  const refusedNames = MAY_NAME_REFUSED.test(text) ? namesRefused(value, '') : [];
  if (refusedNames.length > 0) {
    const shown = refusedNames.slice(0, 5).map((p) => p.path).join(', ') + (refusedNames.length > 5 ? ` and ${refusedNames.length - 5} more` : '');
    const sentence = `The request body has a member named ${REFUSED_LIST.replace(/, (?=[^,]*$)/, ' or ')} (at ${shown}), names this server refuses.`;
    throw refuse(sentence, refusedNames.map((p) => ({ path: p.path, message: `is a member name this server refuses (${REFUSED_LIST})` })));
  }
  return removedPrefix ? strip(value, removedPrefix) : value;
}

/**
 * A form as a browser posts it (an account-holder page's buttons): UTF-8 text, as the page says
 * with its charset. A name sent twice keeps every value, so the schema refuses it rather than one
 * value being picked; nothing nests, so no depth is measured.
 */
function parseForm(raw: Buffer, code: string): Record<string, string | string[]> {
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw new ApiError(400, code, 'The request body is not valid UTF-8.');
  }
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (LONE_SURROGATE.test(name) || LONE_SURROGATE.test(value)) {
      throw new ApiError(400, code, 'The request body has a string with half of a surrogate pair, which is not a character.');
    }
    const before = Object.hasOwn(out, name) ? out[name] : undefined;
    const next = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
    // defineProperty, so a field named "__proto__" stays a plain member and never a prototype.
    Object.defineProperty(out, name, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * How many members the JSON text writes (a colon outside a string is one), or -1 when its arrays
 * and objects nest deeper than `max`; read from the bytes (a brace, bracket or colon byte inside a
 * string is skipped; UTF-8 never puts an ASCII byte inside another character). Text that is not
 * JSON may be miscounted, but JSON.parse refuses it with the same status.
 */
function membersWritten(raw: Buffer, max: number): number {
  let depth = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x3a) members++;
    else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > max) return -1;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return members;
}

/**
 * The first member name an object of the (valid JSON) text gives twice, and the JSON Pointer of
 * its second member. Runs only on a body already known to repeat one.
 */
function nameGivenTwice(text: string): { name: string; path: string } | undefined {
  // Each open array or object: its pointer, its names so far (objects), the member or item being read.
  const open: { path: string; names?: Set<string>; current: string; index: number }[] = [];
  let nameNext = false;
  const child = () => {
    const parent = open.at(-1);
    if (!parent) return '';
    return parent.names ? parent.current : `${parent.path}/${parent.index}`;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const parent = open.at(-1);
      if (nameNext && parent?.names) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        parent.current = `${parent.path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (parent.names.has(name)) return { name, path: parent.current };
        parent.names.add(name);
        nameNext = false;
      }
      i = end;
    } else if (c === '{') {
      open.push({ path: child(), names: new Set(), current: '', index: 0 });
      nameNext = true;
    } else if (c === '[') open.push({ path: child(), current: '', index: 0 });
    else if (c === '}' || c === ']') open.pop();
    else if (c === ',') {
      const parent = open.at(-1)!;
      if (parent.names) nameNext = true;
      else parent.index++;
    }
  }
  return undefined;
}

// A body that names one of these members is refused, so no later reader, and no answer that
// republishes a stored body, ever meets it.
const REFUSED_LIST = [...REFUSED_MEMBER_NAMES].join(', ');
// Most bodies name none of them, and their text shows it (a name written with \u escapes aside).
const MAY_NAME_REFUSED = new RegExp([...REFUSED_MEMBER_NAMES, '\\\\u'].join('|'));

// The walks below recurse at most the nesting bound deep: the body was measured first.

/** How many members the value has, at every depth, or -1 when a string or name has half a surrogate pair. */
function membersRead(value: unknown): number {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? -1 : 0;
  if (value === null || typeof value !== 'object') return 0;
  let members = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = membersRead(item);
      if (inner < 0) return -1;
      members += inner;
    }
    return members;
  }
  for (const [k, v] of Object.entries(value)) {
    const inner = membersRead(v);
    if (inner < 0 || LONE_SURROGATE.test(k)) return -1;
    members += inner + 1;
  }
  return members;
}

/** Every member with a refused name, as the JSON Pointer of the member itself. */
function namesRefused(value: unknown, at: string): { path: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => namesRefused(v, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return [...(REFUSED_MEMBER_NAMES.has(k) ? [{ path }] : []), ...namesRefused(v, path)];
  });
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

/** A sentence about the body as a problem of `errors` (`is not valid JSON`), whose path names the body. */
function asProblem(sentence: string): string {
  return sentence.replace(/^The request body /, '').replace(/\.$/, '');
}
