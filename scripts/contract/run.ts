// What `npm run check:breaking` does, with every file it reads or writes passed in, so that the
// tests run it on copies: the record's consistency, the gate, the changelog's drift, diff.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { renderChangelog } from './changelog.js';
import type { Node } from './document.js';
import { checkContract, formatReport, type GateResult } from './gate.js';
import { loadRelease, readRecord, recordProblems } from './released.js';

export interface GateFiles {
  /** The current bundle (dist/openapi.json). */
  current: string;
  /** The release record (openapi/released). */
  releasedDir: string;
  changelog: string;
  /** Where the machine-readable diff goes (dist/contract/diff.json). */
  out: string;
  /** Today, YYYY-MM-DD (UTC): sunset dates are compared with it. */
  today: string;
  /** Paths in messages are relative to this folder. */
  root: string;
}

export interface GateRun {
  ok: boolean;
  report: string;
  result?: GateResult;
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export function runGate(files: GateFiles): GateRun {
  const rel = (file: string) => relative(files.root, file) || file;
  if (!existsSync(files.current)) return { ok: false, report: `check:breaking: ${rel(files.current)} is missing; run "npm run bundle" first` };
  const problems = recordProblems(files.releasedDir);
  const releases = readRecord(files.releasedDir);
  if (releases.length === 0) problems.push(`no released copy in ${rel(files.releasedDir)}; record the first with "npm run release:contract"`);
  if (problems.length > 0) return { ok: false, report: `check:breaking: the release record is inconsistent:\n  - ${problems.join('\n  - ')}` };
  const latest = releases[releases.length - 1]!.version;
  const current = JSON.parse(readFileSync(files.current, 'utf8')) as Node;
  const result = checkContract(loadRelease(files.releasedDir, latest), current, files.today);
  const changelog = existsSync(files.changelog) ? readFileSync(files.changelog, 'utf8') : '';
  if (changelog !== renderChangelog(files.releasedDir)) {
    result.failures.push(`${rel(files.changelog)} differs from the one generated from ${rel(files.releasedDir)}; it is written by "npm run release:contract", never by hand`);
  }
  mkdirSync(dirname(files.out), { recursive: true });
  writeFileSync(files.out, `${JSON.stringify({ from: result.from, to: result.to, changes: result.changes }, null, 2)}\n`);
  const report = `${formatReport(result, rel(join(files.releasedDir, `${latest}.json`)))}\n  diff: ${rel(files.out)}`;
  return { ok: result.failures.length === 0, report, result };
}
