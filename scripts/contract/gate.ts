// The contract gate: the changes from the last released document to the current one, and
// whether the current version, and the way operations leave, follow the policy.
import { type Change, operationLabel } from './change.js';
import { diffDocuments } from './diff.js';
import type { Node } from './document.js';
import { assess, atLeast, type Bump, bumpBetween, compareVersions, nextVersion, parseVersion, pathVersionProblems } from './policy.js';

export interface GateResult {
  /** The released version compared with, and the current one. */
  from: string;
  to: string;
  changes: Change[];
  /** Why the gate fails; empty when it passes. */
  failures: string[];
  /** The least bump the next release needs for these changes. */
  releaseBump: Bump;
}

export function checkContract(released: Node, current: Node, today: string): GateResult {
  const from = String(released.info?.version);
  const to = String(current.info?.version);
  const vFrom = parseVersion(from);
  const vTo = parseVersion(to);
  const changes = diffDocuments(released, current);
  const failures: string[] = [];
  if (!vFrom || !vTo) {
    failures.push(`info.version must be MAJOR.MINOR.PATCH (released ${from}, current ${to})`);
    return { from, to, changes, failures, releaseBump: 'none' };
  }
  if (compareVersions(vTo, vFrom) < 0) failures.push(`info.version ${to} is lower than the released ${from}`);
  failures.push(...pathVersionProblems(current, vTo));
  const { breakingBump, releaseBump, refusals } = assess(released, current, changes, today);
  failures.push(...refusals);
  if (!atLeast(bumpBetween(vFrom, vTo), breakingBump)) {
    const who = breakingBump === 'major' ? 'clients' : 'servers';
    const paths = breakingBump === 'major' ? `, with every versioned path under /v${vFrom.major + 1}` : '';
    failures.push(`breaking changes for ${who} since ${from} need info.version ${nextVersion(vFrom, breakingBump)} or later${paths} (it is ${to})`);
  }
  return { from, to, changes, failures, releaseBump };
}

const AUDIENCE = { client: 'clients', server: 'servers', both: 'clients and servers' } as const;

/** The gate's report, as `npm run check:breaking` prints it. */
export function formatReport(result: GateResult, releasedFile: string): string {
  const lines = [`check:breaking: the current document (${result.to}) against the released ${result.from} (${releasedFile})`];
  const breaking = result.changes.filter((c) => c.breaking);
  for (const audience of ['client', 'server', 'both'] as const) {
    const these = breaking.filter((c) => c.audience === audience);
    if (these.length === 0) continue;
    lines.push(`  breaking for ${AUDIENCE[audience]}:`);
    for (const change of these) lines.push(`    [${change.kind}] ${change.message}`);
  }
  const safe = result.changes.length - breaking.length;
  if (safe > 0) lines.push(`  ${safe} change(s) that break neither clients nor servers (all are in dist/contract/diff.json)`);
  if (result.failures.length > 0) {
    lines.push('FAIL:');
    for (const failure of result.failures) lines.push(`  - ${failure}`);
    if (result.from === result.to) lines.push(`  If ${result.from} was never published, re-record it instead: npm run release:contract -- --replace`);
    return lines.join('\n');
  }
  if (result.changes.length === 0) lines.push(`ok: no change since ${result.from}`);
  else {
    const v = parseVersion(result.from)!;
    const next = nextVersion(v, result.releaseBump);
    const recorded = result.from === result.to ? `the next release is ${next} or later` : `record ${result.to} with npm run release:contract`;
    lines.push(`ok: ${result.changes.length} change(s) since ${result.from}, as the versioning policy allows; ${recorded}`);
  }
  return lines.join('\n');
}

export function changesByOperation(changes: Change[]): Map<string, Change[]> {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const key = operationLabel(change);
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return groups;
}
