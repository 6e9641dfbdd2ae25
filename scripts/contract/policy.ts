// The versioning and deprecation policy of openapi/README.md ("Versions, deprecation and the
// changelog"), applied to the changes between the last released document and the current one.
import type { Change } from './change.js';
import { type Node, operations, pathMajor } from './document.js';

export type Bump = 'none' | 'patch' | 'minor' | 'major';
const ORDER: Bump[] = ['none', 'patch', 'minor', 'major'];

/** Days between the release that first deprecates an operation and its sunset, at the least. */
export const MIN_NOTICE_DAYS = 180;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface Version {
  major: number;
  minor: number;
  patch: number;
}

export function parseVersion(text: unknown): Version | undefined {
  const match = typeof text === 'string' ? /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(text) : null;
  return match ? { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) } : undefined;
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** The bump from `a` to `b`: the highest part that grew (`none` when `b` is not above `a`). */
export function bumpBetween(a: Version, b: Version): Bump {
  if (compareVersions(b, a) <= 0) return 'none';
  return b.major > a.major ? 'major' : b.minor > a.minor ? 'minor' : 'patch';
}

export function nextVersion(a: Version, bump: Bump): string {
  if (bump === 'major') return `${a.major + 1}.0.0`;
  if (bump === 'minor') return `${a.major}.${a.minor + 1}.0`;
  if (bump === 'patch') return `${a.major}.${a.minor}.${a.patch + 1}`;
  return `${a.major}.${a.minor}.${a.patch}`;
}

export const atLeast = (bump: Bump, required: Bump) => ORDER.indexOf(bump) >= ORDER.indexOf(required);
const higher = (a: Bump, b: Bump): Bump => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Whether an operation of the released document was removed as the policy allows: it was
 * deprecated there, with a sunset date that has come.
 */
function sunsetRemoval(released: Node, change: Change, today: string): { allowed: boolean; reason?: string } {
  const key = [...operations(released).values()].find((op) => op.method === change.method && op.path === change.path);
  const operation = key?.operation ?? {};
  const name = `\`${change.operationId ?? `${change.method} ${change.path}`}\` (${change.method} ${change.path})`;
  if (!operation.deprecated) {
    return { allowed: false, reason: `${name} is removed but was never deprecated: deprecate it first (deprecated: true, x-sunset, a note in its description), release that, and remove it on or after its sunset date` };
  }
  const sunset = operation['x-sunset'];
  if (typeof sunset !== 'string' || !ISO_DATE.test(sunset)) return { allowed: false, reason: `${name} is removed but its released deprecation has no x-sunset date` };
  if (today < sunset) return { allowed: false, reason: `${name} is removed before its sunset date ${sunset}` };
  return { allowed: true };
}

/** The least bump each change needs, and the policy's refusals whatever the version. */
export function assess(released: Node, current: Node, changes: Change[], today: string): { breakingBump: Bump; releaseBump: Bump; refusals: string[] } {
  const refusals: string[] = [];
  let breakingBump: Bump = 'none';
  let releaseBump: Bump = changes.length > 0 ? 'patch' : 'none';
  const currentOps = [...operations(current).values()];
  for (const change of changes) {
    if (change.kind === 'operation-removed') {
      const removal = sunsetRemoval(released, change, today);
      if (!removal.allowed) refusals.push(removal.reason!);
      // A removal announced by a released deprecation and its sunset breaks no promise: minor.
      breakingBump = higher(breakingBump, removal.allowed ? 'minor' : 'major');
    } else if (change.breaking) {
      breakingBump = higher(breakingBump, change.audience === 'server' ? 'minor' : 'major');
    }
    if (change.kind === 'operation-deprecated') {
      const op = currentOps.find((o) => o.method === change.method && o.path === change.path)?.operation ?? {};
      const sunset = op['x-sunset'];
      const earliest = addDays(today, MIN_NOTICE_DAYS);
      if (typeof sunset !== 'string' || !ISO_DATE.test(sunset)) {
        refusals.push(`\`${change.operationId}\` is newly deprecated without an x-sunset date (YYYY-MM-DD)`);
      } else if (sunset < earliest) {
        refusals.push(`\`${change.operationId}\` is newly deprecated with sunset ${sunset}; the policy gives integrators ${MIN_NOTICE_DAYS} days, so the sunset is ${earliest} or later`);
      }
    }
    if (change.kind !== 'docs-changed') releaseBump = higher(releaseBump, 'minor');
  }
  return { breakingBump, releaseBump: higher(releaseBump, breakingBump), refusals };
}

/** Every versioned path carries the document's major version (`/v1` for 1.x.y). */
export function pathVersionProblems(current: Node, version: Version): string[] {
  const wrong = Object.keys(current.paths ?? {}).filter((path) => {
    const major = pathMajor(path);
    return major !== undefined && major !== version.major;
  });
  if (wrong.length === 0) return [];
  return [
    `info.version ${version.major}.${version.minor}.${version.patch} is major ${version.major}, but ${wrong.length} path(s) carry another version segment (${wrong.slice(0, 3).join(', ')}${wrong.length > 3 ? ', ...' : ''}); the segment is /v${version.major}`,
  ];
}
