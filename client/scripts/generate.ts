// Generates the client's committed modules: client/generated/document.ts from the bundle
// (dist/openapi.json), and client/generated/package.ts from client/package.json (the version the
// client names in its User-Agent). With --check, fails when a committed file differs from a fresh
// generation, as scripts/generate.ts does for schema.d.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENUM_DESCRIPTIONS, renderDocumentModule, type Rendered } from './document-module.js';
import { renderPackageModule } from './package-module.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUNDLE = join(ROOT, 'dist', 'openapi.json');
const GENERATED = join(ROOT, 'client', 'generated');
const FRESH = join(ROOT, 'dist', 'generated');

if (!existsSync(BUNDLE)) {
  console.error(`client generate: ${relative(ROOT, BUNDLE)} is missing; run "npm run bundle" first`);
  process.exit(1);
}
let rendered: Rendered;
try {
  rendered = renderDocumentModule(JSON.parse(readFileSync(BUNDLE, 'utf8')));
} catch (e) {
  console.error(`client generate: ${(e as Error).message}`);
  process.exit(1);
}
const files = [
  { name: 'document.ts', source: relative(ROOT, BUNDLE), text: rendered.text },
  { name: 'package.ts', source: 'client/package.json', text: renderPackageModule(JSON.parse(readFileSync(join(ROOT, 'client', 'package.json'), 'utf8'))) },
];

if (!process.argv.includes('--check')) {
  mkdirSync(GENERATED, { recursive: true });
  for (const file of files) {
    writeFileSync(join(GENERATED, file.name), file.text);
    console.log(`client generate: ${file.source} -> ${relative(ROOT, join(GENERATED, file.name))}`);
  }
  if (rendered.withoutMeaning.length > 0) {
    console.warn(`client generate: ClientErrorCode has no ${ENUM_DESCRIPTIONS} entry for ${rendered.withoutMeaning.length} code(s)`);
  }
  process.exit(0);
}
let stale = false;
for (const file of files) {
  const target = join(GENERATED, file.name);
  const committed = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (committed === file.text) {
    console.log(`check:generated: ${relative(ROOT, target)} is up to date`);
    continue;
  }
  stale = true;
  const fresh = join(FRESH, file.name);
  mkdirSync(dirname(fresh), { recursive: true });
  writeFileSync(fresh, file.text);
  const diff = spawnSync('diff', ['-u', relative(ROOT, target), relative(ROOT, fresh)], { cwd: ROOT, encoding: 'utf8' });
  const lines = (diff.stdout ?? '').split('\n');
  console.error(lines.slice(0, 120).join('\n') + (lines.length > 120 ? `\n... ${lines.length - 120} more lines` : ''));
  console.error(`check:generated: ${relative(ROOT, target)} differs from a fresh generation; run "npm run generate" and commit it`);
}
process.exit(stale ? 1 : 0);
