import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUNDLE_STEP, type BuildStep, DOCS_STEP, inputsDigest, isFresh, recordBuilt } from '../../scripts/build-state.js';
import { needsBuild } from '../../scripts/start.js';
import { ROOT } from './bundle.js';

/**
 * What `npm start` builds before it starts the server (scripts/start.ts): the bundle and the docs
 * only when their inputs changed since they were built, both with `--reset`. Decided on a copy of
 * the steps' inputs in a folder of its own, with outputs that stand in for the built ones: the
 * decision reads contents and records, never the steps' work.
 */

let root = '';

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** The step as `npm run bundle` or `npm run docs` leaves it: outputs written, inputs recorded. */
function built(step: BuildStep): void {
  const digest = inputsDigest(root, step);
  for (const output of step.outputs) write(output, `${step.name} output`);
  recordBuilt(root, step, digest);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'vault-start-'));
  // The real inputs that exist (a missing one is read as absent, as in a checkout without it).
  for (const input of new Set([...BUNDLE_STEP.inputs, ...DOCS_STEP.inputs])) {
    if (input.startsWith('dist/')) continue;
    try {
      cpSync(join(ROOT, input), join(root, input), { recursive: true });
    } catch {
      // not in this checkout
    }
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('what npm start builds', () => {
  it('when nothing was ever built (a fresh clone), then it builds the bundle and the docs', () => {
    expect(needsBuild(root, BUNDLE_STEP, [])).toBe(true);
    expect(needsBuild(root, DOCS_STEP, [])).toBe(true);
  });

  it('when both were built and nothing changed since, then it builds neither', () => {
    built(BUNDLE_STEP);
    built(DOCS_STEP);
    expect(needsBuild(root, BUNDLE_STEP, [])).toBe(false);
    expect(needsBuild(root, DOCS_STEP, [])).toBe(false);
  });

  it('when --reset is given, then it builds both, however fresh they are', () => {
    built(BUNDLE_STEP);
    built(DOCS_STEP);
    expect(needsBuild(root, BUNDLE_STEP, ['--reset'])).toBe(true);
    expect(needsBuild(root, DOCS_STEP, ['--reset'])).toBe(true);
  });

  it('when a file of the document changed, then it builds the bundle, and the docs once the bundle they render changed', () => {
    built(BUNDLE_STEP);
    built(DOCS_STEP);
    write('openapi/components/schemas/Error.yaml', `${'# changed\n'}title: Error\n`);
    expect(needsBuild(root, BUNDLE_STEP, [])).toBe(true);
    expect(needsBuild(root, DOCS_STEP, [])).toBe(false);
    // The bundle is made again, with new contents: the docs are made from it.
    built(BUNDLE_STEP);
    write('dist/openapi.json', '{"changed": true}');
    expect(needsBuild(root, BUNDLE_STEP, [])).toBe(false);
    expect(needsBuild(root, DOCS_STEP, [])).toBe(true);
  });

  it('when a new file joins the document, or one of its scripts or the changelog changed, then the step that reads it is built', () => {
    built(BUNDLE_STEP);
    built(DOCS_STEP);
    write('openapi/paths/v1_new.yaml', 'get: {}\n');
    expect(isFresh(root, BUNDLE_STEP)).toBe(false);
    built(BUNDLE_STEP);
    write('scripts/docs/view.ts', '// changed\n');
    expect(isFresh(root, DOCS_STEP)).toBe(false);
    built(DOCS_STEP);
    write('CHANGELOG.md', '# Changelog\n\nchanged\n');
    expect(isFresh(root, DOCS_STEP)).toBe(false);
  });

  it('when an output is missing, then that step is built again', () => {
    built(BUNDLE_STEP);
    built(DOCS_STEP);
    rmSync(join(root, 'dist', 'docs', 'index.html'));
    expect(needsBuild(root, DOCS_STEP, [])).toBe(true);
    expect(needsBuild(root, BUNDLE_STEP, [])).toBe(false);
  });

  it('when only the times of the inputs changed (a checkout, a stash), then nothing is built', () => {
    built(BUNDLE_STEP);
    built(DOCS_STEP);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'openapi', 'openapi.yaml'), later, later);
    expect(needsBuild(root, BUNDLE_STEP, [])).toBe(false);
  });

  it('when an input changed while its step was building, then the step is still stale afterwards', () => {
    const before = inputsDigest(root, BUNDLE_STEP);
    write('openapi/openapi.yaml', 'changed while bundling\n');
    for (const output of BUNDLE_STEP.outputs) write(output, 'bundle output');
    recordBuilt(root, BUNDLE_STEP, before);
    expect(isFresh(root, BUNDLE_STEP)).toBe(false);
  });

  it('when the tests of the document change, then the bundle is not built for them', () => {
    built(BUNDLE_STEP);
    write('openapi/test/new.test.ts', '// a test\n');
    expect(isFresh(root, BUNDLE_STEP)).toBe(true);
  });
});
