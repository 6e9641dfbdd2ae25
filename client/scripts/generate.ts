// Generates client/generated/document.ts from the bundle (dist/openapi.json), or with --check fails
// when the committed file differs from a fresh generation, as scripts/generate.ts does for schema.d.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENUM_DESCRIPTIONS, renderDocumentModule, type Rendered } from './document-module.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUNDLE = join(ROOT, 'dist', 'openapi.json');
const TARGET = join(ROOT, 'client', 'generated', 'document.ts');
const FRESH = join(ROOT, 'dist', 'generated', 'document.ts');

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

if (!process.argv.includes('--check')) {
  mkdirSync(dirname(TARGET), { recursive: true });
  writeFileSync(TARGET, rendered.text);
  console.log(`client generate: ${relative(ROOT, BUNDLE)} -> ${relative(ROOT, TARGET)}`);
  if (rendered.withoutMeaning.length > 0) {
    console.warn(`client generate: ClientErrorCode has no ${ENUM_DESCRIPTIONS} entry for ${rendered.withoutMeaning.length} code(s)`);
  }
  process.exit(0);
}
const committed = existsSync(TARGET) ? readFileSync(TARGET, 'utf8') : '';
if (committed === rendered.text) {
  console.log(`check:generated: ${relative(ROOT, TARGET)} is up to date`);
  process.exit(0);
}
mkdirSync(dirname(FRESH), { recursive: true });
writeFileSync(FRESH, rendered.text);
const diff = spawnSync('diff', ['-u', relative(ROOT, TARGET), relative(ROOT, FRESH)], { cwd: ROOT, encoding: 'utf8' });
const lines = (diff.stdout ?? '').split('\n');
console.error(lines.slice(0, 120).join('\n') + (lines.length > 120 ? `\n... ${lines.length - 120} more lines` : ''));
console.error(`check:generated: ${relative(ROOT, TARGET)} differs from a fresh generation; run "npm run generate" and commit it`);
process.exit(1);
