import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDb } from '../store/db.js';
import { ManualClock } from '../domain/clock.js';
import { RecipeRegistry } from '../domain/recipes.js';
import type { Recipe, Release } from '../domain/registry.js';
import { contract } from './support.js';
import { scanLive, scanLookup } from './recipe-scan.js';

// The registry answers lookups from its host index; the precedence rules (docs/recipes.md) are
// those of the scan it replaced. Generated releases, contributions (merged, pending, rejected,
// verified or not, held back or live) and pages: the index, the full bundle and every lookup are
// the scan's.

const HOSTS = ['acme.com', 'www.acme.com', 'shop.acme.com', 'ACME.com', 'acme.co.uk', 'www.acme.co.uk', 'payco.com', 'checkout.payco.com', 'exÿ.com', 'xn--ex-7ka.com', 'acme.com.', 'github.io', 'me.github.io'];
const PAGE_HOSTS = [...HOSTS, 'a.b.shop.acme.com', 'WWW.ACME.CO.UK', 'other.org', '127.0.0.1', '[::1]', 'a_b.acme.com', 'you.github.io'];
const PATHS = ['/', '/checkout', '/checkout/', '/checkouts', '/cart', '/c', '/Checkout'];
const KEYS = ['acme.com', 'acme.co.uk', 'payco', 'shopx', 'signup:acme.com', 'signup:auth0', 'k1', 'k2', 'custom'];
const KINDS = ['merchant', 'platform', 'signup', 'signup-platform'] as const;
const STATUSES = ['verified', 'partial', 'unverified', 'dead-end'] as const;

const recipe = fc.record(
  {
    key: fc.constantFrom(...KEYS),
    kind: fc.constantFrom(...KINDS),
    status: fc.constantFrom(...STATUSES),
    platform: fc.constantFrom('payco', 'signup:auth0', 'shopx', 'custom', 'k1'),
    match: fc.record(
      { hosts: fc.array(fc.constantFrom(...HOSTS), { minLength: 1, maxLength: 3 }), paths: fc.array(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 3 }) },
      { requiredKeys: ['hosts'] },
    ),
  },
  { requiredKeys: ['key', 'kind', 'status'] },
) as fc.Arbitrary<Recipe>;

const contribution = fc.record({
  recipe,
  status: fc.constantFrom('pending', 'approved', 'needs_human', 'merged', 'rejected'),
  liveStatus: fc.constantFrom(...STATUSES),
  liveSince: fc.integer({ min: 0, max: 3 }),
});

const page = fc
  .tuple(fc.constantFrom('https://', 'http://', 'ftp://', ''), fc.constantFrom(...PAGE_HOSTS), fc.constantFrom(...PATHS, '/checkout/1', '/cart?x=1#f', ''))
  .map(([scheme, host, path]) => `${scheme}${host}${path}`);

describe('recipe lookup by host index', () => {
  it('when registries and pages are generated, then the index, the full bundle and every lookup are those of the scan', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(recipe, { selector: (r) => r.key, minLength: 1, maxLength: 8 }),
        fc.array(contribution, { maxLength: 8 }),
        fc.array(page, { minLength: 1, maxLength: 12 }),
        async (recipes, contributions, pages) => {
          const release: Release = { registryVersion: '2026.11', file: 'release-test.json', recipes };
          const db = openDb(':memory:');
          try {
            db.sqlite.prepare("INSERT INTO accounts (id, plan, name, created_at) VALUES ('acc', 'Free', 'test', 0)").run();
            const insert = db.sqlite.prepare(
              `INSERT INTO recipe_submissions (id, account_id, recipe_key, kind, platform, body, live_status, verification_requested, status, created_at, live_since)
               VALUES (?, 'acc', ?, ?, ?, ?, ?, 0, ?, 0, ?)`,
            );
            contributions.forEach((c, i) =>
              insert.run(`sub_${i}`, c.recipe.key, c.recipe.kind, c.recipe.platform ?? null, JSON.stringify(c.recipe), c.liveStatus, c.status, c.liveSince),
            );
            const registry = new RecipeRegistry({ db, clock, contract: contract(), log: () => {} }, release);
            registry.screening.pause();
            const scanned = await scanLive(db, release);
            const asIndex = (full: boolean) =>
              scanned.map((l) => ({
                key: l.recipe.key,
                kind: l.recipe.kind,
                ...(l.recipe.platform !== undefined ? { platform: l.recipe.platform } : {}),
                status: l.recipe.status,
                registryVersion: l.registryVersion,
                ...(full ? { recipe: l.recipe } : {}),
              }));
            expect(JSON.stringify(await registry.index(true))).toBe(JSON.stringify(asIndex(true)));
            expect(JSON.stringify(await registry.index(false))).toBe(JSON.stringify(asIndex(false)));
            for (const url of pages) expect(JSON.stringify(await registry.lookup(url)), url).toBe(JSON.stringify(scanLookup(scanned, url)));
          } finally {
            await db.close();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
