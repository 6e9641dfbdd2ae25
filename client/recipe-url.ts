// What a caller sends to the recipe lookup (section 4.2): only scheme, host and path; for hosted
// checkouts whose path carries a session token, only scheme and host.

/**
 * Hosted-checkout hosts whose checkout path carries a session token, so that their lookup URL keeps
 * only scheme and host. The specification names none; this is the one list of them (the document's
 * own example, `checkout.payco.com`, and the hosted checkouts whose session id is a path segment).
 */
export const SESSION_PATH_CHECKOUT_HOSTS: readonly string[] = Object.freeze([
  'checkout.payco.com',
  // https://checkout.stripe.com/c/pay/cs_live_…
  'checkout.stripe.com',
  // https://checkout.shopify.com/<shop id>/checkouts/<token>
  'checkout.shopify.com',
]);

/**
 * The page address to send to `GET /v1/recipes?url=`: scheme, host and path, without query, fragment
 * or user info; for a host of `SESSION_PATH_CHECKOUT_HOSTS` (or of `extraSessionPathHosts`), scheme
 * and host only. A value that is not an http(s) URL loses everything from its first `?` or `#`, so no query
 * leaves the caller; the service answers four null slots for it.
 */
export function recipeLookupUrl(pageUrl: string, extraSessionPathHosts: readonly string[] = []): string {
  let url: URL | undefined;
  try {
    url = new URL(pageUrl);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') return pageUrl.split(/[?#]/, 1)[0]!;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const sessionPath = [...SESSION_PATH_CHECKOUT_HOSTS, ...extraSessionPathHosts].some((h) => h.toLowerCase() === host);
  return `${url.protocol}//${url.host}${sessionPath ? '' : url.pathname}`;
}
