import { Router } from 'express';
import { stmt, type Db } from '../store/db.js';

/** What a load balancer reads of this replica: whether it takes requests. */
export interface Readiness {
  /** Set when a stop began (SIGTERM): the replica answers what it has, and takes nothing new. */
  draining: boolean;
}

/**
 * The replica's own health, outside the documented API (docs/cluster.md): `/_health/live` answers
 * 200 while the process runs; `/_health/ready` answers 200 while it serves and reaches its
 * database, and 503 with the reason while it drains or the database cannot be reached, so a load
 * balancer sends it nothing new.
 */
export function healthRouter(db: Db, readiness: Readiness): Router {
  const router = Router();
  router.get('/_health/live', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({ live: true });
  });
  router.get('/_health/ready', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (readiness.draining) return void res.status(503).json({ ready: false, reason: 'draining' });
    try {
      await stmt(db, 'SELECT 1').get();
    } catch {
      return void res.status(503).setHeader('Retry-After', '1').json({ ready: false, reason: 'database' });
    }
    res.status(200).json({ ready: true });
  });
  return router;
}
