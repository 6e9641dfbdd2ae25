import type { Db } from '../store/db.js';
import { accountTokens } from '../store/tokens.js';
import { extraSitesByLogin, listLogins, type LoginRow } from '../store/logins.js';
import { allowSitesByCard, listCards } from '../store/cards.js';
import { identityPresence, listAddresses } from '../store/profile.js';
import { keyLoginIds } from '../store/keys.js';
import { cachedRead, scopes } from '../store/read-cache.js';
import { IDENTITY_FIELDS, PHONE_TOKENS, tokenFieldsOfIdentityField } from './profile-fields.js';
import { parsePage, type PageSite } from './sites.js';

export interface CatalogKey {
  id: string;
  account_id: string;
  scoped: number;
}

export interface LoginEntry {
  label: string;
  website: string;
  extraWebsites: string[];
  hasEmail: boolean;
  hasUsername?: true;
  hasTotp: boolean;
  tokens: Record<string, string>;
}

type Tokens = Map<string, Record<string, string>>;

/** The login entry of section 2.1; the signup endpoints return the same entry. */
export function loginEntry(login: LoginRow, extraSites: string[], tokens: Record<string, string>): LoginEntry {
  const entry: LoginEntry = {
    label: login.label,
    website: login.website ?? '',
    extraWebsites: extraSites,
    hasEmail: login.has_email === 1,
    hasTotp: login.has_totp === 1,
    tokens: {},
  };
  if (login.has_username === 1) entry.hasUsername = true;
  for (const field of ['password', 'email', 'username', 'totp']) {
    if (tokens[field] !== undefined && (field !== 'totp' || entry.hasTotp)) entry.tokens[field] = tokens[field]!;
  }
  return entry;
}

/** The logins a key may see: all of the account's, or a scoped key's own list. */
export function loginsInScope(db: Db, key: CatalogKey): LoginRow[] {
  const all = listLogins(db, key.account_id);
  if (key.scoped !== 1) return all;
  const allowed = new Set(keyLoginIds(db, key.id));
  return all.filter((l) => allowed.has(l.id));
}

/**
 * Sites as parsed (URL, host normal form, Public Suffix List), kept across the account's versions:
 * a write to one login of a large account then parses nothing again. A site is text, and its
 * parse depends on nothing else.
 */
const parsedSites = new Map<string, PageSite | null>();
const MAX_PARSED_SITES = 20_000;

function siteOf(site: string): PageSite | null {
  let parsed = parsedSites.get(site);
  if (parsed === undefined) {
    if (parsedSites.size >= MAX_PARSED_SITES) parsedSites.clear();
    parsedSites.set(site, (parsed = parsePage(site)));
  }
  return parsed;
}

function domainsOf(sites: (string | null)[]): Set<string> {
  const domains = new Set<string>();
  for (const site of sites) {
    const d = site ? siteOf(site)?.domain : undefined;
    if (d) domains.add(d);
  }
  return domains;
}

/**
 * What the catalog is built from, in four parts (logins, cards, identity and addresses, tokens),
 * each kept until its own data may have changed (store/read-cache.ts): a catalog fetch then costs
 * no query while nothing changed, and a write to one part (a login) reads only that part again.
 * The sites of the stored cards and logins are parsed (URL, host normal form, Public Suffix List)
 * here, not on every filtered fetch.
 */
function accountData(db: Db, accountId: string) {
  const tokens = cachedRead(db, `catalog-tokens:${accountId}`, () => accountTokens(db, accountId) as Tokens, scopes.part('tokens', accountId));
  const logins = cachedRead(
    db,
    `catalog-logins:${accountId}`,
    () => {
      const extra = extraSitesByLogin(db, accountId);
      const logins = listLogins(db, accountId);
      return {
        extra,
        logins,
        loginDomains: new Map(logins.map((l) => [l.id, domainsOf([l.website, ...(extra.get(l.id) ?? [])])])),
        siteNames: new Map(logins.map((l) => [l.id, l.website ? siteOf(l.website)?.siteName : undefined])),
      };
    },
    scopes.part('logins', accountId),
  );
  const cards = cachedRead(
    db,
    `catalog-cards:${accountId}`,
    () => ({
      cards: listCards(db, accountId),
      cardDomains: new Map([...allowSitesByCard(db, accountId)].map(([cardId, sites]) => [cardId, domainsOf(sites)])),
    }),
    scopes.part('cards', accountId),
  );
  const profile = cachedRead(
    db,
    `catalog-profile:${accountId}`,
    () => ({ presence: identityPresence(db, accountId), addresses: listAddresses(db, accountId) }),
    scopes.part('profile', accountId),
  );
  return { tokens, ...logins, ...cards, ...profile };
}

/**
 * GET /v1/tokens (section 4.1). With a page (`url` or `host`): cards and logins registered for the
 * page's registrable domain, `anySite` cards after them, and `relatedLogins`: the other logins in
 * scope whose site name (the registrable domain without its public suffix) is the page's.
 */
export function buildCatalog(db: Db, key: CatalogKey, page: string | undefined) {
  const accountId = key.account_id;
  const { tokens, cards, extra, logins: all, presence, addresses: addressRows, cardDomains, loginDomains, siteNames } = accountData(db, accountId);
  const site: PageSite | null | undefined = page === undefined ? undefined : parsePage(page);

  const cardEntry = (id: string, anySite: boolean) => ({ anySite, tokens: { ...tokens.get(id) } });
  let cardEntries;
  if (page === undefined) {
    cardEntries = cards.map((c) => cardEntry(c.id, c.any_site === 1));
  } else {
    const forPage = site
      ? cards.filter((c) => c.any_site !== 1 && cardDomains.get(c.id)?.has(site.domain) === true)
      : [];
    cardEntries = [...forPage.map((c) => cardEntry(c.id, false)), ...cards.filter((c) => c.any_site === 1).map((c) => cardEntry(c.id, true))];
  }

  const allowed = key.scoped === 1 ? cachedRead(db, `key-logins:${key.id}`, () => new Set(keyLoginIds(db, key.id)), scopes.account(key.account_id)) : undefined;
  const logins = allowed ? all.filter((l) => allowed.has(l.id)) : all;
  const entry = (l: LoginRow) => loginEntry(l, extra.get(l.id) ?? [], tokens.get(l.id) ?? {});
  let loginEntries: LoginEntry[];
  let relatedLogins: LoginEntry[] | undefined;
  if (page === undefined) {
    loginEntries = logins.map(entry);
  } else if (!site) {
    loginEntries = [];
    relatedLogins = [];
  } else {
    const registered = logins.filter((l) => loginDomains.get(l.id)?.has(site.domain) === true);
    const registeredIds = new Set(registered.map((l) => l.id));
    loginEntries = registered.map(entry);
    relatedLogins = logins
      .filter((l) => !registeredIds.has(l.id) && siteNames.get(l.id) === site.siteName)
      .map(entry);
  }

  const identityTokens = tokens.get(accountId) ?? {};
  const missing: string[] = [];
  for (const field of IDENTITY_FIELDS) {
    if (presence.get(field) !== true) missing.push(...tokenFieldsOfIdentityField(field));
  }
  const identity = {
    tokens: Object.fromEntries(
      [...IDENTITY_FIELDS.filter((f) => f !== 'phone'), ...PHONE_TOKENS]
        .filter((f) => identityTokens[f] !== undefined)
        .map((f) => [f, identityTokens[f]!]),
    ),
    missing,
  };

  const addresses = addressRows.map((a) => ({ label: a.label, tokens: { ...tokens.get(a.id) } }));

  return {
    cards: cardEntries,
    logins: loginEntries,
    ...(relatedLogins !== undefined ? { relatedLogins } : {}),
    identity,
    addresses,
  };
}
