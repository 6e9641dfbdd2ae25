import { domainToASCII } from 'node:url';
import { parse } from 'tldts';

/**
 * Site rules on the Public Suffix List (through tldts). A page belongs to a site when their
 * registrable domains are equal; a site's name is its registrable domain without the suffix.
 *
 * Every host is first put in its one normal form (the document's "Sites and host names"): the
 * ASCII form the WHATWG URL host rules give (UTS #46, what browsers send, `exÿ.com` becomes
 * `xn--ex-7ka.com`), lower case, labels of letters, digits and hyphens. That form is what is
 * stored, compared and returned, and what tldts and the Public Suffix List are asked about.
 */

export interface PageSite {
  host: string;
  domain: string;
  siteName: string;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// The WHATWG URL "forbidden domain code points" (C0 controls, space, DEL, `#%/:<>?@[\]^|`). Node's
// domainToASCII parses its input as a URL host, so it would cut `acme.com/login` to `acme.com` and
// decode `%61cme.com`; a host name has none of them.
const FORBIDDEN = /[\u0000-\u0020\u007f#%/:<>?@[\\\]^|]/;
const MAX_HOST = 253;

/**
 * A host name in its normal form, or null when it is not one: not convertible to ASCII (an
 * invalid `xn--` label, a space), or with a label that is not letters, digits and hyphens in its
 * ASCII form (`a_b.com`: the URL rules allow `_`, host names do not), or too long. No final dot.
 */
export function hostName(value: string): string | null {
  if (value === '' || value.length > 4 * MAX_HOST || FORBIDDEN.test(value)) return null;
  const ascii = domainToASCII(value);
  return ascii !== '' && ascii.length <= MAX_HOST && ascii.split('.').every((label) => LABEL.test(label)) ? ascii : null;
}

/** Parses a page given as a URL or a bare host. Returns null when it names no registrable domain. */
export function parsePage(value: string): PageSite | null {
  const trimmed = value.trim();
  if (trimmed === '' || /\s/.test(trimmed)) return null;
  let urlHost: string;
  try {
    urlHost = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`).hostname;
  } catch {
    return null;
  }
  // A page may be written as a fully qualified name (`acme.com.`); the site is the same.
  const host = hostName(urlHost.replace(/\.$/, ''));
  if (!host) return null;
  const info = parse(host, { allowPrivateDomains: true });
  if (!info.domain || !info.domainWithoutSuffix || info.isIp) return null;
  return { host, domain: info.domain, siteName: info.domainWithoutSuffix };
}

/** The registrable domain of a site as stored (a domain or a host), or null. */
export function registrableDomain(site: string): string | null {
  return parsePage(site)?.domain ?? null;
}

/**
 * A website as the signup endpoints take it: a host name that is itself a registrable domain (not
 * a subdomain, a bare suffix, an IP address or a URL), returned in its normal form; otherwise null.
 */
export function registrableWebsite(value: string): string | null {
  const host = hostName(value);
  if (!host) return null;
  const info = parse(host, { allowPrivateDomains: true });
  return !info.isIp && info.domain === host ? host : null;
}

/** The label a site's logins share: its name, lowercase letters and digits only, at most 32 characters. */
export function siteLabel(site: string): string {
  const name = parsePage(site)?.siteName ?? site;
  const label = name.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 32);
  return label === '' ? 'site' : label;
}
