import type { Requirement } from './types.js';
import { SERVICE } from './s1-service.js';
import { RESOURCES } from './s2-resources.js';
import { STATES } from './s3-states.js';
import { CATALOG_AND_RECIPES } from './s4-catalog-recipes.js';
import { SIGNUP } from './s4-signup.js';
import { LINKS } from './s4-links.js';
import { AUTH } from './s5-auth.js';
import { EVENTS } from './s6-events.js';
import { ERRORS } from './s7-errors.js';
import { LIMITS } from './s8-limits.js';
import { VERSIONING } from './s9-versioning.js';
import { HTTP } from './http.js';

export type { Requirement, SpecPlace, RfcPlace } from './types.js';
export { isRfcPlace } from './types.js';
export { PLACES, RFC_PLACES } from './places.js';

const SPEC = [...SERVICE, ...RESOURCES, ...STATES, ...CATALOG_AND_RECIPES, ...SIGNUP, ...LINKS, ...AUTH, ...EVENTS, ...ERRORS, ...LIMITS, ...VERSIONING] as const;

/** The id of a statement of the specification. */
export type SpecRequirementId = (typeof SPEC)[number]['id'];
/** The id of a rule of HTTP the runner applies. */
export type HttpRequirementId = (typeof HTTP)[number]['id'];
export type RequirementId = SpecRequirementId | HttpRequirementId;

/** The whole catalogue, in the order of the specification, then HTTP's rules. */
export const REQUIREMENTS: readonly Requirement[] = [...SPEC, ...HTTP];

const BY_ID = new Map(REQUIREMENTS.map((r) => [r.id, r]));

export function requirement(id: string): Requirement {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`no requirement ${id} in the catalogue`);
  return found;
}

export function isRequirementId(id: string): id is RequirementId {
  return BY_ID.has(id);
}

/** `§4.1 bullet 2` or `RFC 9110 §15.5`: where a requirement is written, as reports print it. */
export function placeOf(r: Requirement): string {
  const p = r.place;
  if ('rfc' in p) return `${p.rfc} §${p.section}`;
  const section = p.section === 'intro' ? 'introduction' : `§${p.section}`;
  return p.part ? `${section} ${p.part}` : section;
}

/** The section of the specification a requirement is in (undefined for HTTP's). */
export function sectionOf(r: Requirement): string | undefined {
  return 'rfc' in r.place ? undefined : r.place.section;
}
