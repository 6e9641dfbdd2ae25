import type { Canaries } from './canaries.js';
import type { Secrets } from './secrets.js';

/**
 * What the HAR file masks, and how: every secret the runner holds (keys, tokens, link tokens, the
 * values of `--header`) and every value it stored through the driver (passwords, TOTP secrets,
 * card numbers, identity and address values), in headers, URLs and bodies. In a URL the stand-in is
 * percent-encoded, so the URL stays a valid URI (`%3Clink%20token%3E`), as HAR readers require.
 */
export interface HarMask {
  text(text: string): string;
  url(url: string): string;
}

export function harMask(secrets: Secrets, canaries?: Canaries): HarMask {
  const text = (t: string) => secrets.mask(canaries ? canaries.maskStored(t) : t);
  const encoded = (label: string) => encodeURIComponent(`<${label}>`);
  return {
    text,
    url: (u) => secrets.mask(canaries ? canaries.maskStored(u, encoded) : u, encoded),
  };
}

type Pair = { name: string; value: string };
interface Message {
  url?: string;
  redirectURL?: string;
  headers?: Pair[];
  queryString?: Pair[];
  postData?: { text?: string };
  content?: { text?: string };
}

function maskMessage(m: Message, mask: HarMask): void {
  if (m.url !== undefined) m.url = mask.url(m.url);
  if (m.redirectURL) m.redirectURL = mask.url(m.redirectURL);
  for (const pairs of [m.headers, m.queryString]) for (const p of pairs ?? []) p.value = mask.text(p.value);
  if (m.postData?.text !== undefined) m.postData.text = mask.text(m.postData.text);
  if (m.content?.text !== undefined) m.content.text = mask.text(m.content.text);
}

/** Masks every entry of a HAR log in place, its URLs as URIs. */
export function maskHarLog(log: { log: { entries: object[] } }, mask: HarMask): void {
  for (const e of log.log.entries as { request: Message; response: Message }[]) {
    maskMessage(e.request, mask);
    maskMessage(e.response, mask);
  }
}
