import { Router, type RequestHandler } from 'express';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCS = join(ROOT, 'dist', 'docs');

/**
 * The rendered reference docs (`npm run docs`): the API's at /docs and the fixture surface's at
 * /docs/fixtures, each one self-contained HTML file. The pages link to each other as
 * `../docs/<file>.html` and to the changelog as `../../CHANGELOG.md`: relative links that reach
 * the same files from dist/docs/ in a checkout and from these routes, so CHANGELOG.md is served
 * at the root. It is public on purpose: it is the contract's release notes, generated from the
 * document the docs already publish, and holds nothing about the deployment or its data.
 */
export function docsRouter(docsDir = DOCS, changelog = join(ROOT, 'CHANGELOG.md')): Router {
  const router = Router();
  router.get(['/docs', '/docs/', '/docs/index.html'], file(join(docsDir, 'index.html'), 'text/html'));
  router.get(['/docs/fixtures', '/docs/fixtures.html'], file(join(docsDir, 'fixtures.html'), 'text/html'));
  // Plain text: a browser shows Markdown served as text/markdown as a download.
  router.get('/CHANGELOG.md', file(changelog, 'text/plain'));
  return router;
}

function file(path: string, type: string): RequestHandler {
  return (_req, res) => {
    if (!existsSync(path)) {
      // The API's own answer for a path with nothing behind it, like every other 404 of this server.
      res.status(404).set('Cache-Control', 'no-store').json({ code: 'not_found', error: 'The reference docs are not built; run "npm run docs".' });
      return;
    }
    res.type(`${type}; charset=utf-8`).sendFile(path);
  };
}
