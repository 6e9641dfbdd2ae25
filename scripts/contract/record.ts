// What `npm run release:contract` does: records the current bundle as a release, after the gate
// and the versioning policy allow it, and regenerates the changelog from the record.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { renderChangelog } from './changelog.js';
import type { Node } from './document.js';
import { checkContract, formatReport } from './gate.js';
import { atLeast, bumpBetween, nextVersion, parseVersion } from './policy.js';
import { loadRelease, readRecord, recordProblems, writeRelease } from './released.js';

export interface RecordFiles {
  current: string;
  releasedDir: string;
  changelog: string;
  today: string;
  root: string;
  /** Re-record the newest release's version: only for a version that was never published. */
  replace: boolean;
}

export function recordRelease(files: RecordFiles): { ok: boolean; report: string } {
  const rel = (file: string) => relative(files.root, file) || file;
  const refuse = (why: string) => ({ ok: false, report: `release:contract: ${why}` });
  if (!existsSync(files.current)) return refuse(`${rel(files.current)} is missing; run "npm run bundle" first`);
  const current = JSON.parse(readFileSync(files.current, 'utf8')) as Node;
  const version = String(current.info?.version);
  if (!parseVersion(version)) return refuse(`info.version ${version} is not MAJOR.MINOR.PATCH`);
  const problems = recordProblems(files.releasedDir);
  if (problems.length > 0) return refuse(`the release record is inconsistent:\n  - ${problems.join('\n  - ')}`);
  const releases = readRecord(files.releasedDir);
  const newest = releases[releases.length - 1];
  const recorded = releases.some((r) => r.version === version);
  if (recorded && !files.replace) {
    return refuse(
      `${version} is already released (${rel(join(files.releasedDir, `${version}.json`))}). Bump info.version in openapi/openapi.yaml ` +
        `to record a new release; "npm run release:contract -- --replace" re-records ${version}, and is only for a version that was never published.`,
    );
  }
  if (files.replace && !recorded) return refuse(`--replace re-records an existing release, and ${version} is not one; leave it out to record ${version}`);
  if (files.replace && newest?.version !== version) return refuse(`only the newest release (${newest?.version}) can be re-recorded, not ${version}`);
  const previous = releases.filter((r) => r.version !== version).at(-1);
  let summary = 'first release';
  if (previous) {
    const result = checkContract(loadRelease(files.releasedDir, previous.version), current, files.today);
    if (result.failures.length > 0) return refuse(`the gate refuses this release:\n${formatReport(result, rel(join(files.releasedDir, `${previous.version}.json`)))}`);
    if (result.changes.length === 0) return refuse(`nothing changed since ${previous.version}; there is nothing to release`);
    const bump = bumpBetween(parseVersion(previous.version)!, parseVersion(version)!);
    if (!atLeast(bump, result.releaseBump)) {
      return refuse(`the ${result.changes.length} change(s) since ${previous.version} need version ${nextVersion(parseVersion(previous.version)!, result.releaseBump)} or later (it is ${version})`);
    }
    summary = `${result.changes.length} change(s) since ${previous.version}`;
  }
  writeRelease(files.releasedDir, current, files.today);
  writeFileSync(files.changelog, renderChangelog(files.releasedDir));
  return {
    ok: true,
    report:
      `release:contract: recorded ${version} (${summary}) in ${rel(join(files.releasedDir, `${version}.json`))} and ${rel(files.changelog)}; ` +
      `commit ${rel(files.releasedDir)} and ${rel(files.changelog)} together with the document.`,
  };
}
