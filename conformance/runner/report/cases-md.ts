import { spendsOrCreates, type Case } from '../case.js';
import { describeBasis } from '../basis.js';
import { SECTIONS, chapterOf } from '../sections.js';
import type { Reading } from '../readings.js';

/**
 * CASES.md: every case of the catalogue, grouped by the section it proves first, committed so a
 * change to the catalogue shows in review (as Kubernetes keeps its conformance list). Each case
 * shows its basis: the sections of the specification it proves, HTTP, or the reference server's
 * own choice, which binds no other deployment.
 */

const NO_SECTION = 'Beyond the specification';

function basisCell(c: Case): string {
  if (c.requirements.length > 0) return c.requirements.map((id) => `\`${id}\``).join(', ');
  return '**reference**';
}

export function casesMarkdown(cases: Case[], documentVersion: string, readings: Reading[] = []): string {
  const reference = cases.filter((c) => c.basis?.kind === 'reference');
  const lines = [
    '# Conformance cases',
    '',
    `Generated from the catalogue (\`conformance/cases/\`) against document ${documentVersion} by \`npm run conformance:cases\`; do not edit by hand.`,
    `${cases.length} cases; ${cases.filter((c) => c.level === 'must').length} must, ${cases.filter((c) => c.level === 'should').length} should;`,
    `${cases.filter((c) => c.needs.driver).length} need the account-holder driver, ${cases.filter((c) => c.needs.manualClock).length} a manual clock;`,
    `${cases.filter(spendsOrCreates).length} spend limits, create data or wait, and run only with \`--spend\` (or against the local sandbox).`,
    `${cases.length - reference.length} prove requirements of the specification or HTTP; ${reference.length} prove a choice of the reference server, listed with why at the end.`,
    '',
    'Needs: **D** the account-holder driver, **C** a manual clock, **K** a key given or issued by the driver. Costs: **$** spends a limit, budget or ceiling; **+** creates data the runner cannot remove; **W** waits out a server timeout.',
    '',
    'Proves: the requirements of the catalogue the case proves, by id ([REQUIREMENTS.md](REQUIREMENTS.md) gives each with its place in the specification, its words, what it leaves open and its readings); **reference**, a choice of the reference server where the specification leaves one open. Judging by the specification (`--judge spec`, the default against a `--base-url`), only an assertion that names a requirement fails a case; a reference case is counted apart, as having matched the reference\'s choice or departed from it, never as passed, and every assertion of reference basis inside any case reports a departure as a deviation. Judging by the reference (`--judge reference`, the default against the local sandbox), every rule is enforced.',
  ];
  const byChapter = new Map<string, Case[]>();
  for (const c of cases) {
    const chapter = c.sections[0] ? chapterOf(c.sections[0]) : NO_SECTION;
    byChapter.set(chapter, [...(byChapter.get(chapter) ?? []), c]);
  }
  for (const [chapter, entries] of [...byChapter].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
    lines.push('', chapter === NO_SECTION ? `## ${NO_SECTION}` : `## ${chapter}. ${SECTIONS[chapter] ?? ''}`, '', '| case | title | sections | proves | level | needs | costs |', '| - | - | - | - | - | - | - |');
    for (const c of [...entries].sort((a, b) => a.id.localeCompare(b.id))) {
      const needs = [c.needs.driver ? 'D' : '', c.needs.manualClock ? 'C' : '', c.needs.keys?.length ? 'K' : ''].join('');
      const costs = [c.costs.spends ? '$' : '', c.costs.createsData ? '+' : '', c.costs.waits ? 'W' : ''].join('');
      lines.push(`| \`${c.id}\` | ${c.title.replace(/\|/g, '\\|')} | ${c.sections.join(', ')} | ${basisCell(c)} | ${c.level} | ${needs} | ${costs} |`);
    }
  }
  if (reference.length > 0) {
    lines.push('', '## The reference server\'s choices', '', 'What each reference case proves, and why it binds no other deployment:', '');
    for (const c of [...reference].sort((a, b) => a.id.localeCompare(b.id))) lines.push(`- \`${c.id}\`: ${describeBasis(c.basis!).replace(/^the reference server's choice \((.*)\)$/, '$1')}`);
  }
  if (readings.length > 0) {
    lines.push(
      '',
      '## Two readings of the specification',
      '',
      'Where a sentence can be read two ways, judging by the specification accepts the answer of either reading; the reference\'s reading is its own choice, reported as a deviation when a deployment took the other. Judging by the reference, its reading is enforced. These are the readings that decide an answer\'s status and code; REQUIREMENTS.md lists every reading of the catalogue.',
      '',
      '| request | requirement | one reading | the other | the reference | cases |',
      '| - | - | - | - | - | - |',
    );
    const side = (s: Reading['sides'][number]) => `${s.status} \`${s.code}\`: ${s.because.replace(/\|/g, '\\|')}`;
    for (const r of readings) {
      const [one, other] = r.sides;
      lines.push(`| ${r.request} | \`${r.requirement}\` | ${side(one!)} | ${side(other!)} | \`${r.reference}\` | ${r.cases.map((c) => `\`${c}\``).join(', ')} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
