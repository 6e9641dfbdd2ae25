import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { globToRegExp } from './catalogue.js';
import { UsageError } from './options.js';

/**
 * Known deviations (`--expect-fail`): case ids or globs a deployment knows it fails, each with its
 * reason, kept in the way web-platform-tests keep their expectation files. A listed case that
 * fails is reported as known and does not fail the run; one that passes fails the run, so that the
 * file stays true.
 */
export class KnownDeviations {
  constructor(
    private readonly entries: { pattern: RegExp; id: string; reason: string }[] = [],
    readonly file?: string,
  ) {}

  static load(file: string): KnownDeviations {
    let raw: unknown;
    try {
      const text = readFileSync(file, 'utf8');
      raw = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
    } catch (e) {
      throw new UsageError(`cannot read the known deviations ${file}: ${(e as Error).message.split('\n')[0]}`);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new UsageError(`${file} must map case ids (or globs) to reasons`);
    }
    const entries = Object.entries(raw).map(([id, reason]) => {
      if (typeof reason !== 'string' || reason.trim() === '') throw new UsageError(`${file}: ${id} needs a reason`);
      return { pattern: globToRegExp(id), id, reason };
    });
    return new KnownDeviations(entries, file);
  }

  reasonFor(caseId: string): string | undefined {
    return this.entries.find((e) => e.pattern.test(caseId))?.reason;
  }

  /** Entries that match no case of the catalogue: stale lines of the file. */
  unmatched(caseIds: string[]): string[] {
    return this.entries.filter((e) => !caseIds.some((id) => e.pattern.test(id))).map((e) => e.id);
  }
}
