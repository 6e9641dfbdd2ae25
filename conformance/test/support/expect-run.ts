import { join } from 'node:path';
import { expect } from 'vitest';
import { ApiDocument } from '../../runner/document.js';
import { catalogue } from '../../cases/index.js';
import { ROOT } from './processes.js';
import type { conform } from './run.js';

/** What the runs of the variation tests are judged on. */

export type Run = Awaited<ReturnType<typeof conform>>;

let referenceOnly: Set<string> | undefined;

/** The cases that prove only a choice of the reference: judged by the specification, they end `reference`, never passed. */
export function provesOnlyAChoice(id: string): boolean {
  referenceOnly ??= new Set(
    catalogue(ApiDocument.load(join(ROOT, 'dist', 'openapi.json')))
      .filter((c) => c.basis?.kind === 'reference' && c.requirements.length === 0)
      .map((c) => c.id),
  );
  return referenceOnly.has(id);
}

/**
 * Judged by the specification: every selected case ran; each that proves a requirement passed, and
 * each that proves only a choice of the reference ended `reference` (matched or departed), never
 * passed.
 */
export function expectPasses(run: Run): void {
  expect(run.judgement).toBe('spec');
  expect(run.errors, run.output).toEqual([]);
  expect(run.failed, run.output).toEqual([]);
  expect(run.notRun, run.output).toEqual([]);
  const misfiled = run.results.filter((r) => (provesOnlyAChoice(r.id) ? r.state !== 'reference' : r.state !== 'passed')).map((r) => `${r.id}: ${r.state}`);
  expect(misfiled, run.output).toEqual([]);
  expect(run.passed.length, run.output).toBeGreaterThan(0);
  expect(run.exitCode, run.output).toBe(0);
}

/**
 * The cases that meet a departure from a reference choice report it as deviations: one that proves
 * a requirement still passes; one that proves only a choice of the reference ends `reference`
 * (departed from its own choice, or matched it and departed from another it met on the way).
 */
export function expectDeviations(run: Run, departs: string[]): void {
  for (const id of departs) {
    const result = run.results.find((r) => r.id === id);
    expect(result, `${id} ran`).toBeDefined();
    expect(result!.state, `${id}: ${run.output}`).toBe(provesOnlyAChoice(id) ? 'reference' : 'passed');
    expect(result!.deviations.length, `${id} reports the departure as a deviation`).toBeGreaterThan(0);
  }
}

/** Judged by the reference's full document, the deployment fails at least the cases that meet its departures. */
export function expectReferenceFails(run: Run, departs: string[]): void {
  expect(run.judgement).toBe('reference');
  expect(run.errors, run.output).toEqual([]);
  expect(run.failed, run.output).toEqual(expect.arrayContaining(departs));
  expect(run.exitCode, run.output).toBe(1);
}
