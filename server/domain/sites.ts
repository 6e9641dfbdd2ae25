import { parse } from 'tldts';

/**
 * Site rules on the Public Suffix List (through tldts). A page belongs to a site when their
 * registrable domains are equal; a site's name is its registrable domain without the suffix.
 */

export interface PageSite {
  host: string;
  domain: string;
  siteName: string;
}

/** Parses a page given as a URL or a bare host. Returns null when it names no registrable domain. */
export function parsePage(value: string): PageSite | null {
  const trimmed = value.trim();
  if (trimmed === '' || /\s/.test(trimmed)) return null;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`).hostname;
  } catch {
    return null;
  }
  const info = parse(host, { allowPrivateDomains: true });
  if (!info.domain || !info.domainWithoutSuffix || info.isIp) return null;
  return { host: info.hostname ?? host, domain: info.domain, siteName: info.domainWithoutSuffix };
}

/** The registrable domain of a site as stored (a domain or a host), or null. */
export function registrableDomain(site: string): string | null {
  return parsePage(site)?.domain ?? null;
}

/** True when `value` is itself a registrable domain (not a subdomain, not a bare suffix, not an IP). */
export function isRegistrableDomain(value: string): boolean {
  if (value !== value.toLowerCase() && value.toLowerCase() !== value) return false;
  const info = parse(value, { allowPrivateDomains: true });
  return !info.isIp && info.domain !== null && info.domain === value.toLowerCase() && info.hostname === value.toLowerCase();
}

/** The label a site's logins share: its name, lowercase letters and digits only, at most 32 characters. */
export function siteLabel(site: string): string {
  const name = parsePage(site)?.siteName ?? site;
  const label = name.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 32);
  return label === '' ? 'site' : label;
}
