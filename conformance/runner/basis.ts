import { isRfcPlace, placeOf, requirement, sectionOf, type HttpRequirementId, type RequirementId, type SpecRequirementId } from '../requirements/index.js';

/**
 * Where a rule the runner enforces is written. A deployment is judged by the first two kinds: a
 * requirement of the specification, or of HTTP itself, each named by its id in the requirements
 * catalogue (conformance/requirements/). The third kind describes the reference server, which the
 * document records in full; it binds nobody else, so a departure from it is a deviation, reported
 * and never failed, unless the run judges by the reference.
 */
export type Basis =
  | { kind: 'spec'; requirements: RequirementId[] }
  | { kind: 'http'; requirements: RequirementId[] }
  | { kind: 'reference'; why: string; remedy?: string };

/** One rule stated by several requirements at once (HTTP's and the specification's, say). */
export function together(...bases: RequirementBasis[]): RequirementBasis {
  return { kind: bases.some((b) => b.kind === 'spec') ? 'spec' : 'http', requirements: [...new Set(bases.flatMap((b) => b.requirements))] };
}

/** A choice of the reference server. */
export type ReferenceBasis = Extract<Basis, { kind: 'reference' }>;
/** A rule of the catalogue. */
export type RequirementBasis = Exclude<Basis, ReferenceBasis>;

/** A basis and, where it is written in the document, a JSON pointer to it: what every expectation names. */
export type Rule = Basis & { pointer?: string };

/** A rule stated by these requirements of the specification. */
export function spec(...requirements: [SpecRequirementId, ...SpecRequirementId[]]): RequirementBasis {
  return { kind: 'spec', requirements };
}

/** A rule of HTTP itself, by its requirement in the catalogue. */
export function http(...requirements: [HttpRequirementId, ...HttpRequirementId[]]): RequirementBasis {
  return { kind: 'http', requirements };
}

/**
 * A choice of the reference server that the specification leaves open; `why` says what the
 * specification does say. `remedy`, for a choice a case builds on rather than proves, says what
 * lets the case run on a deployment that chose otherwise (a sample in its own format, say).
 */
export function reference(why: string, remedy?: string): ReferenceBasis {
  return remedy === undefined ? { kind: 'reference', why } : { kind: 'reference', why, remedy };
}

/** The same rule, written somewhere in the document. */
export function at(basis: Basis, pointer: string | undefined): Rule {
  return pointer === undefined ? basis : { ...basis, pointer };
}

/** The requirements a basis names (none for a reference choice). */
export function requirementsOf(basis: Basis | undefined): RequirementId[] {
  return basis && basis.kind !== 'reference' ? basis.requirements : [];
}

/** Whether two bases are the same rule (a case's own basis, met again in one of its assertions). */
export function sameBasis(a: Basis | undefined, b: Basis | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === 'reference' && b.kind === 'reference') return a.why === b.why;
  return requirementsOf(a).join() === requirementsOf(b).join();
}

/** Whether a departure from a rule of this basis fails a deployment judged by the specification. */
export function binds(basis: Basis): boolean {
  return basis.kind !== 'reference';
}

/** The sections of the specification a basis cites, in order, each once. */
export function sectionsOf(basis: Basis | undefined): string[] {
  return [...new Set(requirementsOf(basis).map((id) => sectionOf(requirement(id))).filter((s): s is string => s !== undefined))];
}

/** The basis in a few words, as reports print it: each requirement with its place. */
export function describeBasis(basis: Basis): string {
  if (basis.kind === 'reference') return `the reference server's choice (${basis.why})`;
  const named = basis.requirements.map((id) => {
    const r = requirement(id);
    return `${isRfcPlace(r.place) ? '' : 'specification '}${placeOf(r)} [${id}]`;
  });
  return named.join('; ');
}

/** The requirements a basis names, each with its place and its words: what a failure report shows. */
export function requirementWords(basis: Basis): string[] {
  return requirementsOf(basis).map((id) => {
    const r = requirement(id);
    return `${id} (${placeOf(r)}): ${r.says}`;
  });
}

/** The two judgements a run can make: by the specification (and HTTP), or by the reference's full document. */
export type Judgement = 'spec' | 'reference';
