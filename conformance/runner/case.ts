import type { CaseContext } from './context.js';
import type { CaseInfo } from './needs.js';

export { spendsOrCreates, type CaseCosts, type CaseInfo, type CaseNeeds, type KeyRole } from './needs.js';

export type Level = 'must' | 'should';

/**
 * One case of the catalogue: data with a stable id (`<operationId>/<slug>`), a title under 70
 * characters in the present tense, the specification sections it proves, a level, what it needs,
 * what it costs, and the steps it takes.
 */
export interface Case extends CaseInfo {
  title: string;
  level: Level;
  run(ctx: CaseContext): Promise<void>;
}

/** A case as written in the catalogue: every field but `level` (default `must`) is declared. */
export type CaseSpec = Omit<Case, 'level'> & Partial<Pick<Case, 'level'>>;

export function defineCase(spec: CaseSpec): Case {
  return { level: 'must', ...spec };
}

/** The operationId a case is filed under: its id's first segment. */
export function operationOf(c: Pick<Case, 'id'>): string {
  return c.id.slice(0, c.id.indexOf('/'));
}
