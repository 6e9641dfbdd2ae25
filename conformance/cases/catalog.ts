import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Node } from '../runner/document.js';
import { reference, spec } from '../runner/basis.js';
import { catalog } from './shared-steps.js';
import { entries, meaningfulDifferences, only, perAnswerMembers, sameEntry, stringLeaves, without } from '../runner/by-meaning.js';

/**
 * Sections 2.1 and 4.1: the token catalog and its `url` filter. Each case saves a small world
 * through the driver: cards on one site, on another and on any site; logins on a site, on the
 * same site name under another suffix, and elsewhere; identity and an address.
 */

interface World {
  key: string;
  name: string;
  site: string;
  sibling: string;
  elsewhere: string;
  extraHost: string;
  labels: { site: string; sibling: string; elsewhere: string };
}

async function world(ctx: CaseContext, options: { scopedTo?: 'site' } = {}): Promise<World & { account: Awaited<ReturnType<CaseContext['account']>> }> {
  const account = await ctx.account();
  const name = ctx.unique('cf');
  const site = `${name}.com`;
  const sibling = `${name}.co.uk`;
  const elsewhere = `${ctx.unique('el')}.com`;
  const extraHost = `login.${ctx.unique('id')}.net`;
  await account.saveCard({ anySite: true });
  await account.saveCard({ anySite: false, allow: [site] });
  await account.saveCard({ anySite: false, allow: [elsewhere] });
  const onSite = await account.saveLogin({ website: site, extraWebsites: [extraHost], email: ctx.email(), totp: true });
  const onSibling = await account.saveLogin({ website: sibling, email: ctx.email() });
  const onElsewhere = await account.saveLogin({ website: elsewhere, email: ctx.email() });
  await account.setIdentity();
  await account.saveAddress('home');
  const labels = { site: onSite.label, sibling: onSibling.label, elsewhere: onElsewhere.label };
  const key = options.scopedTo ? (await account.issueKey({ scope: [labels.site] })).key : (await account.issueKey()).key;
  ctx.step(`saved 3 cards, 3 logins (${site}, ${sibling}, ${elsewhere}), identity and an address`);
  return { account, key, name, site, sibling, elsewhere, extraHost, labels };
}

/** The labels of the login entries a member holds, whatever holds them. */
const labelsOf = (member: unknown) => entries(member).map((l: Node) => l?.label as string);
const anySiteOf = (member: unknown) => entries(member).map((c: Node) => c?.anySite);

/** Section 2.1 names `cards`, `logins` and `relatedLogins`; the other members (identity, addresses) go unnamed. */
const NAMED = ['cards', 'logins', 'relatedLogins'];

const RELATED = reference('Section 2.1 names `relatedLogins` but not what it holds; the reference lists the logins that share the site name, as login entries.');
const WHOLE = reference('The reference answers the same body byte for byte; section 4.1 states the rule for the members it names.');

/**
 * Section 4.1: identity and addresses are unchanged by the filter. Their member names are not
 * given, so every member but the named three is compared; what differs between two unfiltered
 * reads (a request id, a time) is not a change.
 */
function expectUnnamedUnchanged(ctx: CaseContext, page: Node, all: Node, again: Node, what: string): void {
  const perAnswer = perAnswerMembers([all, again, page], NAMED);
  const changed = meaningfulDifferences(without(all, NAMED), without(page, NAMED), perAnswer);
  ctx.check(changed.length === 0, `identity and addresses (every member but ${NAMED.join(', ')}) unchanged ${what}`, () => `changed at ${changed.join(', ')}`, spec('tokens-filter-keeps-identity'));
}

const WORLD_DRIVER = { driver: ['setIdentity', 'saveAddress'] as ('setIdentity' | 'saveAddress')[] };

/**
 * Section 2.1: the identity item lists its empty fields in `missing` and has a token per field,
 * among them `phone`. It is found by that member, not by a name the specification does not give.
 */
function identityOf(ctx: CaseContext, body: Node): { missing: string[]; phone?: unknown } {
  const item = Object.values<Node>(without(body, NAMED)).find((v) => v && typeof v === 'object' && Array.isArray(v.missing));
  if (!item) ctx.fail('an identity item listing its empty fields in `missing`', `members ${Object.keys(body).join(', ')}`, spec('catalog-has-identity-and-addresses', 'catalog-identity-missing'));
  ctx.check(true, 'the identity data among the top-level members', '', spec('catalog-has-identity-and-addresses'));
  const phone = typeof item.phone === 'string' ? item.phone : Object.values<Node>(item).find((v) => v && typeof v === 'object' && typeof v.phone === 'string')?.phone;
  return { missing: item.missing as string[], phone };
}

export function catalogCases(): Case[] {
  return [
    defineCase({
      id: 'getTokenCatalog/whole-catalog-without-filter',
      title: 'Lists every card and login, with no relatedLogins, without a filter',
      requirements: ['catalog-has-cards-and-logins', 'catalog-card-tokens', 'catalog-related-logins-only-with-filter'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const all = await catalog(ctx, w.key);
        ctx.expectEqual(entries(all.cards).length, 3, 'three cards:', spec('catalog-has-cards-and-logins'));
        // A card number token and a security-code token on each card, whatever members hold them.
        const short = entries(all.cards).filter((c) => stringLeaves(c).length < 2).length;
        ctx.expectEqual(short, 0, 'cards with fewer than two tokens:', spec('catalog-card-tokens'));
        ctx.expectEqual(labelsOf(all.logins).sort(), Object.values(w.labels).sort(), 'every login:', spec('catalog-has-cards-and-logins'));
        ctx.check(!('relatedLogins' in all), 'no relatedLogins without a url filter', 'relatedLogins present', spec('catalog-related-logins-only-with-filter'));
      },
    }),
    defineCase({
      id: 'getTokenCatalog/url-narrows-to-the-page',
      title: "Narrows cards and logins to the page's site, anySite cards last",
      requirements: ['tokens-url-narrows', 'tokens-any-site-cards-kept-last', 'catalog-related-logins-only-with-filter', 'tokens-filter-keeps-identity'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const all = await catalog(ctx, w.key);
        const again = await catalog(ctx, w.key);
        const page = await catalog(ctx, w.key, { url: `https://shop.${w.site}/checkout/step-1` });
        const cards = entries(page.cards);
        ctx.expectEqual(anySiteOf(page.cards), [false, true], "the page's card, then the anySite card (anySite flags):", spec('tokens-url-narrows', 'tokens-any-site-cards-kept-last'));
        // A card is told by its tokens, whatever the members holding them are called.
        ctx.check(cards.every((c) => entries(all.cards).some((a) => sameEntry(c, a))), "the account's own cards", 'a card not in the whole catalog', spec('tokens-url-narrows'));
        const other = await catalog(ctx, w.key, { url: `https://${w.elsewhere}/` });
        ctx.check(!sameEntry(cards[0], entries(other.cards)[0]), 'different site-scoped cards on different sites', 'the same card on both sites', spec('tokens-url-narrows'));
        ctx.expectEqual(labelsOf(page.logins), [w.labels.site], 'logins registered for the page:', spec('tokens-url-narrows'));
        ctx.check('relatedLogins' in page, 'relatedLogins with a url filter', 'no relatedLogins', spec('catalog-related-logins-only-with-filter'));
        ctx.expectEqual(labelsOf(page.relatedLogins), [w.labels.sibling], 'relatedLogins (same site name, other suffix):', RELATED);
        expectUnnamedUnchanged(ctx, page, all, again, 'by the filter');
      },
    }),
    defineCase({
      id: 'getTokenCatalog/host-is-an-alias-of-url',
      title: 'Reads host as an alias of url',
      requirements: ['tokens-host-alias'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const byUrl = await catalog(ctx, w.key, { url: `https://shop.${w.site}/cart` });
        const byHost = await catalog(ctx, w.key, { host: `shop.${w.site}` });
        ctx.expectEqual([byHost.cards, byHost.logins], [byUrl.cards, byUrl.logins], 'the same cards and logins for host=<host> as for url=<page on that host>:', spec('tokens-host-alias'));
        ctx.expectEqual(byHost, byUrl, 'the same catalog for host=<host> as for url=<page on that host>:', WHOLE);
      },
    }),
    defineCase({
      id: 'getTokenCatalog/extra-website-registers-a-login',
      title: 'Lists a login on the pages of one of its extra sites',
      requirements: ['tokens-url-narrows', 'catalog-login-extra-websites'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const page = await catalog(ctx, w.key, { url: `https://${w.extraHost}/signin` });
        ctx.check(labelsOf(page.logins).includes(w.labels.site), `the login whose extra site is ${w.extraHost}`, `logins ${JSON.stringify(labelsOf(page.logins))}`, spec('tokens-url-narrows'));
      },
    }),
    defineCase({
      id: 'getTokenCatalog/unparseable-url-matches-no-site',
      title: 'Keeps only anySite cards for a url that does not parse',
      requirements: ['tokens-unparseable-url', 'tokens-filter-keeps-identity'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const all = await catalog(ctx, w.key);
        const again = await catalog(ctx, w.key);
        for (const url of ['not a url', 'http://', '%%%', '127.0.0.1', 'co.uk']) {
          const page = await catalog(ctx, w.key, { url });
          ctx.expectEqual(anySiteOf(page.cards), [true], `for url=${JSON.stringify(url)}, only the anySite card:`, spec('tokens-unparseable-url'));
          ctx.expectEqual(entries(page.logins).length, 0, `for url=${JSON.stringify(url)}, logins held:`, spec('tokens-unparseable-url'));
          // "Every login is dropped": the related ones too.
          ctx.expectEqual(entries(page.relatedLogins).length, 0, `for url=${JSON.stringify(url)}, relatedLogins held:`, spec('tokens-unparseable-url'));
          expectUnnamedUnchanged(ctx, page, all, again, `for url=${JSON.stringify(url)}`);
        }
      },
    }),
    defineCase({
      id: 'getTokenCatalog/unlisted-query-parameters-ignored',
      title: 'Ignores query parameters it does not list',
      sections: ['4.1'],
      basis: reference('The specification does not say what an unlisted query parameter does; the document (Query parameters) has the reference ignore it.'),
      needs: { keys: ['key'] },
      costs: {},
      async run(ctx) {
        const key = await ctx.key('key');
        const plain = await catalog(ctx, key);
        const extra = await catalog(ctx, key, 'expand=all&limit=1&page=2');
        ctx.expectEqual(extra, plain, 'the same catalog with unlisted parameters as without:', reference('The specification does not say what an unlisted query parameter does; the document (Query parameters) has the reference ignore it.'));
      },
    }),
    defineCase({
      id: 'getTokenCatalog/scoped-key-sees-its-logins',
      title: 'Shows a scoped key only the logins on its list',
      requirements: ['key-scope'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx, { scopedTo: 'site' });
        const all = await catalog(ctx, w.key);
        ctx.expectEqual(labelsOf(all.logins), [w.labels.site], "only the login on the key's list:", spec('key-scope'));
        const sibling = await catalog(ctx, w.key, { url: `https://${w.sibling}/` });
        ctx.expectEqual(labelsOf(sibling.logins), [], `no login for ${w.sibling} (not on the list):`, spec('key-scope'));
        ctx.expectEqual(labelsOf(sibling.relatedLogins), [w.labels.site], 'relatedLogins only from the list:', RELATED);
      },
    }),
    defineCase({
      id: 'getTokenCatalog/empty-identity-field-is-missing',
      title: 'Lists an empty identity field in missing, with its token kept',
      requirements: ['catalog-identity-missing', 'catalog-has-identity-and-addresses', 'catalog-phone-tokens', 'tokens-never-expire'],
      needs: { driver: ['setIdentity'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const { key } = await account.issueKey();
        await account.setIdentity({ phone: null });
        const identity = identityOf(ctx, await catalog(ctx, key));
        ctx.check(identity.missing.includes('phone'), 'phone listed in identity.missing after it was cleared', `missing ${JSON.stringify(identity.missing)}`, spec('catalog-identity-missing'));
        ctx.check(typeof identity.phone === 'string', 'the phone token still listed', 'no phone token', spec('catalog-phone-tokens'));
        await account.setIdentity();
        const filled = identityOf(ctx, await catalog(ctx, key));
        ctx.check(!filled.missing.includes('phone'), 'phone no longer missing once filled', `missing ${JSON.stringify(filled.missing)}`, spec('catalog-identity-missing'));
        ctx.expectEqual(filled.phone, identity.phone, 'the same phone token before and after it was filled:', spec('tokens-never-expire'));
      },
    }),
    defineCase({
      id: 'getTokenCatalog/no-stored-secret-returned',
      title: 'Returns tokens, never a stored card number, password or identity',
      requirements: ['service-never-shows-real-values'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        // Every response of the run is scanned for the canaries stored here; this case reads
        // the catalog every way it can be read, so the scan sees each view.
        const w = await world(ctx);
        ctx.precondition(ctx.env.canaries.size > 0, 'stored secrets to look for', 'none stored', 'a driver that saves cards, logins and identity');
        await catalog(ctx, w.key);
        await catalog(ctx, w.key, { url: `https://${w.site}/` });
        await catalog(ctx, w.key, { host: w.sibling });
      },
    }),
    defineCase({
      id: 'getTokenCatalog/tokens-of-one-account',
      title: "Shares no token between two accounts' catalogs",
      requirements: ['tokens-of-one-account', 'keys-belong-to-an-account'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const [one, two] = [await world(ctx), await world(ctx)];
        const [a, b] = [await catalog(ctx, one.key), await catalog(ctx, two.key)];
        const ofA = new Set(stringLeaves(only(a, NAMED)));
        ctx.precondition(ofA.size > 0, 'tokens in the first account\'s catalog', 'none', 'a driver that saves cards and logins');
        const shared = stringLeaves(only(b, NAMED)).filter((t) => ofA.has(t));
        ctx.expectEqual(shared, [], 'tokens in both accounts\' cards and logins:', spec('tokens-of-one-account', 'keys-belong-to-an-account'));
      },
    }),
    defineCase({
      id: 'getTokenCatalog/tokens-are-stable',
      title: 'Returns the same tokens on every read',
      requirements: ['tokens-never-expire'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const first = await catalog(ctx, w.key);
        const second = await catalog(ctx, w.key);
        ctx.expectEqual([second.cards, second.logins], [first.cards, first.logins], 'the same cards and logins twice (tokens never expire):', spec('tokens-never-expire'));
        ctx.expectEqual(second, first, 'the same catalog twice:', WHOLE);
      },
    }),
  ];
}
