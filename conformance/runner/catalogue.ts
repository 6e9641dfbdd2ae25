import type { ApiDocument } from './document.js';
import { operationOf, type Case } from './case.js';
import { SECTIONS, withinSection } from './sections.js';
import { isRequirementId, requirement } from '../requirements/index.js';
import { matchesTags } from './tags.js';

/** `*` matches any run of characters, `?` one; everything else is literal. */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

export function matchesAny(id: string, patterns: string[]): boolean {
  return patterns.some((p) => globToRegExp(p).test(id));
}

export interface Selection {
  only: string[];
  skip: string[];
  sections: string[];
  level: 'must' | 'should';
  /** `--tag`: tags every selected case has (or, led by `!`, does not have). */
  tags?: string[];
}

export function selectCases(cases: Case[], selection: Selection): Case[] {
  return cases.filter(
    (c) =>
      (selection.only.length === 0 || matchesAny(c.id, selection.only)) &&
      !matchesAny(c.id, selection.skip) &&
      (selection.sections.length === 0 || c.sections.some((s) => selection.sections.some((w) => withinSection(s, w)))) &&
      (selection.level === 'should' || c.level === 'must') &&
      matchesTags(c, selection.tags ?? []),
  );
}

const ID = /^[a-z][A-Za-z0-9]*\/[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The catalogue's own rules: unique ids of the form `<operationId>/<kebab-slug>` on an operation
 * the document has, titles under 70 characters in the present tense, sections that exist in the
 * specification, and needs and costs declared. Returns the problems, one line each.
 */
export function lintCatalogue(cases: Case[], doc: ApiDocument): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const c of cases) {
    const at = `case ${c.id}`;
    if (seen.has(c.id)) problems.push(`${at}: the id is used twice`);
    seen.add(c.id);
    if (!ID.test(c.id)) problems.push(`${at}: the id is not <operationId>/<kebab-slug>`);
    if (!doc.operations.has(operationOf(c)) && !doc.webhookOperations.has(operationOf(c))) problems.push(`${at}: the document has no operation ${operationOf(c)}`);
    if (c.title.length === 0 || c.title.length >= 70) problems.push(`${at}: the title must have 1 to 69 characters`);
    if (/\bshould\b/i.test(c.title)) problems.push(`${at}: the title says "should"; say what the deployment does`);
    // A case proves requirements of the catalogue, or names the reference's choice it proves.
    if (c.requirements.length === 0 && c.basis?.kind !== 'reference') problems.push(`${at}: proves no requirement and names no reference choice`);
    for (const id of c.requirements) {
      if (!isRequirementId(id)) problems.push(`${at}: proves ${id}, which is no requirement of the catalogue`);
      else if (requirement(id).kind !== 'requirement') problems.push(`${at}: proves ${id}, which requires nothing of a deployment (${requirement(id).kind})`);
    }
    for (const s of c.sections) if (!(s in SECTIONS)) problems.push(`${at}: cites section ${s}, which the specification does not have`);
    if (c.basis?.kind === 'reference' && c.basis.why.trim().length < 10) problems.push(`${at}: a reference basis says why: what the specification does say`);
    if (!['must', 'should'].includes(c.level)) problems.push(`${at}: level must be must or should`);
    if (typeof c.needs !== 'object' || c.needs === null) problems.push(`${at}: needs are not declared`);
    if (typeof c.costs !== 'object' || c.costs === null) problems.push(`${at}: costs are not declared`);
    if (c.needs?.manualClock && !c.needs.driver) problems.push(`${at}: a manual clock is moved through the driver; declare needs.driver too`);
  }
  return problems;
}
