// Generates the types of the back office's request bodies (from dist/back-office.json, bundled from
// openapi/back-office.yaml) into the two packages that send or read them: the server, and the runner,
// whose back-office driver ships without the rest of the repository. With --check it fails when a
// committed copy differs from a fresh generation.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { writeOrCheck } from './generated-copies.js';
import { ROOT } from './redocly.js';

const BUNDLE = join(ROOT, 'dist', 'back-office.json');
const TARGETS = [join(ROOT, 'server', 'generated', 'back-office.ts'), join(ROOT, 'conformance', 'runner', 'generated', 'back-office.ts')];

if (!existsSync(BUNDLE)) {
  console.error(`generate: ${relative(ROOT, BUNDLE)} is missing; run "npm run bundle" first`);
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'openapi-typescript', 'package.json'), 'utf8')) as { version: string };
type Node = Record<string, unknown>;
const document = JSON.parse(readFileSync(BUNDLE, 'utf8')) as { paths: Record<string, Record<string, Node>>; components: { schemas: Record<string, Node> } };
const SCHEMA_REF = '#/components/schemas/';

/** The schema names `node` refers to, at any depth. */
function refsOf(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) refsOf(item, into);
  else if (node && typeof node === 'object') {
    const ref = (node as Node).$ref;
    if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) into.add(ref.slice(SCHEMA_REF.length));
    for (const value of Object.values(node)) refsOf(value, into);
  }
  return into;
}

// What a caller sends and the server reads: each operation's request body, with the schemas it refers to.
const bodies = refsOf(Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => (op as Node).requestBody)), new Set());
for (const name of bodies) refsOf(document.components.schemas[name], bodies);
const schemas = Object.fromEntries([...bodies].sort().map((name) => [name, document.components.schemas[name]]));
// A member with a default stays optional: a request may leave it out (`extraWebsites` of a login).
const ast = await openapiTS({ openapi: '3.1.0', info: { title: 'back office request bodies', version: '1' }, paths: {}, components: { schemas } } as never, { silent: true, defaultNonNullable: false });
const fresh = `/**
 * The back office's request bodies, generated from its bundled document (openapi/back-office.yaml) by the
 * repository's \`npm run generate\` (openapi-typescript ${version}). Do not edit by hand: change the
 * document and regenerate (\`npm run check:generated\` fails when this file is stale).
 */

${astToString(ast)}`;

writeOrCheck(BUNDLE, TARGETS, fresh);
