// CHANGELOG.md, generated from the release record: one section per released version, newest
// first, made from the diff with the version before it and grouped by operation.
import { type Change, operationLabel } from './change.js';
import { diffDocuments, errorCodes } from './diff.js';
import { follow, isObject, mergeAllOf, type Node, operations } from './document.js';
import { loadRelease, readRecord } from './released.js';

const HEADER = `# Changelog

What changed in the credential-vault HTTP API contract (\`openapi/openapi.yaml\`), one section per
released version, newest first. This file is generated from the released copies in
\`openapi/released/\` by \`npm run release:contract\`; do not edit it by hand (\`npm run check:breaking\`
fails when it differs from a fresh generation). How versions are numbered and how an operation is
deprecated and removed: [openapi/README.md](openapi/README.md#versions-deprecation-and-the-changelog).

Each section lists breaking changes first, saying whom they break (clients: integrators; servers:
implementations of the contract), then what was removed, deprecated, added and changed.
`;

const GROUPS = ['Breaking', 'Removed', 'Deprecated', 'Added', 'Changed'] as const;
type Group = (typeof GROUPS)[number];

function groupOf(change: Change): Group {
  // A removal that reaches a release was announced by a deprecation and its sunset (the gate refuses any other).
  if (change.kind === 'operation-removed') return 'Removed';
  if (change.breaking) return 'Breaking';
  if (change.kind === 'operation-deprecated' || change.kind === 'sunset-changed') return 'Deprecated';
  if (change.kind.endsWith('-removed')) return 'Removed';
  if (change.kind.endsWith('-added')) return 'Added';
  return 'Changed';
}

const WHOM = { client: 'for clients', server: 'for servers', both: 'for clients and servers' } as const;

function entry(change: Change): string {
  const prefix = `${operationLabel(change)}: `;
  const text = change.message.startsWith(prefix) ? change.message.slice(prefix.length) : change.message;
  return change.breaking && groupOf(change) === 'Breaking' ? `${WHOM[change.audience]}: ${text}` : text;
}

function heading(change: Change): string {
  if (!change.method || !change.path) return 'The document';
  return `\`${change.method} ${change.path}\`${change.operationId ? ` (\`${change.operationId}\`)` : ''}`;
}

export function changesSection(changes: Change[]): string {
  const lines: string[] = [];
  for (const group of GROUPS) {
    const these = changes.filter((c) => groupOf(c) === group);
    if (these.length === 0) continue;
    lines.push(`### ${group}`);
    const byOperation = new Map<string, string[]>();
    for (const change of these) byOperation.set(heading(change), [...(byOperation.get(heading(change)) ?? []), entry(change)]);
    for (const [operation, entries] of byOperation) {
      lines.push(`- ${operation}`);
      for (const text of [...new Set(entries)]) lines.push(`  - ${text}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** The first release's section: what the contract contains, operation by operation. */
export function firstReleaseSection(doc: Node): string {
  const ops = [...operations(doc).values()];
  const lines = [`First release of the contract: ${ops.length} operations.`, ''];
  for (const tag of (doc.tags ?? []) as Array<{ name: string }>) {
    const tagged = ops.filter((op) => (op.operation.tags ?? [])[0] === tag.name);
    if (tagged.length === 0) continue;
    lines.push(`### ${tag.name}`);
    for (const op of tagged) {
      const deprecated = op.operation.deprecated ? ` (deprecated; sunset ${op.operation['x-sunset'] ?? 'not set'})` : '';
      lines.push(`- \`${op.method} ${op.path}\` (\`${op.operationId}\`): ${op.operation.summary}${deprecated}`);
    }
    lines.push('');
  }
  const codes = new Set<string>();
  const merged = mergeAllOf(doc);
  for (const op of operations(merged).values()) {
    for (const [status, raw] of Object.entries<Node>(op.operation.responses ?? {})) {
      const response = follow(merged, raw, '').node;
      if (/^[45]/.test(status) && isObject(response)) for (const code of errorCodes(merged, response)) codes.add(code);
    }
  }
  const limits = Object.keys(doc['x-limits'] ?? {}).length;
  const plans = Object.keys(doc['x-plans'] ?? {});
  lines.push(
    `Also in this release: ${codes.size} error codes across the operations' documented responses, ${limits} limits (\`x-limits\`) and the plan table for ${plans.join(', ')} (\`x-plans\`).`,
    '',
  );
  return lines.join('\n');
}

export function renderChangelog(dir: string): string {
  const releases = readRecord(dir);
  const sections: string[] = [];
  releases.forEach((release, i) => {
    const doc = loadRelease(dir, release.version);
    const body = i === 0 ? firstReleaseSection(doc) : changesSection(diffDocuments(loadRelease(dir, releases[i - 1]!.version), doc));
    sections.unshift(`## ${release.version} (${release.date})\n\n${body || 'No change to the contract beyond its version.\n'}`);
  });
  return `${HEADER}\n${sections.join('\n')}`.replace(/\n+$/, '\n');
}
