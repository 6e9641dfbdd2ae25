import type { Case } from '../case.js';
import type { CaseResult } from '../outcome.js';
import type { Secrets } from '../secrets.js';
import type { CaseDetail } from '../run.js';
import { formatFailure } from './failure.js';

function xml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

/** JUnit XML: a testsuite per section (a case's first), a testcase per case; not-run cases are skipped with their reason. */
export function junitXml(cases: Case[], results: CaseResult[], details: Map<string, CaseDetail>, secrets: Secrets): string {
  const bySection = new Map<string, { c: Case; r: CaseResult }[]>();
  const resultOf = new Map(results.map((r) => [r.id, r]));
  for (const c of cases) {
    const r = resultOf.get(c.id);
    if (!r) continue;
    const section = c.sections[0] ?? '?';
    bySection.set(section, [...(bySection.get(section) ?? []), { c, r }]);
  }
  const suites: string[] = [];
  for (const [section, entries] of [...bySection].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
    const count = (pred: (r: CaseResult) => boolean) => entries.filter((e) => pred(e.r)).length;
    const failures = count((r) => r.state === 'failed' && !r.known);
    const errors = count((r) => r.state === 'error');
    const skipped = count((r) => r.state === 'not-run' || (r.state === 'failed' && r.known !== undefined));
    const time = entries.reduce((s, e) => s + e.r.durationMs, 0) / 1000;
    const cases = entries.map(({ c, r }) => {
      const open = `    <testcase classname="section ${xml(section)}" name="${xml(c.id)}" time="${(r.durationMs / 1000).toFixed(3)}">`;
      const detail = details.get(c.id) ?? { steps: [] };
      if (r.state === 'failed' && r.known) return `${open}<skipped message="${xml(`known deviation: ${r.known}`)}"/></testcase>`;
      if (r.state === 'failed') return `${open}<failure message="${xml(secrets.mask(r.failure!.message))}">${xml(formatFailure(c, r, detail, secrets))}</failure></testcase>`;
      if (r.state === 'error') return `${open}<error message="${xml(secrets.mask(r.reason ?? 'error'))}">${xml(formatFailure(c, r, detail, secrets))}</error></testcase>`;
      if (r.state === 'not-run') return `${open}<skipped message="${xml(`not run: ${r.reason}`)}"/></testcase>`;
      if (r.known) return `${open}<failure message="${xml(`listed as a known deviation (${r.known}) but passed: remove it from the file`)}"/></testcase>`;
      return `${open}</testcase>`;
    });
    suites.push(
      `  <testsuite name="section ${xml(section)}" tests="${entries.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="vault-conformance">\n${suites.join('\n')}\n</testsuites>\n`;
}
