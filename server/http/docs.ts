import type { RequestHandler } from 'express';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'docs', 'index.html');

/** The rendered reference docs (npm run docs), one self-contained HTML file. */
export function docsRoute(file = DOCS): RequestHandler {
  return (_req, res) => {
    if (!existsSync(file)) {
      res.status(404).type('text/plain').send('The reference docs are not built; run "npm run docs".\n');
      return;
    }
    res.sendFile(file);
  };
}
