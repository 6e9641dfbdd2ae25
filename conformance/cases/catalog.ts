import { defineCase, type Case } from '../runner/case.js';
import type { CaseContext } from '../runner/context.js';
import type { Node } from '../runner/document.js';
import { reference } from '../runner/basis.js';
import { catalog, meaningfulDifferences, sameEntry, without } from './support.js';

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

const labelsOf = (entries: Node[] | undefined) => (entries ?? []).map((l: Node) => l.label as string);

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
  const changed = meaningfulDifferences(without(all, NAMED), without(page, NAMED), without(again, NAMED));
  ctx.check(changed.length === 0, `identity and addresses (every member but ${NAMED.join(', ')}) unchanged ${what}`, () => `changed at ${changed.join(', ')}`, { sections: ['4.1'] });
}

const WORLD_DRIVER = { driver: ['setIdentity', 'saveAddress'] as ('setIdentity' | 'saveAddress')[] };

/**
 * Section 2.1: the identity item lists its empty fields in `missing` and has a token per field,
 * among them `phone`. It is found by that member, not by a name the specification does not give.
 */
function identityOf(ctx: CaseContext, body: Node): { missing: string[]; phone?: unknown } {
  const item = Object.values<Node>(without(body, NAMED)).find((v) => v && typeof v === 'object' && Array.isArray(v.missing));
  if (!item) ctx.fail('an identity item listing its empty fields in `missing`', `members ${Object.keys(body).join(', ')}`, { sections: ['2.1'] });
  const phone = typeof item.phone === 'string' ? item.phone : Object.values<Node>(item).find((v) => v && typeof v === 'object' && typeof v.phone === 'string')?.phone;
  return { missing: item.missing as string[], phone };
}

export function catalogCases(): Case[] {
  return [
    defineCase({
      id: 'getTokenCatalog/whole-catalog-without-filter',
      title: 'Lists every card and login, with no relatedLogins, without a filter',
      sections: ['2.1', '4.1'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const all = await catalog(ctx, w.key);
        ctx.expectEqual((all.cards as Node[]).length, 3, 'three cards:');
        ctx.expectEqual(labelsOf(all.logins).sort(), Object.values(w.labels).sort(), 'every login:');
        ctx.check(!('relatedLogins' in all), 'no relatedLogins without a url filter', 'relatedLogins present', { sections: ['2.1'] });
      },
    }),
    defineCase({
      id: 'getTokenCatalog/url-narrows-to-the-page',
      title: "Narrows cards and logins to the page's site, anySite cards last",
      sections: ['4.1', '2.1'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const all = await catalog(ctx, w.key);
        const again = await catalog(ctx, w.key);
        const page = await catalog(ctx, w.key, { url: `https://shop.${w.site}/checkout/step-1` });
        const cards = page.cards as Node[];
        ctx.expectEqual(cards.map((c: Node) => c.anySite), [false, true], "the page's card, then the anySite card (anySite flags):");
        // A card is told by its tokens, whatever the members holding them are called.
        ctx.check(cards.every((c) => (all.cards as Node[]).some((a) => sameEntry(c, a))), "the account's own cards", 'a card not in the whole catalog');
        const other = await catalog(ctx, w.key, { url: `https://${w.elsewhere}/` });
        ctx.check(!sameEntry(cards[0], (other.cards as Node[])[0]), 'different site-scoped cards on different sites', 'the same card on both sites');
        ctx.expectEqual(labelsOf(page.logins), [w.labels.site], 'logins registered for the page:');
        ctx.check(Array.isArray(page.relatedLogins), 'relatedLogins with a url filter', 'no relatedLogins', { sections: ['2.1', '4.1'] });
        ctx.expectEqual(labelsOf(page.relatedLogins), [w.labels.sibling], 'relatedLogins (same site name, other suffix):', { basis: RELATED });
        expectUnnamedUnchanged(ctx, page, all, again, 'by the filter');
      },
    }),
    defineCase({
      id: 'getTokenCatalog/host-is-an-alias-of-url',
      title: 'Reads host as an alias of url',
      sections: ['4.1'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const byUrl = await catalog(ctx, w.key, { url: `https://shop.${w.site}/cart` });
        const byHost = await catalog(ctx, w.key, { host: `shop.${w.site}` });
        ctx.expectEqual([byHost.cards, byHost.logins], [byUrl.cards, byUrl.logins], 'the same cards and logins for host=<host> as for url=<page on that host>:');
        ctx.expectEqual(byHost, byUrl, 'the same catalog for host=<host> as for url=<page on that host>:', { basis: WHOLE });
      },
    }),
    defineCase({
      id: 'getTokenCatalog/extra-website-registers-a-login',
      title: "Lists a login on the pages of one of its extra sites",
      sections: ['2.1', '4.1'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const page = await catalog(ctx, w.key, { url: `https://${w.extraHost}/signin` });
        ctx.check(labelsOf(page.logins).includes(w.labels.site), `the login whose extra site is ${w.extraHost}`, `logins ${JSON.stringify(labelsOf(page.logins))}`);
      },
    }),
    defineCase({
      id: 'getTokenCatalog/unparseable-url-matches-no-site',
      title: 'Keeps only anySite cards for a url that does not parse',
      sections: ['4.1'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const all = await catalog(ctx, w.key);
        const again = await catalog(ctx, w.key);
        for (const url of ['not a url', 'http://', '%%%', '127.0.0.1', 'co.uk']) {
          const page = await catalog(ctx, w.key, { url });
          ctx.expectEqual((page.cards as Node[]).map((c: Node) => c.anySite), [true], `for url=${JSON.stringify(url)}, only the anySite card:`);
          ctx.expectEqual(page.logins, [], `for url=${JSON.stringify(url)}, no login:`);
          // "Every login is dropped": the related ones too.
          ctx.expectEqual(page.relatedLogins, [], `for url=${JSON.stringify(url)}, relatedLogins empty:`);
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
        ctx.expectEqual(extra, plain, 'the same catalog with unlisted parameters as without:');
      },
    }),
    defineCase({
      id: 'getTokenCatalog/scoped-key-sees-its-logins',
      title: 'Shows a scoped key only the logins on its list',
      sections: ['5', '4.1', '2.1'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx, { scopedTo: 'site' });
        const all = await catalog(ctx, w.key);
        ctx.expectEqual(labelsOf(all.logins), [w.labels.site], 'only the login on the key\'s list:');
        const sibling = await catalog(ctx, w.key, { url: `https://${w.sibling}/` });
        ctx.expectEqual(labelsOf(sibling.logins), [], `no login for ${w.sibling} (not on the list):`);
        ctx.expectEqual(labelsOf(sibling.relatedLogins), [w.labels.site], 'relatedLogins only from the list:', { basis: RELATED });
      },
    }),
    defineCase({
      id: 'getTokenCatalog/empty-identity-field-is-missing',
      title: 'Lists an empty identity field in missing, with its token kept',
      sections: ['2.1'],
      needs: { driver: ['setIdentity'] },
      costs: {},
      async run(ctx) {
        const account = await ctx.account();
        const { key } = await account.issueKey();
        await account.setIdentity({ phone: null });
        const identity = identityOf(ctx, await catalog(ctx, key));
        ctx.check(identity.missing.includes('phone'), 'phone listed in identity.missing after it was cleared', `missing ${JSON.stringify(identity.missing)}`);
        ctx.check(typeof identity.phone === 'string', 'the phone token still listed', 'no phone token');
        await account.setIdentity();
        const filled = identityOf(ctx, await catalog(ctx, key));
        ctx.check(!filled.missing.includes('phone'), 'phone no longer missing once filled', `missing ${JSON.stringify(filled.missing)}`);
        ctx.expectEqual(filled.phone, identity.phone, 'the same phone token before and after it was filled:');
      },
    }),
    defineCase({
      id: 'getTokenCatalog/no-stored-secret-returned',
      title: 'Returns tokens, never a stored card number, password or identity',
      sections: ['1', '2.1', '4.1'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        // Every response of the run is scanned for the canaries stored here; this case reads
        // the catalog every way it can be read, so the scan sees each view.
        const w = await world(ctx);
        await catalog(ctx, w.key);
        await catalog(ctx, w.key, { url: `https://${w.site}/` });
        await catalog(ctx, w.key, { host: w.sibling });
        ctx.check(ctx.env.canaries.size > 0, 'stored secrets to look for', 'none stored');
      },
    }),
    defineCase({
      id: 'getTokenCatalog/tokens-are-stable',
      title: 'Returns the same tokens on every read',
      sections: ['1', '2.1'],
      needs: WORLD_DRIVER,
      costs: {},
      async run(ctx) {
        const w = await world(ctx);
        const first = await catalog(ctx, w.key);
        const second = await catalog(ctx, w.key);
        ctx.expectEqual([second.cards, second.logins], [first.cards, first.logins], 'the same cards and logins twice (tokens never expire):');
        ctx.expectEqual(second, first, 'the same catalog twice:', { basis: WHOLE });
      },
    }),
  ];
}
