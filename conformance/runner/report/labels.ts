import type { Case } from '../case.js';
import { describeBasis } from '../basis.js';
import { SECTIONS, chapterOf } from '../sections.js';

/**
 * Where a case is filed in every report: under the first section it proves, or, for a case that
 * proves no sentence of the specification, under its basis (HTTP, or the reference server's own
 * choices). Console, JUnit and HTML name the group the same way.
 */
export interface Group {
  /** Sorts numerically for sections; the groups without a section come after them. */
  key: string;
  /** `4. Endpoints`, `HTTP`, `Reference server's choices`. */
  title: string;
}

const BEYOND = { http: { key: 'http', title: 'HTTP' }, reference: { key: 'reference', title: "Reference server's choices" } } as const;
const GENERATED: Group = { key: 'generated', title: 'Generated inputs' };

/** A generated property (`--generate`), filed apart from the catalogue's cases. */
function generated(c: object): boolean {
  return (c as { generated?: unknown }).generated === true;
}

function basisKind(c: Pick<Case, 'basis'>): 'http' | 'reference' {
  return c.basis?.kind === 'reference' ? 'reference' : 'http';
}

/** The top-level group of a case, for a summary by chapter. */
export function chapterGroup(c: Pick<Case, 'sections' | 'basis'>): Group {
  if (generated(c)) return GENERATED;
  const first = c.sections[0];
  if (first) {
    const chapter = chapterOf(first);
    return { key: chapter, title: `${chapter}. ${SECTIONS[chapter] ?? ''}`.trim() };
  }
  return BEYOND[basisKind(c)];
}

/** The JUnit segment of a case's group: `s4_6` for section 4.6, `http` or `reference` without one. */
export function junitSegment(c: Pick<Case, 'sections' | 'basis'>): string {
  if (generated(c)) return GENERATED.key;
  const first = c.sections[0];
  return first ? `s${first.replace(/\./g, '_')}` : basisKind(c);
}

/** The title of a JUnit suite or HTML group named by `junitSegment`. */
export function segmentTitle(c: Pick<Case, 'sections' | 'basis'>): string {
  if (generated(c)) return GENERATED.title;
  const first = c.sections[0];
  return first ? `${first} ${SECTIONS[first] ?? ''}`.trim() : BEYOND[basisKind(c)].title;
}

/** What a case proves, in a few words: `§4.6, §8.3`, or its basis when it cites no section. */
export function provesText(c: Pick<Case, 'sections' | 'basis'>): string {
  if (c.sections.length > 0) return c.sections.map((s) => `§${s}`).join(', ');
  if (c.basis) return describeBasis(c.basis);
  return 'no section';
}

/** Sorts group keys: sections numerically, then the groups without one. */
export function byGroupKey(a: string, b: string): number {
  const [da, db] = [/^\d/.test(a), /^\d/.test(b)];
  if (da !== db) return da ? -1 : 1;
  return a.localeCompare(b, 'en', { numeric: true });
}
