/** The runner as a library: the command line's entry point, and the types a driver module implements. */
export { main } from './cli.js';
export type { AccountHolderDriver, DriverContext, DriverFactory, PlanName, ClockState } from '../drivers/driver.js';
