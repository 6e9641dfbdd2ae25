// The release record: openapi/released/<version>.json, each the bundled document exactly as it
// was released, and openapi/released/releases.json, the versions in order with their dates.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Node } from './document.js';
import { compareVersions, parseVersion } from './policy.js';

export interface Release {
  version: string;
  /** The day it was recorded, YYYY-MM-DD (UTC). */
  date: string;
}

const RECORD = 'releases.json';
const RELEASE_FILE = /^(\d+\.\d+\.\d+)\.json$/;

export function readRecord(dir: string): Release[] {
  const file = join(dir, RECORD);
  if (!existsSync(file)) return [];
  const { releases } = JSON.parse(readFileSync(file, 'utf8')) as { releases: Release[] };
  return releases;
}

export function loadRelease(dir: string, version: string): Node {
  return JSON.parse(readFileSync(join(dir, `${version}.json`), 'utf8')) as Node;
}

/** What is inconsistent in the record: a listed version without its copy, a copy of another version, a copy not listed. */
export function recordProblems(dir: string): string[] {
  const problems: string[] = [];
  const releases = readRecord(dir);
  const listed = new Set(releases.map((r) => r.version));
  releases.forEach((release, i) => {
    const version = parseVersion(release.version);
    if (!version) problems.push(`${RECORD}: ${JSON.stringify(release.version)} is not a version MAJOR.MINOR.PATCH`);
    const previous = i > 0 ? parseVersion(releases[i - 1]!.version) : undefined;
    if (version && previous && compareVersions(previous, version) >= 0) problems.push(`${RECORD}: ${release.version} is listed after ${releases[i - 1]!.version}`);
    if (!existsSync(join(dir, `${release.version}.json`))) {
      problems.push(`${RECORD} lists ${release.version} but ${release.version}.json is missing`);
      return;
    }
    const recorded = loadRelease(dir, release.version).info?.version;
    if (recorded !== release.version) problems.push(`${release.version}.json has info.version ${String(recorded)}`);
  });
  for (const file of existsSync(dir) ? readdirSync(dir) : []) {
    const match = RELEASE_FILE.exec(file);
    if (match && !listed.has(match[1]!)) problems.push(`${file} is not listed in ${RECORD}`);
  }
  return problems;
}

/** Records `doc` as released today, replacing the newest release only when it has the same version. */
export function writeRelease(dir: string, doc: Node, date: string): void {
  const version: string = doc.info.version;
  const releases = readRecord(dir).filter((r) => r.version !== version);
  releases.push({ version, date });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${version}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(join(dir, RECORD), `${JSON.stringify({ releases }, null, 2)}\n`);
}
