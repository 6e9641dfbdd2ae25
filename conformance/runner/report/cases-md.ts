import { spendsOrCreates, type Case } from '../case.js';
import { SECTIONS, chapterOf } from '../sections.js';

/**
 * CASES.md: every case of the catalogue, grouped by the section it proves first, committed so a
 * change to the catalogue shows in review (as Kubernetes keeps its conformance list).
 */
export function casesMarkdown(cases: Case[], documentVersion: string): string {
  const lines = [
    '# Conformance cases',
    '',
    `Generated from the catalogue (\`conformance/cases/\`) against document ${documentVersion} by \`npm run conformance:cases\`; do not edit by hand.`,
    `${cases.length} cases; ${cases.filter((c) => c.level === 'must').length} must, ${cases.filter((c) => c.level === 'should').length} should;`,
    `${cases.filter((c) => c.needs.driver).length} need the account-holder driver, ${cases.filter((c) => c.needs.manualClock).length} a manual clock;`,
    `${cases.filter(spendsOrCreates).length} spend limits, create data or wait, and run only with \`--spend\` (or against the local sandbox).`,
    '',
    'Needs: **D** the account-holder driver, **C** a manual clock, **K** a key given or issued by the driver. Costs: **$** spends a limit, budget or ceiling; **+** creates data the runner cannot remove; **W** waits out a server timeout.',
  ];
  const byChapter = new Map<string, Case[]>();
  for (const c of cases) {
    const chapter = chapterOf(c.sections[0] ?? '?');
    byChapter.set(chapter, [...(byChapter.get(chapter) ?? []), c]);
  }
  for (const [chapter, entries] of [...byChapter].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
    lines.push('', `## ${chapter}. ${SECTIONS[chapter] ?? ''}`, '', '| case | title | sections | level | needs | costs |', '| - | - | - | - | - | - |');
    for (const c of [...entries].sort((a, b) => a.id.localeCompare(b.id))) {
      const needs = [c.needs.driver ? 'D' : '', c.needs.manualClock ? 'C' : '', c.needs.keys?.length ? 'K' : ''].join('');
      const costs = [c.costs.spends ? '$' : '', c.costs.createsData ? '+' : '', c.costs.waits ? 'W' : ''].join('');
      lines.push(`| \`${c.id}\` | ${c.title.replace(/\|/g, '\\|')} | ${c.sections.join(', ')} | ${c.level} | ${needs} | ${costs} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
