import { isIP } from 'node:net';
import { ApiError } from '../domain/errors.js';
import { deliverable, describeKind } from './addresses.js';

/** The longest endpoint URL accepted (the reference's choice; the specification gives none). */
export const ENDPOINT_URL_MAX = 2048;

const refuse = (why: string): never => {
  throw new ApiError(400, 'bad_request', why);
};

/** A name that means this machine whatever DNS says (RFC 6761 section 6.3). */
export function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/**
 * Checks an endpoint URL when the account holder sets it (section 6 item 2: public HTTPS): what
 * can be judged without DNS. A name is judged again, by the addresses it resolves to, at every
 * delivery (webhooks/deliver.ts), since its answer may change after this check.
 * `allowLoopback` is the deployment setting that lets a receiver on the account holder's own
 * machine take deliveries, over http:// too.
 */
export function checkEndpointUrl(text: string, allowLoopback: boolean): URL {
  if ([...text].length > ENDPOINT_URL_MAX) refuse(`A webhook endpoint URL has at most ${ENDPOINT_URL_MAX} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('The webhook endpoint is not an absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') refuse('A webhook endpoint is an https:// URL.');
  if (url.username || url.password) refuse('A webhook endpoint URL carries no user name or password.');
  if (url.hash) refuse('A webhook endpoint URL has no fragment.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopbackName = isLoopbackName(host);
  if (isIP(host)) {
    const verdict = deliverable(host, allowLoopback);
    if (!verdict.ok) refuse(`A webhook endpoint must be public: ${host} is ${describeKind(verdict.kind)}.`);
  } else if (loopbackName && !allowLoopback) {
    refuse(`A webhook endpoint must be public: ${host} is this machine.`);
  } else if (!host.includes('.') && !loopbackName) {
    refuse(`A webhook endpoint must be public: "${host}" is not a public host name.`);
  }
  const loopback = loopbackName || (isIP(host) !== 0 && deliverable(host, false).ok === false);
  if (url.protocol === 'http:' && !(allowLoopback && loopback)) {
    refuse(allowLoopback ? 'A webhook endpoint is an https:// URL; http:// is allowed only for a receiver on this machine.' : 'A webhook endpoint is an https:// URL.');
  }
  return url;
}
