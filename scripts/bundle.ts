// Bundles each document of redocly.yaml into dist/<name>.yaml and dist/<name>.json: external
// files resolved, components kept (not dereferenced), so the bundle still names `Error`,
// `RecipeLookup` and the rest for the client types, the server's validator and the docs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { BUNDLE_STEP, inputsDigest, recordBuilt } from './build-state.js';
import { addCodeSamples } from './code-samples.js';
import { apis, REDOCLY, REDOCLY_ENV, ROOT } from './redocly.js';

const dist = join(ROOT, 'dist');
const digest = inputsDigest(ROOT, BUNDLE_STEP);
const MAIN = 'openapi/openapi.yaml';
mkdirSync(dist, { recursive: true });
for (const api of apis()) {
  const yamlFile = join(dist, `${api.output}.yaml`);
  const run = spawnSync(REDOCLY, ['bundle', api.name, '--lint-config=error', '--output', yamlFile], {
    cwd: ROOT,
    env: REDOCLY_ENV,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    process.stderr.write(run.stderr);
    console.error(`bundle: ${api.name} failed`);
    process.exit(1);
  }
  // One bundle, two encodings: converting here keeps the YAML and the JSON identical by construction.
  const document = parse(readFileSync(yamlFile, 'utf8')) as Record<string, unknown>;
  // The API's reference shows a curl and a TypeScript sample of each operation, made from its examples.
  if (api.root === MAIN) {
    addCodeSamples(document);
    writeFileSync(yamlFile, stringify(document, { lineWidth: 0 }));
  }
  writeFileSync(join(dist, `${api.output}.json`), `${JSON.stringify(document, null, 2)}\n`);
  console.log(`bundle: ${api.root} -> dist/${api.output}.yaml, dist/${api.output}.json`);
}
recordBuilt(ROOT, BUNDLE_STEP, digest);
