/**
 * A network error names its code (`ENOTFOUND`, `ECONNRESET`); these say what the code most likely
 * means for a run, and what to check, so that a typo or a scheme that does not match the port is
 * seen for what it is.
 */
export function networkHint(message: string, url: string): string | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  if (/\bENOTFOUND\b/.test(message)) return `the host name ${target.hostname} does not resolve: check --base-url for a typo`;
  if (/\bEAI_AGAIN\b/.test(message)) return `the host name ${target.hostname} could not be looked up just now: check this machine's DNS`;
  if (target.protocol === 'http:' && /\bECONNRESET\b|socket hang up|\bHPE_/.test(message)) {
    return `${target.host} closed the connection without an answer, as a TLS port does to plain HTTP: if it serves HTTPS, give https:// in --base-url`;
  }
  if (target.protocol === 'https:' && /\bEPROTO\b|wrong version number|packet length too long/i.test(message)) {
    return `${target.host} does not speak TLS: if it serves plain HTTP, give http:// in --base-url`;
  }
  return undefined;
}

/** The message with its hint, when there is one. */
export function withNetworkHint(message: string, url: string): string {
  const hint = networkHint(message, url);
  return hint ? `${message} (${hint})` : message;
}
