import type { CaseContext } from './context.js';
import { codeOf, type Exchange } from './exchange.js';
import { reference, sectionsOf, spec } from './basis.js';
import type { SpecRequirementId } from '../requirements/index.js';

/**
 * A sentence of the specification that can be read two ways, and the answer each reading gives.
 * Judging by the specification, both stand: either answer passes, and the reference's reading is a
 * choice like any other, reported as a deviation when the deployment took the other. Judging by the
 * reference, its reading is enforced. CASES.md lists every reading with both sides.
 */
export interface Reading {
  /** A short stable name: `missing-website`. */
  id: string;
  /** What was sent, in a few words. */
  request: string;
  /** The requirement whose words read two ways (its `readings` in the catalogue say how). */
  requirement: SpecRequirementId;
  /** The answers the readings give, each with the sentence it rests on. */
  sides: { status: number; code: string; because: string }[];
  /** The code of the side the reference server takes. */
  reference: string;
  /** The cases that meet it. */
  cases: string[];
}

const describe = (s: { status: number; code: string }) => `${s.status} ${s.code}`;

/** The answer is one that a reading of the specification gives; which one is the reference's choice. */
export function expectReading(ctx: CaseContext, ex: Exchange, reading: Reading): void {
  const received = `${ex.response.status}${codeOf(ex.response) ? ` ${codeOf(ex.response)}` : ''}`;
  const matches = (s: { status: number; code: string }) => ex.response.status === s.status && codeOf(ex.response) === s.code;
  const either = reading.sides.map(describe).join(' or ');
  if (!reading.sides.some(matches)) ctx.fail(`${either} (${reading.request}: the specification reads both ways)`, received, spec(reading.requirement), ex);
  const own = reading.sides.find((s) => s.code === reading.reference)!;
  const why = `The specification reads two ways for ${reading.request} (${either}); the reference answers ${describe(own)}.`;
  ctx.check(matches(own), `${describe(own)}, the reference's reading for ${reading.request}`, received, reference(why), ex);
}

/** The sections a reading is filed under: its requirement's. */
export function readingSections(reading: Reading): string[] {
  return sectionsOf(spec(reading.requirement));
}
