import type { DriverMethod } from '../drivers/driver.js';
import type { Basis } from './basis.js';
import type { RequirementId } from '../requirements/index.js';

/**
 * What a case (or a generated property) needs from a run and what it costs a deployment: the part
 * of a case the runner reads before and while running it.
 */

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

/** A case as the running of it sees it: its id, what it proves, its needs and costs. */
export interface CaseInfo {
  id: string;
  /** The requirements (of the specification or HTTP) the case proves: what its pass means. */
  requirements: RequirementId[];
  /** The sections of the specification it is filed under: its requirements', and any it names for a reference choice. */
  sections: string[];
  /**
   * For a case that proves a choice of the reference server, not a requirement: the choice, and
   * why it binds nobody else. Judging by the specification, such a case is reported apart, never
   * passed.
   */
  basis?: Basis;
  needs: CaseNeeds;
  costs: CaseCosts;
}

/** The case costs a deployment something: it runs only with --spend. */
export function spendsOrCreates(c: Pick<CaseInfo, 'costs'>): boolean {
  return c.costs.spends !== undefined || c.costs.createsData !== undefined || c.costs.waits !== undefined;
}
