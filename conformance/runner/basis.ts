/**
 * Where a rule the runner enforces is written. A deployment is judged by the first two kinds: a
 * sentence of the specification, or HTTP itself (an RFC section). The third kind describes the
 * reference server, which the document records in full; it binds nobody else, so a departure from
 * it is a deviation, reported and never failed, unless the run judges by the reference.
 */
export type Basis =
  | { kind: 'spec'; sections: string[] }
  | { kind: 'http'; cite: string }
  | { kind: 'reference'; why: string; remedy?: string };

/** A rule stated by the specification, in these sections. */
export function spec(...sections: string[]): Basis {
  return { kind: 'spec', sections };
}

/** A rule of HTTP itself: `RFC 9110 §11.1`. */
export function http(cite: string): Basis {
  return { kind: 'http', cite };
}

/**
 * A choice of the reference server that the specification leaves open; `why` says what the
 * specification does say. `remedy`, for a choice a case builds on rather than proves, says what
 * lets the case run on a deployment that chose otherwise (a sample in its own format, say).
 */
export function reference(why: string, remedy?: string): Basis {
  return remedy === undefined ? { kind: 'reference', why } : { kind: 'reference', why, remedy };
}

/** Whether two bases are the same rule (a case's own basis, met again in one of its assertions). */
export function sameBasis(a: Basis | undefined, b: Basis | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === 'reference' && b.kind === 'reference') return a.why === b.why;
  if (a.kind === 'http' && b.kind === 'http') return a.cite === b.cite;
  return a.kind === 'spec' && b.kind === 'spec' && a.sections.join() === b.sections.join();
}

/** Whether a departure from a rule of this basis fails a deployment judged by the specification. */
export function binds(basis: Basis): boolean {
  return basis.kind !== 'reference';
}

/** The basis in a few words, as reports print it. */
export function describeBasis(basis: Basis): string {
  if (basis.kind === 'spec') return basis.sections.length > 0 ? `specification ${basis.sections.map((s) => `§${s}`).join(', ')}` : 'specification';
  if (basis.kind === 'http') return basis.cite;
  return `the reference server's choice (${basis.why})`;
}

/** The two judgements a run can make: by the specification (and HTTP), or by the reference's full document. */
export type Judgement = 'spec' | 'reference';
