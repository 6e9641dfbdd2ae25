/**
 * The catalog's JSON as UTF-8 bytes, made of entries serialised once in their life (login, card and
 * address entries are never changed once built, domain/catalog.ts). The whole list of an account's
 * logins is kept as the bytes it has in the last answer, with where each entry ends: after a change
 * to a few logins, the entries left as they were are taken from there as a few runs of bytes, not
 * one by one, and the answer is written in a handful of pieces.
 */

/** Each entry's JSON after a comma: the first of a list drops its comma (a view, not a copy). */
const entryJson = new WeakMap<object, Buffer>();

export function jsonOfEntry(entry: object): Buffer {
  let bytes = entryJson.get(entry);
  if (bytes === undefined) entryJson.set(entry, (bytes = Buffer.from(`,${JSON.stringify(entry)}`)));
  return bytes;
}

/**
 * A list's entries as an answer has them: each entry's JSON, separated by commas, in `pieces`;
 * entry i ends at ends[i] and begins one byte (its comma) after the end of entry i - 1.
 */
export interface ListJson {
  pieces: Buffer[];
  ends: Uint32Array;
}

const COMMA = Buffer.from(',');

/** The lists whose JSON is laid out, by their entries. */
const laidOut = new WeakMap<object[], ListJson>();

export function layOut(entries: object[], json: ListJson): void {
  laidOut.set(entries, json);
}

/** The JSON of `entries`, entry by entry. */
export function listJsonOf(entries: object[]): ListJson {
  const writer = new ListJsonWriter(entries.length);
  for (const entry of entries) writer.fresh(entry);
  return writer.done();
}

/** The list's bytes in one piece. */
function whole(list: ListJson): Buffer {
  if (list.pieces.length !== 1) list.pieces = [Buffer.concat(list.pieces)];
  return list.pieces[0]!;
}

/**
 * A list's JSON written entry by entry: an entry taken from another list's JSON joins the run of
 * bytes before it when it followed that run's last entry there.
 */
export class ListJsonWriter {
  private readonly pieces: Buffer[] = [];
  private readonly ends: Uint32Array;
  private count = 0;
  private length = 0;
  private run: { bytes: Buffer; start: number; end: number } | undefined;

  constructor(entries: number) {
    this.ends = new Uint32Array(entries);
  }

  /** Entry `i` of `from`, as it is there. */
  carry(from: ListJson, i: number): void {
    const bytes = whole(from);
    const start = i === 0 ? 0 : from.ends[i - 1]! + 1;
    const end = from.ends[i]!;
    const run = this.run;
    if (run !== undefined && run.bytes === bytes && run.end + 1 === start) run.end = end;
    else {
      this.flush();
      this.run = { bytes, start, end };
    }
    this.ended(end - start);
  }

  /** `entry`, serialised (once in its life). */
  fresh(entry: object): void {
    this.flush();
    const bytes = jsonOfEntry(entry);
    this.piece(bytes.subarray(1));
    this.ended(bytes.length - 1);
  }

  done(): ListJson {
    this.flush();
    return { pieces: this.pieces, ends: this.ends.subarray(0, this.count) };
  }

  private ended(entryLength: number): void {
    this.length += (this.count === 0 ? 0 : 1) + entryLength;
    this.ends[this.count++] = this.length;
  }

  private flush(): void {
    if (this.run === undefined) return;
    const { bytes, start, end } = this.run;
    this.run = undefined;
    this.piece(bytes.subarray(start, end));
  }

  private piece(bytes: Buffer): void {
    if (this.pieces.length > 0) this.pieces.push(COMMA);
    this.pieces.push(bytes);
  }
}

export interface CatalogBody {
  cards: object[];
  logins: object[];
  relatedLogins?: object[];
  identity: object;
  addresses: object[];
}

/**
 * JSON.stringify(catalog) as UTF-8 bytes, in pieces, with their length; `join` makes them one
 * buffer, once. A laid-out list is then kept as its bytes in the joined answer, in one piece, which
 * the next list made from it takes its runs from.
 */
export function catalogJson(catalog: CatalogBody) {
  const pieces: Buffer[] = [];
  let length = 0;
  const settled: [ListJson, number][] = [];
  const push = (bytes: Buffer) => {
    pieces.push(bytes);
    length += bytes.length;
  };
  const list = (entries: object[]) => {
    const json = laidOut.get(entries);
    if (json) {
      if (json.pieces.length > 1) settled.push([json, length]);
      for (const piece of json.pieces) push(piece);
      return;
    }
    for (let i = 0; i < entries.length; i++) {
      const bytes = jsonOfEntry(entries[i]!);
      push(i === 0 ? bytes.subarray(1) : bytes);
    }
  };
  push(Buffer.from('{"cards":['));
  list(catalog.cards);
  push(Buffer.from('],"logins":['));
  list(catalog.logins);
  if (catalog.relatedLogins) {
    push(Buffer.from('],"relatedLogins":['));
    list(catalog.relatedLogins);
  }
  push(Buffer.from(`],"identity":${JSON.stringify(catalog.identity)},"addresses":[`));
  list(catalog.addresses);
  push(Buffer.from(']}'));
  let joined: Buffer | undefined;
  const join = () => {
    if (joined) return joined;
    const bytes = (joined = Buffer.concat(pieces, length));
    for (const [json, at] of settled) json.pieces = [bytes.subarray(at, at + (json.ends.length === 0 ? 0 : json.ends[json.ends.length - 1]!))];
    return bytes;
  };
  return { pieces, length, join };
}
