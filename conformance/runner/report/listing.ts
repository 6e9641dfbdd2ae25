import { spendsOrCreates, type Case } from '../case.js';
import { chapterGroup, provesText } from './labels.js';
import { tagsOf } from '../tags.js';
import { count } from './tally.js';

/** `--list`: each selected case with its level, what it needs and what it costs. */
export function listing(cases: Case[], spend: boolean): string {
  const lines: string[] = [];
  for (const c of cases) {
    const needs = [
      c.needs.keys?.length ? `keys: ${c.needs.keys.join(', ')}` : '',
      c.needs.driver ? (c.needs.driver === true ? 'driver' : `driver (${c.needs.driver.join(', ')})`) : '',
      c.needs.manualClock ? 'manual clock' : '',
    ].filter(Boolean);
    const costs = [c.costs.spends ? `spends ${c.costs.spends}` : '', c.costs.createsData ? `creates ${c.costs.createsData}` : '', c.costs.waits ? `waits ${c.costs.waits}` : ''].filter(Boolean);
    lines.push(`${c.id}  [${c.level}] ${c.sections.length > 0 ? provesText(c) : chapterGroup(c).title}`);
    lines.push(`    ${c.title}`);
    lines.push(`    tags: ${tagsOf(c).join(', ')}`);
    if (needs.length) lines.push(`    needs: ${needs.join('; ')}`);
    if (costs.length) lines.push(`    costs: ${costs.join('; ')}${spend ? '' : ' (runs only with --spend)'}`);
  }
  const costly = cases.filter(spendsOrCreates).length;
  lines.push('', `${count(cases.length, 'case')}; ${costly} spend limits, create data the runner cannot remove or wait out a server timeout${spend ? '' : ' and run only with --spend'}.`);
  return `${lines.join('\n')}\n`;
}
