import type { Handlers } from './handlers.js';
import { requireKey } from './context.js';
import { buildCatalog } from '../domain/catalog.js';
import { markKeyUsed } from '../store/keys.js';

/** Tag Tokens. */
export const tokenHandlers: Handlers = {
  getTokenCatalog(req, res, { db, clock }) {
    const key = requireKey(req);
    const page = (req.query.url ?? req.query.host) as string | undefined;
    const catalog = buildCatalog(db, key, page);
    // The last-used time is kept to the second: within a second of the last mark, nothing is written.
    const now = clock.now();
    if (key.last_used_at === null || now - key.last_used_at >= 1000) {
      markKeyUsed(db, key.id, now);
      // The key may be the cached row of http/auth.ts, which this bookkeeping write does not expire.
      key.last_used_at = now;
    }
    res.status(200).json(catalog);
  },
};
