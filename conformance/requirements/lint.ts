import { PLACES, RFC_PLACES } from './places.js';
import { REQUIREMENTS, isRfcPlace, isRequirementId, requirement, type Requirement } from './index.js';

/**
 * The catalogue's own rules: unique kebab-case ids; every place one the specification (or the RFC
 * cited) has; every part of every section covered by at least one entry, so that the catalogue
 * walks the whole text; a requirement tested somewhere or saying why it cannot be; a range that
 * is one. Returns the problems, one line each.
 */
export function lintRequirements(testedBy: (id: string) => string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const r of REQUIREMENTS) {
    const at = `requirement ${r.id}`;
    if (seen.has(r.id)) problems.push(`${at}: the id is used twice`);
    seen.add(r.id);
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(r.id)) problems.push(`${at}: the id is not kebab-case`);
    problems.push(...placeProblems(r).map((p) => `${at}: ${p}`));
    if (isRfcPlace(r.place) !== r.id.startsWith('http-')) problems.push(`${at}: the ids of HTTP's rules, and only theirs, start with http-`);
    if (r.says.trim().length < 10) problems.push(`${at}: says nothing`);
    if (r.kind === 'requirement' && !r.untestable && testedBy(r.id).length === 0) problems.push(`${at}: no case or document constraint tests it, and it does not say why it cannot be tested`);
    if (r.untestable && r.kind !== 'requirement') problems.push(`${at}: only a requirement can be untestable`);
    if (r.range && !(r.range.min < r.range.max)) problems.push(`${at}: its range is empty`);
  }
  for (const [section, { parts }] of Object.entries(PLACES)) {
    for (const part of parts) {
      if (!REQUIREMENTS.some((r) => !isRfcPlace(r.place) && r.place.section === section && r.place.part === part)) problems.push(`section ${section} ${part}: no entry of the catalogue covers it`);
    }
  }
  return problems;
}

function placeProblems(r: Requirement): string[] {
  const p = r.place;
  if (isRfcPlace(p)) return RFC_PLACES[p.rfc]?.includes(p.section) ? [] : [`${p.rfc} §${p.section} is not a place the catalogue lists (places.ts)`];
  const section = PLACES[p.section];
  if (!section) return [`section ${p.section} does not exist`];
  if (p.part !== undefined && !section.parts.includes(p.part)) return [`section ${p.section} has no ${p.part}`];
  return [];
}

/** Problems of the ids a document or a case names: each must be a requirement of the catalogue. */
export function unknownRequirements(named: { where: string; id: string }[]): string[] {
  return named.filter((n) => !isRequirementId(n.id)).map((n) => `${n.where}: names ${n.id}, which is no requirement of the catalogue`);
}

/** Every requirement id the document's `x-basis` marks name, with where. */
export function documentMarks(doc: unknown): { where: string; id: string }[] {
  const out: { where: string; id: string }[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-basis' && value && typeof value === 'object') {
        for (const [constraint, mark] of Object.entries(value as Record<string, Record<string, unknown>>)) {
          for (const kind of ['spec', 'http']) {
            const ids = mark?.[kind];
            for (const id of Array.isArray(ids) ? ids : ids === undefined ? [] : [ids]) out.push({ where: `${at}/x-basis/${constraint}`, id: String(id) });
          }
        }
      } else walk(value, `${at}/${key}`);
    }
  };
  walk(doc, '#');
  return out;
}

export { requirement };
