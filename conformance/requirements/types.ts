/**
 * One statement of the specification (or of HTTP, where the runner applies an RFC), in our own
 * words: the unit a verdict is given for. Every rule the spec judgement enforces names one of
 * these; a check that names none is the reference server's choice and can only be a deviation.
 */
export interface Requirement {
  /** Stable, kebab-case; never reused for another statement. */
  id: string;
  /** Where it is written: a section and a part of it (places.ts), or an RFC section. */
  place: SpecPlace | RfcPlace;
  /**
   * - `requirement`: binds a deployment of the HTTP API;
   * - `informative`: describes the service or explains; binds nothing;
   * - `not-shown`: the text says the matter is not shown; what it leaves open is recorded;
   * - `client`: binds a client or an agent, not the deployment;
   * - `other-surface`: binds a part of the service outside the HTTP API (the proxy and its
   *   WebSocket protocol, the SDK, the hosted tool server, the dashboard), which no request to the
   *   HTTP API can observe.
   */
  kind: 'requirement' | 'informative' | 'not-shown' | 'client' | 'other-surface';
  /** The one property it asks of an answer or a behaviour, in our words. */
  says: string;
  /** What it leaves to the deployment. */
  leavesOpen?: string[];
  /** Where its words can be read more than one way: every reading, each of which the runner accepts. */
  readings?: string[];
  /** A figure given as "about": the range the runner accepts, and why that range. */
  range?: { min: number; max: number; unit: 'seconds'; why: string };
  /** The `x-limits` entries of the document that carry its figures. */
  limits?: string[];
  /** For a `requirement` no black-box request can check: why. */
  untestable?: string;
}

export interface SpecPlace {
  section: string;
  part?: string;
}

export interface RfcPlace {
  rfc: string;
  section: string;
}

export function isRfcPlace(place: SpecPlace | RfcPlace): place is RfcPlace {
  return 'rfc' in place;
}

type More = Omit<Partial<Requirement>, 'id' | 'place' | 'kind' | 'says'>;

/** A place in the specification: `at('4.1', 'bullet 2')`. */
export function at(section: string, part?: string): SpecPlace {
  return part === undefined ? { section } : { section, part };
}

/** A section of an RFC: `rfc('RFC 9110', '15.5')`. */
export function rfc(name: string, section: string): RfcPlace {
  return { rfc: name, section };
}

function entry<const I extends string>(kind: Requirement['kind']) {
  return <const J extends I>(id: J, place: SpecPlace | RfcPlace, says: string, more: More = {}): Requirement & { id: J } => ({ id, place, kind, says, ...more });
}

/** Binds a deployment of the HTTP API. */
export const must = entry('requirement');
/** Describes or explains; binds nothing. */
export const informative = entry('informative');
/** The text says the matter is not shown. */
export const notShown = entry('not-shown');
/** Binds a client or an agent. */
export const client = entry('client');
/** Binds a part of the service outside the HTTP API. */
export const elsewhere = entry('other-surface');
