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
    markKeyUsed(db, key.id, clock.now());
    res.status(200).json(catalog);
  },
};
