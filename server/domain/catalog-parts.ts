import type { Db } from '../store/db.js';
import { accountTokens, recordTokens } from '../store/tokens.js';
import { accountLogin, extraSitesByLogin, listLogins, type LoginRow } from '../store/logins.js';
import { allowSitesByCard, listCards } from '../store/cards.js';
import { identityPresence, listAddresses } from '../store/profile.js';
import { cachedRead, scopes } from '../store/read-cache.js';
import { parsePage, type PageSite } from './sites.js';

export type Tokens = Map<string, Record<string, string>>;

/** An account's logins as the catalog reads them: in listLogins' order, with their extra hosts and parsed sites. */
export interface LoginsPart {
  logins: LoginRow[];
  byId: Map<string, LoginRow>;
  extra: Map<string, string[]>;
  loginDomains: Map<string, Set<string>>;
  siteNames: Map<string, string | undefined>;
}

/**
 * Sites as parsed (URL, host normal form, Public Suffix List), kept across the account's versions:
 * a write to one login of a large account then parses nothing again. A site is text, and its
 * parse depends on nothing else.
 */
const parsedSites = new Map<string, PageSite | null>();
const MAX_PARSED_SITES = 20_000;

export function siteOf(site: string): PageSite | null {
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

async function readLogins(db: Db, accountId: string): Promise<LoginsPart> {
  const extra = await extraSitesByLogin(db, accountId);
  const logins = await listLogins(db, accountId);
  return {
    extra,
    logins,
    byId: new Map(logins.map((l) => [l.id, l])),
    loginDomains: new Map(logins.map((l) => [l.id, domainsOf([l.website, ...(extra.get(l.id) ?? [])])])),
    siteNames: new Map(logins.map((l) => [l.id, l.website ? siteOf(l.website)?.siteName : undefined])),
  };
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** listLogins' order: created_at, then label as SQLite's BINARY collation compares it (UTF-8 bytes). */
function loginOrder(a: LoginRow, b: LoginRow): number {
  return a.created_at - b.created_at || Buffer.compare(utf8(a.label), utf8(b.label));
}

/** Where `login` goes in `logins`, which are in listLogins' order: the first place whose row does not come before it. */
function placeOf(logins: LoginRow[], login: LoginRow): number {
  let low = 0;
  let high = logins.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (loginOrder(logins[mid]!, login) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The place of the row `login` in `logins`, found by its order, or -1. */
export function positionOf(logins: LoginRow[], login: LoginRow): number {
  const at = placeOf(logins, login);
  return logins[at] === login ? at : logins.indexOf(login);
}

/**
 * What the in-place updates of a part changed: its revision, raised by each update, and the ids of
 * the rows each changed. A list built from the part builds again only those rows (domain/catalog.ts);
 * a part read whole is a new object, with a history of its own.
 */
interface PartHistory {
  revision: number;
  changes: { revision: number; ids: string[] }[];
}

const histories = new WeakMap<object, PartHistory>();
/** The changes kept per part; a list built before the oldest of them is built whole. */
const MAX_CHANGES = 16;

export function historyOf(part: object): PartHistory {
  let history = histories.get(part);
  if (!history) histories.set(part, (history = { revision: 0, changes: [] }));
  return history;
}

function recordChange(part: object, ids: string[]): void {
  const history = historyOf(part);
  history.changes.push({ revision: ++history.revision, ids });
  if (history.changes.length > MAX_CHANGES) history.changes.shift();
}

/** Adds the ids changed in `part` since its revision `since` to `into`; false when its history no longer reaches back that far. */
export function changedSince(part: object, since: number, into: Set<string>): boolean {
  const { revision, changes } = historyOf(part);
  if (revision === since) return true;
  if (changes.length === 0 || changes[0]!.revision > since + 1) return false;
  for (const change of changes) if (change.revision > since) for (const id of change.ids) into.add(id);
  return true;
}

/*
 * The updates below change the kept part in place, which costs less than copying maps of hundreds
 * of entries. Each changed row is read again and put back whole, so applying the same rows twice
 * gives the same part: an update that fails half-way leaves the part at its old version, and the
 * next read applies those rows again.
 */

/** The part with the changed logins read again, one by one; the others stay as they were. */
async function updateLogins(db: Db, accountId: string, kept: LoginsPart, changed: string[]): Promise<LoginsPart> {
  const { logins, byId, extra, loginDomains, siteNames } = kept;
  for (const id of changed) {
    const old = byId.get(id);
    if (old === undefined) continue;
    byId.delete(id);
    const at = positionOf(logins, old);
    if (at >= 0) logins.splice(at, 1);
  }
  for (const id of changed) {
    extra.delete(id);
    loginDomains.delete(id);
    siteNames.delete(id);
    const now = await accountLogin(db, accountId, id);
    if (!now) continue;
    const { login } = now;
    if (now.extra.length > 0) extra.set(id, now.extra);
    loginDomains.set(id, domainsOf([login.website, ...now.extra]));
    siteNames.set(id, login.website ? siteOf(login.website)?.siteName : undefined);
    byId.set(id, login);
    logins.splice(placeOf(logins, login), 0, login);
  }
  recordChange(logins, changed);
  return kept;
}

/** The part with the changed records' tokens read again. */
async function updateTokens(db: Db, accountId: string, kept: Tokens, changed: string[]): Promise<Tokens> {
  for (const recordId of changed) {
    const now = await recordTokens(db, accountId, recordId);
    if (now) kept.set(recordId, now);
    else kept.delete(recordId);
  }
  recordChange(kept, changed);
  return kept;
}

/**
 * What the catalog is built from, in four parts (logins, cards, identity and addresses, tokens),
 * each kept until its own data may have changed (store/read-cache.ts): a catalog fetch then costs
 * no query while nothing changed, and a write to one part (a login) reads only that part again:
 * of the logins and the tokens, only the rows that changed (migration 0009-row-versions). The sites
 * of the stored cards and logins are parsed (URL, host normal form, Public Suffix List) here, not on
 * every filtered fetch.
 */
export async function accountData(db: Db, accountId: string) {
  const tokens = await cachedRead(
    db,
    `catalog-tokens:${accountId}`,
    () => accountTokens(db, accountId) as Promise<Tokens>,
    scopes.part('tokens', accountId),
    (kept, changed) => updateTokens(db, accountId, kept, changed),
  );
  const logins = await cachedRead(
    db,
    `catalog-logins:${accountId}`,
    () => readLogins(db, accountId),
    scopes.part('logins', accountId),
    (kept, changed) => updateLogins(db, accountId, kept, changed),
  );
  const cards = await cachedRead(
    db,
    `catalog-cards:${accountId}`,
    async () => ({
      cards: await listCards(db, accountId),
      cardDomains: new Map([...await allowSitesByCard(db, accountId)].map(([cardId, sites]) => [cardId, domainsOf(sites)])),
    }),
    scopes.part('cards', accountId),
  );
  const profile = await cachedRead(
    db,
    `catalog-profile:${accountId}`,
    async () => ({ presence: await identityPresence(db, accountId), addresses: await listAddresses(db, accountId) }),
    scopes.part('profile', accountId),
  );
  return { tokens, ...logins, ...cards, ...profile };
}

/** The logins and tokens parts read whole, for the proof that the kept ones are the same. */
export async function readWhole(db: Db, accountId: string): Promise<{ tokens: Tokens } & LoginsPart> {
  return { tokens: await accountTokens(db, accountId), ...await readLogins(db, accountId) };
}
