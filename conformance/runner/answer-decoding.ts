import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { RunnerError } from './errors.js';
import { ANSWER_CAP, overCap } from './bounds.js';

/**
 * What an answer looks like on the wire, below what the checks read: the framing of a raw answer
 * (RFC 9112: status line, fields, a body by chunks, by Content-Length or until the connection
 * closes) and the content codings of any answer (RFC 9110 §8.4). The checks and the canary scan
 * read the decoded body: a secret sent compressed is still sent.
 */

/** The codings the runner accepts, as a common client sends them. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';
const DECODERS: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => gunzipSync(b, LIMIT),
  'x-gzip': (b) => gunzipSync(b, LIMIT),
  // "deflate" is the zlib format (RFC 9110 §8.4.1.2); some servers send the bare deflate stream.
  deflate: (b) => {
    try {
      return inflateSync(b, LIMIT);
    } catch (e) {
      if (tooLarge(e)) throw e;
      return inflateRawSync(b, LIMIT);
    }
  },
  br: (b) => brotliDecompressSync(b, LIMIT),
};
/** A body that inflates past the cap is refused, never held in memory. */
const LIMIT = { maxOutputLength: ANSWER_CAP };

function tooLarge(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
}

export interface Wire {
  contentEncoding?: string;
  transferEncoding?: string;
  /** Bytes of the body as they came (after de-chunking), before content decoding. */
  bytes: number;
  /** Why the body could not be decoded; the body is then kept as it came. */
  undecodable?: string;
  /** Whether that is because the coding is not one the request accepted (rather than a body its coding cannot undo). */
  unaccepted?: boolean;
}

/**
 * Decodes a body by its Content-Encoding, the last coding applied first undone. Any body, an empty
 * one whatever its codings included, decodes or is kept as it came; only a body that decodes past
 * the cap throws.
 */
export function decodeBody(encoded: Buffer, headers: Record<string, string>): { body: Buffer; wire: Wire } {
  const wire: Wire = { bytes: encoded.length };
  if (headers['content-encoding'] !== undefined) wire.contentEncoding = headers['content-encoding'];
  if (headers['transfer-encoding'] !== undefined) wire.transferEncoding = headers['transfer-encoding'];
  const codings = (wire.contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (encoded.length === 0 || codings.length === 0) return { body: encoded, wire };
  let body = encoded;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) return { body: encoded, wire: { ...wire, undecodable: `Content-Encoding ${coding}, which the request did not accept (Accept-Encoding: ${ACCEPT_ENCODING})`, unaccepted: true } };
    try {
      body = decode(body);
    } catch (e) {
      if (tooLarge(e)) throw overCap(`its body, decoded from ${coding},`);
      return { body: encoded, wire: { ...wire, undecodable: `a body that is not valid ${coding} (${(e as Error).message})` } };
    }
  }
  return { body, wire };
}

export interface RawAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  /** The body after de-chunking, before content decoding. */
  body: Buffer;
}

function networkError(message: string): RunnerError {
  return new RunnerError('network', message);
}

/**
 * Parses an answer from the bytes received so far: the answer, or undefined when more bytes are
 * needed. `ended`: the server closed, so a body without length ends here and a short one is cut.
 * Interim answers (1xx) are skipped.
 */
export function parseAnswer(all: Buffer, ended: boolean, method: string): RawAnswer | undefined {
  let start = 0;
  for (;;) {
    const split = all.indexOf('\r\n\r\n', start);
    if (split < 0) {
      if (!ended) return undefined;
      throw networkError(all.length === 0 ? 'the connection closed without an answer' : `the connection closed without a whole HTTP answer (${all.length} bytes)`);
    }
    const [statusLine = '', ...lines] = all.subarray(start, split).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
    if (!m) throw networkError(`not an HTTP answer: ${JSON.stringify(statusLine.slice(0, 80))}`);
    const status = Number(m[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const i = line.indexOf(':');
      if (i <= 0) throw networkError(`a malformed header line in the answer: ${JSON.stringify(line.slice(0, 80))}`);
      const name = line.slice(0, i).trim().toLowerCase();
      const value = line.slice(i + 1).trim();
      headers[name] = headers[name] !== undefined ? `${headers[name]}, ${value}` : value;
    }
    const bodyStart = split + 4;
    if (status >= 100 && status < 200 && status !== 101) {
      start = bodyStart;
      continue;
    }
    const body = frameBody(all.subarray(bodyStart), headers, status, method, ended);
    return body && { status, statusText: m[2] ?? '', headers, body };
  }
}

/** RFC 9112 §6.3: how long the body is. */
function frameBody(rest: Buffer, headers: Record<string, string>, status: number, method: string, ended: boolean): Buffer | undefined {
  if (method.toUpperCase() === 'HEAD' || status === 204 || status === 304) return Buffer.alloc(0);
  const te = headers['transfer-encoding'];
  if (te !== undefined) {
    if (te.split(',').at(-1)!.trim().toLowerCase() !== 'chunked') return ended ? rest : undefined;
    return dechunk(rest, ended);
  }
  const cl = headers['content-length'];
  if (cl !== undefined) {
    const values = new Set(cl.split(',').map((v) => v.trim()));
    const length = Number([...values][0]);
    if (values.size !== 1 || !/^\d+$/.test([...values][0]!)) throw networkError(`an invalid Content-Length in the answer: ${cl}`);
    if (rest.length >= length) return rest.subarray(0, length);
    if (ended) throw networkError(`the connection closed after ${rest.length} of the ${length} bytes its Content-Length announced`);
    return undefined;
  }
  return ended ? rest : undefined;
}

function dechunk(data: Buffer, ended: boolean): Buffer | undefined {
  const chunks: Buffer[] = [];
  let pos = 0;
  const short = () => {
    if (ended) throw networkError('the connection closed in the middle of a chunked body');
    return undefined;
  };
  for (;;) {
    const lineEnd = data.indexOf('\r\n', pos);
    if (lineEnd < 0) return short();
    const sizeText = data.subarray(pos, lineEnd).toString('latin1').split(';')[0]!.trim();
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) throw networkError(`an invalid chunk size in the answer: ${JSON.stringify(sizeText.slice(0, 20))}`);
    const size = parseInt(sizeText, 16);
    pos = lineEnd + 2;
    if (size === 0) {
      // Trailer fields, then an empty line.
      for (;;) {
        const end = data.indexOf('\r\n', pos);
        if (end < 0) return short();
        if (end === pos) return Buffer.concat(chunks);
        pos = end + 2;
      }
    }
    if (data.length < pos + size + 2) return short();
    chunks.push(data.subarray(pos, pos + size));
    if (data[pos + size] !== 0x0d || data[pos + size + 1] !== 0x0a) throw networkError('a chunk of the answer is not followed by CRLF');
    pos += size + 2;
  }
}
