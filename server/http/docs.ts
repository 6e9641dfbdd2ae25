import { Router, type Request, type RequestHandler } from 'express';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'dist');
const DOCS = join(DIST, 'docs');

/**
 * The rendered reference docs (`npm run docs`): the folder dist/docs/ at /docs/: the API's page,
 * the back office's (also at /docs/fixtures), each reference as Markdown, the changelog,
 * and their icon at /favicon.ico. The files link to each other by name (`fixtures.html`,
 * `CHANGELOG.md`), as they lie side by side wherever the folder is published, so /docs redirects to
 * /docs/ for those links to resolve inside it. The changelog is public on purpose: it is the
 * contract's release notes, generated from the document the docs already publish, and holds nothing
 * about the deployment or its data; it is also served at /CHANGELOG.md, where links used to point.
 *
 * A page names the document's default base URL (in its servers panel, its prose and its samples'
 * VAULT_API_URL); served here, it names this server's origin instead, from the request's Host, so
 * that what a reader copies reaches the server they are reading. A Host that is not a plain host and
 * port leaves the page as built: it is written into HTML and scripts.
 */
export function docsRouter(docsDir = DOCS, changelog = join(ROOT, 'CHANGELOG.md'), bundles = DIST): Router {
  const router = Router({ strict: true });
  router.get('/docs', (req, res) => res.redirect(301, `/docs/${req.originalUrl.slice('/docs'.length)}`));
  router.get(['/docs/', '/docs/index.html'], page(join(docsDir, 'index.html'), join(bundles, 'openapi.json')));
  router.get(['/docs/fixtures', '/docs/fixtures.html'], page(join(docsDir, 'fixtures.html'), join(bundles, 'back-office.json')));
  // Plain text: a browser shows Markdown served as text/markdown as a download.
  router.get('/docs/reference.md', page(join(docsDir, 'reference.md'), join(bundles, 'openapi.json'), 'text/plain; charset=utf-8'));
  router.get('/docs/fixtures.md', page(join(docsDir, 'fixtures.md'), join(bundles, 'back-office.json'), 'text/plain; charset=utf-8'));
  router.get('/favicon.ico', file(join(docsDir, 'favicon.svg'), 'image/svg+xml'));
  router.get(['/CHANGELOG.md', '/docs/CHANGELOG.md'], file(changelog, 'text/plain'));
  return router;
}

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** This server's origin as the request reached it, or undefined when its Host is not one to print. */
function originOf(req: Request): string | undefined {
  const host = req.headers.host;
  return host !== undefined && HOST.test(host) ? `${req.protocol}://${host}` : undefined;
}

function page(path: string, bundle: string, type = 'text/html; charset=utf-8'): RequestHandler {
  return async (req, res) => {
    if (!existsSync(path)) return notBuilt(res);
    let text = await readFile(path, 'utf8');
    const origin = originOf(req);
    const base = origin === undefined ? undefined : await defaultBaseUrl(bundle);
    if (origin !== undefined && base !== undefined) text = text.replaceAll(base, origin);
    res.type(type).send(text);
  };
}

const defaults = new Map<string, Promise<string | undefined>>();

/** The bundle's default base URL, as scripts/docs.ts filled it into the page (read once per bundle). */
function defaultBaseUrl(bundle: string): Promise<string | undefined> {
  let value = defaults.get(bundle);
  if (!value) {
    value = readFile(bundle, 'utf8').then(
      (text) => {
        const doc = JSON.parse(text) as { servers?: Array<{ variables?: Record<string, { default?: string }> }> };
        const base = doc.servers?.[0]?.variables?.base_url?.default;
        return typeof base === 'string' && base !== '' ? base : undefined;
      },
      () => undefined,
    );
    defaults.set(bundle, value);
  }
  return value;
}

function file(path: string, type: string): RequestHandler {
  return (_req, res) => {
    if (!existsSync(path)) return notBuilt(res);
    res.type(type.startsWith('text/') ? `${type}; charset=utf-8` : type).sendFile(path);
  };
}

function notBuilt(res: Parameters<RequestHandler>[1]): void {
  // The API's own answer for a path with nothing behind it, like every other 404 of this server.
  res.status(404).set('Cache-Control', 'no-store').json({ code: 'not_found', error: 'The reference docs are not built; run "npm run docs".' });
}
