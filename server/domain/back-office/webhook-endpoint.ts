import { isIP } from 'node:net';
import { ApiError } from '../errors.js';
import { addressVerdict, bareName, deliverable, isLoopbackName } from '../../webhooks/addresses.js';

/** The longest endpoint URL accepted (the reference's choice; the specification gives none). */
export const ENDPOINT_URL_MAX = 2048;

const refuse = (why: string): never => {
  throw new ApiError(400, 'bad_request', why);
};

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
  // An empty fragment (`.../#`) leaves `hash` empty; the serialised URL still shows it.
  if (url.hash || url.href.includes('#')) refuse('A webhook endpoint URL has no fragment.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let thisMachine: boolean;
  if (isIP(host)) {
    const verdict = addressVerdict(host);
    if (!deliverable(host, allowLoopback).ok) refuse(`A webhook endpoint must be public: ${host} is ${verdict.what}.`);
    thisMachine = verdict.thisMachine;
  } else {
    const labels = bareName(host).split('.');
    if (labels.some((label) => label === '')) refuse(`A webhook endpoint must be public: "${host}" is not a host name.`);
    thisMachine = isLoopbackName(host);
    if (thisMachine && !allowLoopback) refuse(`A webhook endpoint must be public: ${host} is this machine.`);
    if (!thisMachine && labels.length < 2) refuse(`A webhook endpoint must be public: "${host}" is not a public host name.`);
  }
  if (url.protocol === 'http:' && !(allowLoopback && thisMachine)) {
    refuse(allowLoopback ? 'A webhook endpoint is an https:// URL; http:// is allowed only for a receiver on this machine.' : 'A webhook endpoint is an https:// URL.');
  }
  return url;
}
