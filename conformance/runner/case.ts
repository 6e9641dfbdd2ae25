import type { DriverMethod } from '../drivers/driver.js';
import type { CaseContext } from './context.js';

export type Level = 'must' | 'should';

/**
 * Keys a case may use. Each is either given to the runner (`--key`, `--signup-key`,
 * `--other-account-key`, `--scoped-key`) or, with a driver, issued for the case on an account of
 * its own.
 */
export type KeyRole = 'key' | 'signupKey' | 'otherAccountKey' | 'scopedKey';

export interface CaseNeeds {
  /** Keys it uses, when it can run on given keys alone. */
  keys?: KeyRole[];
  /** The account-holder driver, and any optional methods of it the case calls. */
  driver?: true | DriverMethod[];
  /** A deployment clock the driver can move; such a case runs alone, as it moves time for everyone. */
  manualClock?: boolean;
}

/** What a case costs a deployment: such cases run only with `--spend` (or against the local sandbox). */
export interface CaseCosts {
  /** A rate limit, budget or ceiling it spends, in words. */
  spends?: string;
  /** Data it creates that the runner cannot remove, in words. */
  createsData?: string;
  /** A real-clock wait it sits out (a server timeout), in words. */
  waits?: string;
}

/**
 * One case of the catalogue: data with a stable id (`<operationId>/<slug>`), a title under 70
 * characters in the present tense, the specification sections it proves, a level, what it needs,
 * what it costs, and the steps it takes.
 */
export interface Case {
  id: string;
  title: string;
  sections: string[];
  level: Level;
  needs: CaseNeeds;
  costs: CaseCosts;
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

/** The case costs a deployment something: it runs only with --spend. */
export function spendsOrCreates(c: Case): boolean {
  return c.costs.spends !== undefined || c.costs.createsData !== undefined || c.costs.waits !== undefined;
}
