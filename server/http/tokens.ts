import type { Handlers, Services } from './handlers.js';
import { requireKey } from './context.js';
import { itemVerdicts, type ItemVerdicts } from './validated-items.js';
import { kept, sendKept } from './answer-cache.js';
import { buildCatalog } from '../domain/catalog.js';
import { catalogJson } from '../domain/catalog-json.js';
import { markKeyUsed } from '../store/keys.js';
import { scopes } from '../store/read-cache.js';

/** The catalog entries each server's response hook has let through. */
const entryVerdicts = new WeakMap<Services, ItemVerdicts | undefined>();

function verdictsOf(services: Services): ItemVerdicts | undefined {
  if (!services.config.validateResponses) return undefined;
  let verdicts = entryVerdicts.get(services);
  if (verdicts === undefined && !entryVerdicts.has(services)) {
    entryVerdicts.set(services, (verdicts = itemVerdicts(services.contract, 'getTokenCatalog', ['cards', 'logins', 'relatedLogins', 'addresses'])));
  }
  return verdicts;
}

/** Tag Tokens. */
export const tokenHandlers: Handlers = {
  async getTokenCatalog(req, res, services) {
    const { db, clock } = services;
    const key = requireKey(req);
    const page = (req.query.url ?? req.query.host) as string | undefined;
    // The keys of an account see one catalog, except a scoped key, which sees only its own logins.
    const answer = await kept(db, `catalog:${key.account_id}:${key.scoped === 1 ? key.id : '*'}:${page === undefined ? '' : `?${page}`}`, scopes.account(key.account_id));
    const catalog = answer.bytes ? undefined : await buildCatalog(db, key, page);
    // The last-used time is kept to the second: within a second of the last mark, nothing is written.
    const now = clock.now();
    if (key.last_used_at === null || now - key.last_used_at >= 1000) {
      // The key may be the cached row of http/auth.ts, which this bookkeeping write does not expire.
      key.last_used_at = now;
      await markKeyUsed(db, key.id, now);
    }
    // Only a built answer goes through the response hook: a kept one is sent as its bytes.
    sendKept(res, answer, catalog, catalog && (() => catalogJson(catalog)), catalog && verdictsOf(services));
  },
};
