import type { Db } from '../store/db.js';
import { extraSitesOf, listLogins, type LoginRow } from '../store/logins.js';
import { tokensOf } from '../store/tokens.js';
import type { AddressRow } from '../store/profile.js';
import type { CardRow } from '../store/cards.js';
import { keyLoginIds } from '../store/keys.js';
import { cachedRead, scopes } from '../store/read-cache.js';
import { accountData, changedSince, historyOf, positionOf, type Tokens } from './catalog-parts.js';
import { layOut, listJsonOf, ListJsonWriter, type ListJson } from './catalog-json.js';
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

/** One stored login's entry, read from the store as it is now. */
export async function loginEntryOf(db: Db, login: LoginRow): Promise<LoginEntry> {
  return loginEntry(login, await extraSitesOf(db, login.id), await tokensOf(db, 'login', login.id));
}

/** The logins a key may see: all of the account's, or a scoped key's own list. */
export async function loginsInScope(db: Db, key: CatalogKey): Promise<LoginRow[]> {
  const all = await listLogins(db, key.account_id);
  if (key.scoped !== 1) return all;
  const allowed = new Set(await keyLoginIds(db, key.id));
  return all.filter((l) => allowed.has(l.id));
}

/**
 * Login entries by the kept row they were built from, while its extra sites and tokens are the same
 * kept objects: a login left unchanged by a write keeps them all (domain/catalog-parts.ts), so its
 * entry, and that entry's JSON, are made once. Entries are never changed once built.
 */
const builtEntries = new WeakMap<LoginRow, { sites: string[] | undefined; tokens: Record<string, string> | undefined; entry: LoginEntry }>();
/**
 * The whole list of an account's logins as last built, by the logins part's array it was built
 * from (kept and updated in place, domain/catalog-parts.ts): the rows in their order, their entries
 * and the list's JSON (domain/catalog-json.ts), and the revisions of the logins and tokens parts it
 * was built at. After those parts change, only the changed logins' entries are built again; the
 * others are taken from here in their order, without looking each up.
 */
interface BuiltList {
  rows: LoginRow[];
  tokens: Tokens;
  loginsAt: number;
  tokensAt: number;
  entries: LoginEntry[];
  json: ListJson;
}
const builtLists = new WeakMap<LoginRow[], BuiltList>();

function wholeList(all: LoginRow[], byId: Map<string, LoginRow>, tokens: Tokens, entry: (l: LoginRow) => LoginEntry): LoginEntry[] {
  const kept = builtLists.get(all);
  const changed = new Set<string>();
  const since = kept && kept.tokens === tokens && changedSince(all, kept.loginsAt, changed) && changedSince(tokens, kept.tokensAt, changed);
  let list = since ? (changed.size === 0 ? kept : merged(all, byId, kept, changed, entry)) : undefined;
  if (!list) {
    const entries = all.map(entry);
    list = { entries, json: listJsonOf(entries) };
  }
  const { entries, json } = list;
  if (list !== kept) builtLists.set(all, { rows: all.slice(), tokens, loginsAt: historyOf(all).revision, tokensAt: historyOf(tokens).revision, entries, json });
  layOut(entries, json);
  return entries;
}

/**
 * The kept list with the changed logins built again, or undefined when the kept rows are not the
 * part's, in its order. The changed logins are found by their place, and the others by their row
 * being the kept one: no row is looked into but those.
 */
function merged(all: LoginRow[], byId: Map<string, LoginRow>, kept: BuiltList, changed: Set<string>, entry: (l: LoginRow) => LoginEntry): Pick<BuiltList, 'entries' | 'json'> | undefined {
  const fresh = new Set<number>();
  for (const id of changed) {
    const row = byId.get(id);
    if (row === undefined) continue;
    const at = positionOf(all, row);
    if (at < 0) return undefined;
    fresh.add(at);
  }
  // A kept row passed over must have left the part or changed: one still there as it was means the
  // orders differ.
  const gone = (row: LoginRow) => byId.get(row.id) !== row || changed.has(row.id);
  const entries: LoginEntry[] = [];
  const json = new ListJsonWriter(all.length);
  const { rows } = kept;
  let j = 0;
  for (let i = 0; i < all.length; i++) {
    const l = all[i]!;
    if (fresh.has(i)) {
      const built = entry(l);
      entries.push(built);
      json.fresh(built);
      continue;
    }
    while (j < rows.length && rows[j] !== l) {
      if (!gone(rows[j]!)) return undefined;
      j++;
    }
    if (j === rows.length) return undefined;
    entries.push(kept.entries[j]!);
    json.carry(kept.json, j);
    j++;
  }
  for (; j < rows.length; j++) if (!gone(rows[j]!)) return undefined;
  return { entries, json: json.done() };
}

/**
 * Card entries by their kept token record, and address entries by their kept row while its token
 * record is the same object: like a login's, each is built once while it is unchanged, and never
 * changed once built.
 */
interface CardEntry {
  anySite: boolean;
  /** An agent card's id, which its webhook events name (`agent_card_id`); the reference's own member. */
  agentCardId?: string;
  tokens: Record<string, string>;
}
const cardsAnySite = new WeakMap<Record<string, string>, CardEntry>();
const cardsForSites = new WeakMap<Record<string, string>, CardEntry>();
const addressEntries = new WeakMap<AddressRow, { tokens: Record<string, string> | undefined; entry: { label: string; tokens: Record<string, string> } }>();

// A card's id and agent flag never change, and its token record is its own: the record keys the entry.
function cardEntry(card: CardRow, own: Record<string, string> | undefined, anySite: boolean): CardEntry {
  const agent = card.agent === 1 ? { agentCardId: card.id } : {};
  if (own === undefined) return { anySite, ...agent, tokens: {} };
  const built = anySite ? cardsAnySite : cardsForSites;
  let entry = built.get(own);
  if (entry === undefined) built.set(own, (entry = { anySite, ...agent, tokens: { ...own } }));
  return entry;
}

/**
 * A list of entries built from a kept part's rows (cards, addresses), by the rows' array, with the
 * tokens part and its revision it was built at: while the rows are the same array and none of their
 * tokens changed since, it is the same list, and no entry is looked up again.
 */
interface KeptEntries {
  tokens: Tokens;
  tokensAt: number;
  ids: Set<string>;
  entries: object[];
}
const keptLists = new WeakMap<{ id: string }[], KeptEntries>();

function keptEntries<E extends object>(rows: { id: string }[], tokens: Tokens, build: () => E[]): E[] {
  const kept = keptLists.get(rows);
  const changed = new Set<string>();
  if (kept && kept.tokens === tokens && changedSince(tokens, kept.tokensAt, changed) && ![...changed].some((id) => kept.ids.has(id))) {
    kept.tokensAt = historyOf(tokens).revision;
    return kept.entries as E[];
  }
  const entries = build();
  keptLists.set(rows, { tokens, tokensAt: historyOf(tokens).revision, ids: new Set(rows.map((r) => r.id)), entries });
  return entries;
}

/**
 * GET /v1/tokens (section 4.1). With a page (`url` or `host`): cards and logins registered for the
 * page's registrable domain, `anySite` cards after them, and `relatedLogins`: the other logins in
 * scope whose site name (the registrable domain without its public suffix) is the page's.
 */
export async function buildCatalog(db: Db, key: CatalogKey, page: string | undefined) {
  const accountId = key.account_id;
  const { tokens, cards, extra, logins: all, byId, presence, addresses: addressRows, cardDomains, loginDomains, siteNames } = await accountData(db, accountId);
  const site: PageSite | null | undefined = page === undefined ? undefined : parsePage(page);

  let cardEntries;
  if (page === undefined) {
    cardEntries = keptEntries(cards, tokens, () => cards.map((c) => cardEntry(c, tokens.get(c.id), c.any_site === 1)));
  } else {
    const forPage = site
      ? cards.filter((c) => c.any_site !== 1 && cardDomains.get(c.id)?.has(site.domain) === true)
      : [];
    cardEntries = [...forPage.map((c) => cardEntry(c, tokens.get(c.id), false)), ...cards.filter((c) => c.any_site === 1).map((c) => cardEntry(c, tokens.get(c.id), true))];
  }

  const allowed = key.scoped === 1 ? await cachedRead(db, `key-logins:${key.id}`, async () => new Set(await keyLoginIds(db, key.id)), scopes.account(key.account_id)) : undefined;
  const logins = allowed ? all.filter((l) => allowed.has(l.id)) : all;
  const entry = (l: LoginRow) => {
    const sites = extra.get(l.id);
    const own = tokens.get(l.id);
    const built = builtEntries.get(l);
    if (built && built.sites === sites && built.tokens === own) return built.entry;
    const fresh = loginEntry(l, sites ?? [], own ?? {});
    builtEntries.set(l, { sites, tokens: own, entry: fresh });
    return fresh;
  };
  let loginEntries: LoginEntry[];
  let relatedLogins: LoginEntry[] | undefined;
  if (page === undefined) {
    loginEntries = allowed ? logins.map(entry) : wholeList(all, byId, tokens, entry);
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

  const addresses = keptEntries(addressRows, tokens, () => addressRows.map((a) => {
    const own = tokens.get(a.id);
    const built = addressEntries.get(a);
    if (built && built.tokens === own) return built.entry;
    const entry = { label: a.label, tokens: { ...own } };
    addressEntries.set(a, { tokens: own, entry });
    return entry;
  }));

  return {
    cards: cardEntries,
    logins: loginEntries,
    ...(relatedLogins !== undefined ? { relatedLogins } : {}),
    identity,
    addresses,
  };
}
