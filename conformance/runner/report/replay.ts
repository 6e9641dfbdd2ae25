import type { Exchange } from '../exchange.js';
import type { HttpRequest } from '../http.js';
import { ACCEPT_ENCODING } from '../answer-decoding.js';

/**
 * A command a person can paste to send a request again, the way the runner sent it (its TLS
 * files, verification, proxy): curl for what curl can express; for raw bytes (a head no client
 * library sends), printf into `openssl s_client` for https, or into a one-line node socket for
 * http (node is there wherever the runner is; nc often is not). Masked secrets stay masked: the
 * report masks the command like the rest of its text.
 */
export function replayOf(ex: Exchange): string {
  return ex.request.raw ? rawReplay(ex.request, ex.request.raw) : curlReplay(ex.request);
}

export function quote(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A run of one byte at least this long is written with head and tr, not spelled out. */
const RUN = 64;
/** A body longer than this, or not text, goes to curl on its standard input. */
const INLINE_BODY = 2000;

function octal(byte: number): string {
  return `\\${byte.toString(8).padStart(3, '0')}`;
}

/** A printf format (to go in single quotes) that writes exactly these bytes. */
function printfFormat(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  const utf8 = Buffer.from(text, 'utf8').equals(bytes);
  let out = '';
  for (const ch of utf8 ? [...text] : [...bytes].map((b) => String.fromCharCode(b))) {
    const code = ch.codePointAt(0)!;
    if (ch === '%') out += '%%';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    // A quote cannot sit in single quotes; a leading dash would read as an option of printf.
    else if (ch === "'" || (ch === '-' && out === '')) out += octal(code);
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else if (utf8 && code >= 0xa0) out += ch;
    else for (const b of Buffer.from(ch, utf8 ? 'utf8' : 'latin1')) out += octal(b);
  }
  return out;
}

/** A shell command that writes exactly these bytes on its standard output. */
export function shellBytes(bytes: Buffer): string {
  const parts: string[] = [];
  let literal = 0;
  let i = 0;
  const flush = (end: number) => {
    if (end > literal) parts.push(`printf '${printfFormat(bytes.subarray(literal, end))}'`);
  };
  while (i < bytes.length) {
    let j = i + 1;
    while (j < bytes.length && bytes[j] === bytes[i]) j++;
    if (j - i >= RUN) {
      flush(i);
      parts.push(`head -c ${j - i} /dev/zero | tr '\\000' '${octal(bytes[i]!)}'`);
      literal = j;
    }
    i = j;
  }
  flush(bytes.length);
  if (parts.length === 0) return "printf ''";
  return parts.length === 1 ? parts[0]! : `{ ${parts.join('; ')}; }`;
}

function hasLongRun(bytes: Buffer): boolean {
  for (let i = 0, run = 1; i < bytes.length; i++) {
    run = i > 0 && bytes[i] === bytes[i - 1] ? run + 1 : 1;
    if (run >= RUN) return true;
  }
  return false;
}

function curlReplay(request: HttpRequest): string {
  const parts = ['curl -sS -i'];
  const route = request.route;
  if (route?.caCert) parts.push(`--cacert ${quote(route.caCert)}`);
  if (route?.clientCert) parts.push(`--cert ${quote(route.clientCert)}`);
  if (route?.clientKey) parts.push(`--key ${quote(route.clientKey)}`);
  if (route?.insecure) parts.push('-k');
  // curl reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY as the runner does.
  const headers = Object.entries(request.headers);
  const encoding = headers.find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1];
  if (encoding === ACCEPT_ENCODING) parts.push('--compressed');
  const url = new URL(request.url);
  if (/[[\]{}]/.test(request.url)) parts.push('-g');
  if (/(^|\/)\.\.?(\/|$)/.test(url.pathname) || /\/\.\.?(\/|\?|$)/.test(request.url)) parts.push('--path-as-is');
  parts.push(request.method === 'HEAD' ? '--head' : `-X ${quote(request.method)}`, quote(request.url));
  for (const [name, value] of headers) {
    if (name.toLowerCase() === 'accept-encoding' && value === ACCEPT_ENCODING) continue;
    // curl drops a header given as "Name:" and sends an empty one given as "Name;".
    parts.push(`-H ${quote(value === '' ? `${name};` : `${name}: ${value}`)}`);
  }
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  // curl sends Accept: */* of its own; the runner sends none unless the case does.
  if (!has('accept')) parts.push(`-H 'Accept:'`);
  if (request.chunked) parts.push(`-H 'Transfer-Encoding: chunked'`);
  if (!request.body) return parts.join(' ');
  // What curl would add to a body on its own: a form Content-Type, and Expect: 100-continue for a large one.
  if (!has('content-type')) parts.push(`-H 'Content-Type:'`);
  if (!has('expect') && request.body.length > 1024) parts.push(`-H 'Expect:'`);
  const text = request.body.toString('utf8');
  const inline = Buffer.from(text, 'utf8').equals(request.body) && !text.includes('\0') && !text.startsWith('@') && text.length <= INLINE_BODY && !hasLongRun(request.body);
  if (inline) return [...parts, `--data-binary ${quote(text)}`].join(' ');
  return `${shellBytes(request.body)} | ${[...parts, '--data-binary @-'].join(' ')}`;
}

/** A node one-liner that writes its standard input to host:port and prints the answer. */
function nodeSocket(host: string, port: string): string {
  return `node -e ${quote(`const s=require("net").connect(${port},"${host}");process.stdin.on("data",d=>s.write(d));s.on("error",e=>console.error(e.message));s.pipe(process.stdout)`)}`;
}

function rawReplay(request: HttpRequest, raw: Buffer): string {
  const url = new URL(request.url);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const proxy = request.route?.proxy ? new URL(request.route.proxy) : undefined;
  if (url.protocol !== 'https:') {
    // Through an http proxy the bytes name the whole URL, and go to the proxy.
    return `${shellBytes(raw)} | ${proxy ? nodeSocket(proxy.hostname, proxy.port || '80') : nodeSocket(url.hostname.replace(/^\[|\]$/g, ''), port)}`;
  }
  const route = request.route ?? {};
  const parts = ['openssl s_client -quiet', `-connect ${quote(`${url.hostname}:${port}`)}`];
  if (!route.insecure) parts.push('-verify_return_error');
  if (route.caCert) parts.push(`-CAfile ${quote(route.caCert)}`);
  if (route.clientCert) parts.push(`-cert ${quote(route.clientCert)}`);
  if (route.clientKey) parts.push(`-key ${quote(route.clientKey)}`);
  if (proxy) parts.push(`-proxy ${quote(proxy.host)}`);
  return `${shellBytes(raw)} | ${parts.join(' ')}`;
}
