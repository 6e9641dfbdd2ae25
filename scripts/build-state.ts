// Whether a build step's outputs are current: each step records a digest of its inputs' contents
// when it succeeds (dist/.built/<step>.json), and is fresh while every output exists and its inputs
// still have that digest. Contents, not modification times: a checkout, a `git stash` or a copy
// changes the times of files whose contents did not change, and a clock can go back.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface BuildStep {
  name: string;
  /** Files and folders, relative to the repository, whose contents the outputs are made from. */
  inputs: string[];
  /** Files, relative to the repository, that the step writes. */
  outputs: string[];
}

/** The tools' versions come with package-lock.json: a new Redocly renders differently. */
const TOOLS = ['package-lock.json', 'redocly.yaml', 'scripts/redocly.ts', 'scripts/build-state.ts'];

/** `npm run bundle`: the documents and the scripts that bundle them and add the code samples. */
export const BUNDLE_STEP: BuildStep = {
  name: 'bundle',
  inputs: [...TOOLS, 'openapi', 'scripts/bundle.ts', 'scripts/code-samples.ts', 'client/scripts/document-module.ts'],
  outputs: ['dist/openapi.yaml', 'dist/openapi.json', 'dist/back-office.yaml', 'dist/back-office.json'],
};

/** `npm run docs`: the bundles it renders, the changelog it publishes, and its own scripts. */
export const DOCS_STEP: BuildStep = {
  name: 'docs',
  inputs: [...TOOLS, 'dist/openapi.json', 'dist/back-office.json', 'openapi/guides', 'CHANGELOG.md', 'scripts/docs.ts', 'scripts/docs', 'scripts/code-samples.ts', 'client/scripts/document-module.ts'],
  outputs: ['dist/docs/index.html', 'dist/docs/fixtures.html', 'dist/docs/reference.md', 'dist/docs/CHANGELOG.md', 'dist/docs/favicon.svg'],
};

// Tests of a folder describe it but are not read by the step.
const SKIPPED = new Set(['node_modules', 'test', '.git']);

function files(root: string, path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .filter((name) => !SKIPPED.has(name))
    .sort()
    .flatMap((name) => files(root, join(path, name)));
}

/** A digest of the step's inputs: every file's path and contents, in a fixed order. */
export function inputsDigest(root: string, step: BuildStep): string {
  const hash = createHash('sha256');
  for (const file of step.inputs.flatMap((input) => files(root, input))) {
    hash.update(`${relative(root, join(root, file))}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const stampOf = (root: string, step: BuildStep) => join(root, 'dist', '.built', `${step.name}.json`);

/** Whether the step's outputs all exist and were made from its inputs as they are now. */
export function isFresh(root: string, step: BuildStep): boolean {
  if (!step.outputs.every((output) => existsSync(join(root, output)))) return false;
  try {
    const stamp = JSON.parse(readFileSync(stampOf(root, step), 'utf8')) as { inputs?: string };
    return stamp.inputs === inputsDigest(root, step);
  } catch {
    return false;
  }
}

/**
 * Records that the step has made its outputs from the inputs whose digest is given: the one taken
 * before the step read them, so that an input changed during the build leaves the step stale.
 */
export function recordBuilt(root: string, step: BuildStep, digest: string): void {
  mkdirSync(join(root, 'dist', '.built'), { recursive: true });
  writeFileSync(stampOf(root, step), `${JSON.stringify({ inputs: digest })}\n`);
}
