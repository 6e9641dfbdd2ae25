// Generates the type of a root `x-limits` member, from openapi/extensions/limit.schema.json, into
// the two packages that read limits (the server and the runner, which ships without the rest of
// the repository), or with --check fails when a committed copy differs from a fresh generation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { writeOrCheck } from './generated-copies.js';
import { ROOT } from './redocly.js';

const SCHEMA = join(ROOT, 'openapi', 'extensions', 'limit.schema.json');
const TARGETS = [join(ROOT, 'server', 'generated', 'limit.ts'), join(ROOT, 'conformance', 'runner', 'generated', 'limit.ts')];

const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'openapi-typescript', 'package.json'), 'utf8')) as { version: string };
const { $schema: _dialect, $id: _id, ...limit } = JSON.parse(readFileSync(SCHEMA, 'utf8')) as Record<string, unknown>;
// openapi-typescript reads OpenAPI documents; one whose only member is the limit schema gives its type.
const ast = await openapiTS({ openapi: '3.1.0', info: { title: 'x-limits', version: '1' }, paths: {}, components: { schemas: { Limit: limit } } } as never, { silent: true });
const types = astToString(ast);
const fresh = `/**
 * Generated from openapi/extensions/limit.schema.json by the repository's \`npm run generate\`
 * (openapi-typescript ${version}). Do not edit by hand: change the schema and regenerate
 * (\`npm run check:generated\` fails when this file is stale).
 */

${types}
/** A member of the root \`x-limits\`, with the id it is keyed by. */
export type LimitDef = components['schemas']['Limit'] & { id: string };
`;

writeOrCheck(SCHEMA, TARGETS, fresh);
