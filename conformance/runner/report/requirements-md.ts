import type { Case } from '../case.js';
import { PLACES, REQUIREMENTS, isRfcPlace, placeOf, type Requirement } from '../../requirements/index.js';
import { documentMarks } from '../../requirements/lint.js';
import { EVERY_ANSWER } from '../checks.js';
import type { Node } from '../json.js';

/**
 * REQUIREMENTS.md: the requirements catalogue as a reader walks the specification, section by
 * section, each statement with its place, its kind, the property it asks in our words, what it
 * leaves open and how it reads, and what tests it (cases, constraints of the document, the checks
 * of every answer) or why nothing can. Generated from conformance/requirements/, committed so a
 * change shows in review.
 */

export interface Tests {
  cases: string[];
  document: string[];
  everyAnswer: boolean;
}

/** What tests each requirement: the cases that prove it, the document's marks that name it, the checks of every answer. */
export function testsOf(cases: Case[], doc: Node): (id: string) => Tests {
  const marks = documentMarks(doc);
  return (id) => ({
    cases: cases.filter((c) => c.requirements.includes(id as never)).map((c) => c.id),
    document: marks.filter((m) => m.id === id).map((m) => m.where),
    everyAnswer: EVERY_ANSWER.includes(id as never),
  });
}

/** The names of what tests a requirement, for the lint and the listing. */
export function testedBy(tests: Tests): string[] {
  return [...tests.cases, ...tests.document, ...(tests.everyAnswer ? ['every answer'] : [])];
}

const KIND: Record<Requirement['kind'], string> = {
  requirement: 'requirement',
  informative: 'informative',
  'not-shown': 'not shown',
  client: 'of a client',
  'other-surface': 'outside the HTTP API',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function testsCell(r: Requirement, tests: Tests): string {
  if (r.kind !== 'requirement') return '';
  if (r.untestable) return `untestable: ${cell(r.untestable)}`;
  const parts = [
    tests.cases.length ? `${tests.cases.length} case${tests.cases.length === 1 ? '' : 's'} (${tests.cases.map((c) => `\`${c}\``).join(', ')})` : '',
    tests.document.length ? `${tests.document.length} constraint${tests.document.length === 1 ? '' : 's'} of the document` : '',
    tests.everyAnswer ? 'every answer' : '',
  ].filter(Boolean);
  return parts.join('; ');
}

function openCell(r: Requirement): string {
  return [
    ...(r.leavesOpen ?? []).map((o) => `open: ${cell(o)}`),
    ...(r.readings ?? []).map((o, i) => `reading ${i + 1}: ${cell(o)}`),
    ...(r.range ? [`range: ${r.range.min} to ${r.range.max} ${r.range.unit} (${cell(r.range.why)})`] : []),
  ].join('<br>');
}

export function requirementsMarkdown(cases: Case[], doc: Node): string {
  const tests = testsOf(cases, doc);
  const count = (kind: Requirement['kind']) => REQUIREMENTS.filter((r) => r.kind === kind).length;
  const requirements = REQUIREMENTS.filter((r) => r.kind === 'requirement');
  const tested = requirements.filter((r) => !r.untestable && testedBy(tests(r.id)).length > 0);
  const lines = [
    '# Requirements',
    '',
    'Generated from the catalogue (`conformance/requirements/`) by `npm run conformance:cases`; do not edit by hand.',
    `${REQUIREMENTS.length} statements of the specification and of HTTP: ${count('requirement')} requirements of a deployment (${tested.length} tested, ${requirements.filter((r) => r.untestable).length} untestable from outside), ${count('informative')} informative, ${count('not-shown')} not shown, ${count('client')} of a client, ${count('other-surface')} outside the HTTP API.`,
    '',
    'Every rule the spec judgement enforces names one of these by its id; a check that names none is the reference server\'s choice and can only be a deviation. Where a statement reads two ways, both readings are listed and both are accepted.',
  ];
  const bySection = new Map<string, Requirement[]>();
  for (const r of REQUIREMENTS) {
    const key = isRfcPlace(r.place) ? 'HTTP' : r.place.section;
    bySection.set(key, [...(bySection.get(key) ?? []), r]);
  }
  for (const [section, entries] of bySection) {
    const title = section === 'HTTP' ? 'HTTP' : section === 'intro' ? 'Introduction' : `${section}. ${PLACES[section]?.title ?? ''}`;
    lines.push('', `## ${title}`, '', '| id | place | kind | says | open, readings | tested by |', '| - | - | - | - | - | - |');
    for (const r of entries) lines.push(`| \`${r.id}\` | ${placeOf(r)} | ${KIND[r.kind]} | ${cell(r.says)} | ${openCell(r)} | ${testsCell(r, tests(r.id))} |`);
  }
  return `${lines.join('\n')}\n`;
}
