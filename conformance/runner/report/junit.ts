import { operationOf, type Case } from '../case.js';
import type { CaseResult } from '../outcome.js';
import { formatFailure } from './failure.js';
import { deviationText, viewDeviation } from './deviations.js';
import { judgementWords } from './tally.js';
import { byGroupKey, junitSegment, segmentTitle } from './labels.js';
import type { ReportInput } from './input.js';

/**
 * JUnit XML as Jenkins (junit and xunit plugins) and GitLab read it, valid against the junit-10
 * schema Jenkins's xunit plugin validates with:
 * - one <testsuite> per section (each case under its first), one <testcase> per case;
 * - classname `vault.<section>.<operationId>`, the section's dots as underscores and led by `s`
 *   (`vault.s4_6.fileSignupRequest`): CI tools split a classname at its last dot into package and
 *   class, so a case shows under its section, then its operation; the name is the case id, which
 *   `--only` takes as it is;
 * - totals on <testsuites> as that schema allows them (tests, failures, errors, time; it has no
 *   `skipped` there, and a file with one is refused by the plugin that validates), and on each
 *   <testsuite> with `skipped` too;
 * - a case not run is <skipped> with its reason; a known deviation (`--expect-fail`) that failed is
 *   <skipped> too; a deviation from the reference server's choices is never a <failure>: it is
 *   printed in the case's <system-out>.
 */

export function xml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
}

/** `vault.s4_6.fileSignupRequest`; a case that cites no section goes under its basis (`vault.reference.getTokenCatalog`). */
export function classNameOf(c: Case): string {
  return `vault.${junitSegment(c)}.${operationOf(c)}`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function notRunMessage(r: CaseResult): string {
  const kind = r.notRun?.kind ?? 'capability';
  const words = kind === 'choice' ? 'left out by choice' : kind === 'stopped' ? 'not started' : 'missing capability';
  return `not run (${words}): ${r.reason}`;
}

function testcase(c: Case, r: CaseResult, input: ReportInput): string {
  const mask = (t: string) => input.secrets.mask(t);
  const detail = input.details.get(c.id) ?? { steps: [] };
  const inner: string[] = [];
  if (r.state === 'failed' && r.known) inner.push(`<skipped message="${xml(mask(`known deviation: ${r.known}`))}"/>`);
  else if (r.state === 'failed') inner.push(`<failure message="${xml(mask(r.failure!.message))}" type="nonconformance">${xml(formatFailure(c, r, detail, input.secrets))}</failure>`);
  else if (r.state === 'error') inner.push(`<error message="${xml(mask(r.reason ?? 'error'))}" type="${xml(r.error?.kind ?? 'runner')}">${xml(formatFailure(c, r, detail, input.secrets))}</error>`);
  else if (r.state === 'not-run') inner.push(`<skipped message="${xml(mask(notRunMessage(r)))}"/>`);
  // Judging by the specification, a reference choice is no rule: neither a pass nor a failure.
  else if (r.state === 'reference') inner.push(`<skipped message="${xml(`a choice of the reference server, not a rule of the specification: ${r.reference === 'departed' ? 'the deployment chose otherwise' : 'the deployment made the same choice'}`)}"/>`);
  else if (r.known) inner.push(`<failure message="${xml(mask(`listed as a known deviation (${r.known}) but passed: remove it from the file`))}" type="unexpected-pass"/>`);
  if (r.deviations.length > 0) {
    inner.push(`<system-out>${xml(mask(r.deviations.map((d) => deviationText(viewDeviation(r.id, d))).join('\n\n')))}</system-out>`);
  }
  const open = `    <testcase classname="${xml(classNameOf(c))}" name="${xml(c.id)}" time="${seconds(r.durationMs)}"`;
  return inner.length === 0 ? `${open}/>` : `${open}>${inner.join('')}</testcase>`;
}

export function junitXml(input: ReportInput): string {
  const bySection = new Map<string, { c: Case; r: CaseResult }[]>();
  const titles = new Map<string, string>();
  const resultOf = new Map(input.results.map((r) => [r.id, r]));
  for (const c of input.cases) {
    const r = resultOf.get(c.id);
    if (!r) continue;
    const segment = junitSegment(c);
    titles.set(segment, segmentTitle(c));
    bySection.set(segment, [...(bySection.get(segment) ?? []), { c, r }]);
  }
  const fails = (r: CaseResult) => (r.state === 'failed' && !r.known) || (r.state === 'passed' && r.known !== undefined);
  const properties = [
    ['judgement', input.settings.judgement],
    ['judgement.meaning', judgementWords(input.settings.judgement)],
    ['base-url', input.settings.baseUrl],
    ['runner', input.version],
    ['document', input.doc.version],
    ['seed', String(input.settings.seed)],
    ['exit-code', String(input.exitCode)],
    // One fault fails many cases: the number of distinct causes says how many there are to fix.
    ['failure-causes', String(input.tally.failureCauses)],
    ...(input.interrupted ? [['interrupted', `by ${input.interrupted}: the cases not started are skipped, those under way ended as errors`]] : []),
  ];
  const timestamp = input.startedAt.toISOString().replace(/\.\d+Z$/, '');
  const suites: string[] = [];
  // Section segments (`s4_6`) sort by number; the groups without a section come after them.
  const order = (segment: string) => (segment.startsWith('s') ? segment.slice(1).replace(/_/g, '.') : segment);
  for (const [section, entries] of [...bySection].sort(([a], [b]) => byGroupKey(order(a), order(b)))) {
    const count = (pred: (r: CaseResult) => boolean) => entries.filter((e) => pred(e.r)).length;
    const failures = count(fails);
    const errors = count((r) => r.state === 'error');
    const skipped = count((r) => r.state === 'not-run' || r.state === 'reference' || (r.state === 'failed' && r.known !== undefined));
    const time = entries.reduce((s, e) => s + e.r.durationMs, 0);
    const props = [['section', titles.get(section)!], ...properties].map(([name, value]) => `      <property name="${xml(name!)}" value="${xml(input.secrets.mask(value!))}"/>`);
    suites.push(
      `  <testsuite name="vault.${section}" tests="${entries.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(time)}" timestamp="${timestamp}">\n` +
        `    <properties>\n${props.join('\n')}\n    </properties>\n${entries.map(({ c, r }) => testcase(c, r, input)).join('\n')}\n  </testsuite>`,
    );
  }
  const all = [...bySection.values()].flat().map((e) => e.r);
  const totals = `tests="${all.length}" failures="${all.filter(fails).length}" errors="${all.filter((r) => r.state === 'error').length}" time="${seconds(input.durationMs)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="vault-conformance" ${totals}>\n${suites.join('\n')}\n</testsuites>\n`;
}
