import type { CaseContext } from './context.js';
import type { CaseInfo } from './needs.js';
import { requirement, sectionOf, type RequirementId } from '../requirements/index.js';
import type { ReferenceBasis } from './basis.js';

export { spendsOrCreates, type CaseCosts, type CaseInfo, type CaseNeeds, type KeyRole } from './needs.js';

export type Level = 'must' | 'should';

/**
 * One case of the catalogue: data with a stable id (`<operationId>/<slug>`), a title under 70
 * characters in the present tense, the requirements it proves, a level, what it needs, what it
 * costs, and the steps it takes.
 */
export interface Case extends CaseInfo {
  title: string;
  level: Level;
  run(ctx: CaseContext): Promise<void>;
}

/**
 * A case as written in the catalogue. It proves `requirements`, or, for a choice of the reference
 * server, names that choice as its `basis` and the `sections` it is filed under.
 */
export type CaseSpec = Omit<Case, 'level' | 'requirements' | 'sections' | 'basis'> &
  Partial<Pick<Case, 'level'>> &
  ({ requirements: [RequirementId, ...RequirementId[]]; basis?: undefined; sections?: undefined } | { basis: ReferenceBasis; sections: string[]; requirements?: RequirementId[] });

export function defineCase(spec: CaseSpec): Case {
  const requirements = spec.requirements ?? [];
  const fromRequirements = requirements.map((id) => sectionOf(requirement(id))).filter((s): s is string => s !== undefined);
  const sections = [...new Set([...(spec.sections ?? []), ...fromRequirements])];
  return { level: 'must', ...spec, requirements, sections } as Case;
}

/** The operationId a case is filed under: its id's first segment. */
export function operationOf(c: Pick<Case, 'id'>): string {
  return c.id.slice(0, c.id.indexOf('/'));
}
