// Generates client/generated/schema.d.ts from the bundle (dist/openapi.json), or with --check
// fails when the committed file differs from a fresh generation.
//
// The openapi-typescript CLI is not used: it reads redocly.yaml by itself, and ours (a Redocly 2
// config with `apis` and a plugin) is not one it can load, and its --check would also compare
// against its own header, not ours.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { ROOT } from './redocly.js';

const BUNDLE = join(ROOT, 'dist', 'openapi.json');
const TARGET = join(ROOT, 'client', 'generated', 'schema.d.ts');
const FRESH = join(ROOT, 'dist', 'generated', 'schema.d.ts');

const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'openapi-typescript', 'package.json'), 'utf8')) as { version: string };
const HEADER = `/**
 * Generated from the API's bundled OpenAPI document by the repository's \`npm run generate\`
 * (openapi-typescript ${version}). Do not edit by hand: change the document and regenerate
 * (\`npm run check:generated\` fails when this file is stale).
 */

`;

if (!existsSync(BUNDLE)) {
  console.error(`generate: ${relative(ROOT, BUNDLE)} is missing; run "npm run bundle" first`);
  process.exit(1);
}
// A member with a default stays optional: a request may leave it out (`at` of a purchase decision).
const ast = await openapiTS(pathToFileURL(BUNDLE), { silent: true, defaultNonNullable: false });
const fresh = HEADER + astToString(ast);

if (!process.argv.includes('--check')) {
  mkdirSync(dirname(TARGET), { recursive: true });
  writeFileSync(TARGET, fresh);
  console.log(`generate: ${relative(ROOT, BUNDLE)} -> ${relative(ROOT, TARGET)}`);
  process.exit(0);
}
const committed = existsSync(TARGET) ? readFileSync(TARGET, 'utf8') : '';
if (committed === fresh) {
  console.log(`check:generated: ${relative(ROOT, TARGET)} is up to date`);
  process.exit(0);
}
mkdirSync(dirname(FRESH), { recursive: true });
writeFileSync(FRESH, fresh);
const diff = spawnSync('diff', ['-u', relative(ROOT, TARGET), relative(ROOT, FRESH)], { cwd: ROOT, encoding: 'utf8' });
const lines = (diff.stdout ?? '').split('\n');
console.error(lines.slice(0, 120).join('\n') + (lines.length > 120 ? `\n... ${lines.length - 120} more lines` : ''));
console.error(`check:generated: ${relative(ROOT, TARGET)} differs from a fresh generation; run "npm run generate" and commit it`);
process.exit(1);
