import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REDOCLY = join(ROOT, 'node_modules', '.bin', 'redocly');

/**
 * The environment Redocly runs in: its own notices (a newer version, announcements) turned off,
 * the documented way. Its Node 20 end-of-support notice cannot be turned off; the scripts print the
 * tool's output only when it fails.
 */
export const REDOCLY_ENV: NodeJS.ProcessEnv = { ...process.env, REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };

export interface Api {
  /** The name in redocly.yaml's `apis` (`main@v1`). */
  name: string;
  /** The root file, relative to the repository. */
  root: string;
  /** The bundle's base name in dist/: the root's own (`openapi`, `back-office`). */
  output: string;
}

/**
 * The documents of redocly.yaml's `apis` whose root file exists. A document listed there may not
 * be written yet; the tools then work on the others rather than fail on a file nobody has made.
 */
export function apis(): Api[] {
  const config = parse(readFileSync(join(ROOT, 'redocly.yaml'), 'utf8')) as { apis?: Record<string, { root: string }> };
  return Object.entries(config.apis ?? {})
    .map(([name, { root }]) => ({ name, root, output: basename(root, extname(root)) }))
    .filter((api) => existsSync(join(ROOT, api.root)));
}

/** The Arazzo workflows, relative to the repository: every `*.arazzo.yaml` of openapi/workflows/. */
export function workflowFiles(): string[] {
  const dir = join(ROOT, 'openapi', 'workflows');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.arazzo.yaml'))
    .sort()
    .map((name) => `openapi/workflows/${name}`);
}

export interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ source: { ref: string }; pointer: string }> }>;
}

/** `redocly lint --format=json` prints one JSON object per document, back to back. */
export function parseLintReports(text: string): LintReport[] {
  const reports: LintReport[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' && depth++ === 0) start = i;
    else if (c === '}' && --depth === 0) reports.push(JSON.parse(text.slice(start, i + 1)) as LintReport);
  }
  return reports;
}

/** Lints a document given as text by the project's rules (redocly.yaml and its plugin), with warnings as errors. */
export function lintText(document: string): LintReport {
  const dir = mkdtempSync(join(tmpdir(), 'vault-lint-'));
  try {
    writeFileSync(join(dir, 'openapi.yaml'), document);
    const run = spawnSync(REDOCLY, ['lint', 'openapi.yaml', '--config', join(ROOT, 'redocly.yaml'), '--format=json', '--lint-config=error'], {
      cwd: dir,
      env: REDOCLY_ENV,
      encoding: 'utf8',
    });
    const [report] = parseLintReports(run.stdout);
    if (!report) throw new Error(`redocly lint printed no report:\n${run.stderr}`);
    return report;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
