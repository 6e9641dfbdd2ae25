import { transaction, type Db } from './store/db.js';
import type { Sealer } from './store/secrets.js';
import { createKey } from './store/keys.js';
import { allowSitesByCard, insertCard, listCards } from './store/cards.js';
import { extraSitesByLogin, insertLogin, listLogins } from './store/logins.js';
import { getAccount } from './store/accounts.js';
import type { RecipeRegistry, Lookup } from './domain/recipes.js';
import { insertAddress, setIdentityFields } from './store/profile.js';
import { openAccount } from './domain/accounts.js';
import { tokenFieldsOfIdentityField } from './domain/profile-fields.js';

/** The demo account holder's identity and home address; the bench's accounts are filled with them too. */
export const DEMO_IDENTITY = { first_name: 'Jane', last_name: 'Doe', full_name: 'Jane Doe', email: 'jane@example.com', phone: '+14155550100', date_of_birth: null };
export const DEMO_ADDRESS = { name: 'Jane Doe', line1: '1 Market St', line2: null, city: 'San Francisco', region: 'CA', postal_code: '94105', country: 'US' };

export interface DemoAccount {
  accountId: string;
  keys: { agent: string; signup: string };
}

/** A demo account on the Plus plan: cards, logins, identity, addresses, and two keys. */
export function seedDemo(db: Db, sealer: Sealer, now: number): Promise<DemoAccount> {
  return transaction(db, async (db) => {
    const account = await openAccount(db, { plan: 'Plus', name: 'Demo account holder', now });
    const accountId = account.id;
    await insertCard(db, sealer, { accountId, number: '4111111111111111', anySite: true, allow: [], block: ['casino.example'], agent: false, limits: null, now });
    await insertCard(db, sealer, { accountId, number: '5555555555554444', anySite: false, allow: ['acme.com'], block: [], agent: true, limits: { perTransaction: 75, perWeek: 200, per30Days: 500 }, now });
    await insertLogin(db, sealer, {
      accountId,
      label: 'acme',
      website: 'acme.com',
      extraWebsites: ['shop.acme.co.uk'],
      email: 'jane@example.com',
      password: 'correct horse battery staple',
      now,
    });
    await insertLogin(db, sealer, {
      accountId,
      label: 'acme2',
      website: 'acme.co.uk',
      extraWebsites: [],
      email: 'jane@example.com',
      username: 'jane_uk',
      password: 'another long passphrase',
      now,
    });
    await insertLogin(db, sealer, {
      accountId,
      label: 'github',
      website: 'github.com',
      extraWebsites: [],
      username: 'janedoe',
      password: 'gh-demo-password-1',
      totpSecret: 'JBSWY3DPEHPK3PXP',
      now,
    });
    await setIdentityFields(
      db,
      sealer,
      accountId,
      DEMO_IDENTITY,
      tokenFieldsOfIdentityField,
    );
    await insertAddress(db, sealer, {
      accountId,
      label: 'home',
      fields: DEMO_ADDRESS,
      now,
    });
    const agent = await createKey(db, { accountId, name: 'Demo agent', signupEnabled: false, scoped: false, now });
    const signup = await createKey(db, { accountId, name: 'Demo agent with signup permission', signupEnabled: true, scoped: false, now });
    return { accountId, keys: { agent: agent.secret, signup: signup.secret } };
  });
}

const SLOTS = ['merchant', 'platform', 'signup', 'signupPlatform'] as const;

/**
 * What a newcomer needs to try the catalog's `url` filter and the recipe lookup without guessing:
 * the account's plan, the sites of its cards and logins as they are now, and a page for each slot
 * of the recipe lookup, found by looking up the release's own pages.
 */
export async function describeDemo(db: Db, registry: RecipeRegistry, accountId: string): Promise<string[]> {
  const account = await getAccount(db, accountId);
  if (!account) return [];
  const allow = await allowSitesByCard(db, accountId);
  const cards = (await listCards(db, accountId)).map((c) => {
    const where = c.any_site ? 'any site' : `${(allow.get(c.id) ?? []).join(', ') || 'no site'} only`;
    return c.agent ? `${where} (agent card)` : where;
  });
  const extra = await extraSitesByLogin(db, accountId);
  const logins = (await listLogins(db, accountId)).map((l) => {
    const sites = [l.website ?? 'no website', ...(extra.get(l.id) ?? [])].join(', ');
    return `${l.label} (${sites}${l.has_totp ? ', with TOTP' : ''})`;
  });
  const firstSite = (await listLogins(db, accountId)).find((l) => l.website)?.website;
  return [
    `  demo plan: ${account.plan}`,
    `  demo cards: ${cards.join('; ') || 'none'}`,
    `  demo logins: ${logins.join('; ') || 'none'}`,
    ...(firstSite ? [`  try the url filter: GET /v1/tokens?url=https://${firstSite}/`] : []),
    `  recipe lookup (GET /v1/recipes?url=<page>), registry ${registry.release.registryVersion}:`,
    ...(await recipePages(registry)).map(({ url, slots }) => `    ${slots.join(', ')}: ${url}`),
  ];
}

/** Pages of the release's recipes, fewest first that together fill every slot some page fills. */
async function recipePages(registry: RecipeRegistry): Promise<{ url: string; slots: string[] }[]> {
  const candidates = registry.release.recipes.flatMap((r) => {
    const match = (r as { match?: { hosts?: string[]; paths?: string[] } }).match;
    const host = match?.hosts?.[0];
    return host ? [`https://${host}${match?.paths?.[0] ?? '/'}`] : [];
  });
  const filled = await Promise.all(candidates.map(async (url) => {
    const found: Lookup = await registry.lookup(url);
    return { url, slots: SLOTS.filter((slot) => found[slot] !== null) as string[] };
  }));
  const chosen: { url: string; slots: string[] }[] = [];
  const covered = new Set<string>();
  for (;;) {
    const best = filled
      .map((f) => ({ ...f, fresh: f.slots.filter((s) => !covered.has(s)).length }))
      .sort((a, b) => b.fresh - a.fresh)[0];
    if (!best || best.fresh === 0) return chosen;
    chosen.push({ url: best.url, slots: best.slots });
    for (const slot of best.slots) covered.add(slot);
  }
}
