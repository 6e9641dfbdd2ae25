import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { globToRegExp } from './catalogue.js';
import { UsageError } from './options.js';

/**
 * Known deviations (`--expect-fail`): case ids or globs a deployment knows it fails, each with its
 * reason, kept in the way web-platform-tests keep their expectation files. A listed case that
 * fails is reported as known and does not fail the run; one that passes fails the run, so that the
 * file stays true.
 *
 * An entry may name a cause instead of cases: `cause: expected 401 invalid_api_key; received 401
 * unauthorized` (as the summary's "failures with one cause" prints it, `*` and `?` as globs) makes
 * every failure with that cause known, whichever cases meet it; one fault of a gateway is then one
 * line, not a line per case it fails.
 */
const CAUSE = /^cause:\s*/;

interface Entry {
  pattern: RegExp;
  id: string;
  reason: string;
  /** The entry names a failure's cause (`expected …; received …`), not case ids. */
  cause: boolean;
}

export class KnownDeviations {
  constructor(
    private readonly entries: Entry[] = [],
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
      const cause = CAUSE.test(id);
      return { pattern: globToRegExp(id.replace(CAUSE, '')), id, reason, cause };
    });
    return new KnownDeviations(entries, file);
  }

  /** The reason a case is listed for, by its id, or (a failure) by its cause. */
  reasonFor(caseId: string, failure?: { message: string }): string | undefined {
    const byId = this.entries.find((e) => !e.cause && e.pattern.test(caseId));
    if (byId) return byId.reason;
    return failure ? this.entries.find((e) => e.cause && e.pattern.test(failure.message))?.reason : undefined;
  }

  /** Entries by id that match no case of the catalogue: stale lines of the file. A cause can be checked only against a run's failures. */
  unmatched(caseIds: string[]): string[] {
    return this.entries.filter((e) => !e.cause && !caseIds.some((id) => e.pattern.test(id))).map((e) => e.id);
  }
}
