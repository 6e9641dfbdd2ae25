import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import { backOfficeDriverOver } from '../drivers/back-office.js';
import type { Connection } from './http.js';
import { REQUIRED_METHODS, type AccountHolderDriver, type DriverFactory } from '../drivers/driver.js';
import { BACK_OFFICE_DRIVER, UsageError } from './options.js';

/** A `.js` driver written as an ES module, in a package that is CommonJS (as `npm init -y` makes it). */
function moduleHint(file: string, e: Error): string {
  const commonJs = /Cannot use import statement outside a module|Unexpected token 'export'|exports is not defined in ES module scope|require is not defined in ES module scope/.test(e.message);
  if (!commonJs) return '';
  return file.endsWith('.js')
    ? ' (Node reads a .js file by the nearest package.json, which makes it CommonJS unless it says "type": "module": name the driver .mjs)'
    : ' (an ES module driver uses import and export; name it .mjs)';
}

/**
 * Loads `--driver`: `back-office` (over the run's connection to the deployment), or an ES module
 * whose default export (or `createDriver`) is a DriverFactory.
 */
export async function loadDriver(spec: { module: string; options: Record<string, string> }, baseUrl: string, connection: Connection): Promise<AccountHolderDriver> {
  let factory: DriverFactory;
  if (spec.module === BACK_OFFICE_DRIVER) factory = backOfficeDriverOver(connection);
  else {
    if (!existsSync(spec.module)) throw new UsageError(`--driver ${spec.module}: no such file`);
    let mod: { default?: unknown; createDriver?: unknown };
    try {
      mod = (await import(pathToFileURL(spec.module).href)) as typeof mod;
    } catch (e) {
      throw new UsageError(`--driver ${spec.module} could not be loaded: ${(e as Error).message.split('\n')[0]}${moduleHint(spec.module, e as Error)}`);
    }
    const found = typeof mod.default === 'function' ? mod.default : mod.createDriver;
    if (typeof found !== 'function') throw new UsageError(`--driver ${spec.module} must export a driver factory as default (or as createDriver)`);
    factory = found as DriverFactory;
  }
  let driver: AccountHolderDriver;
  try {
    driver = await factory({ baseUrl, options: spec.options });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const missing = REQUIRED_METHODS.filter((m) => typeof driver[m] !== 'function');
  if (missing.length > 0) throw new UsageError(`the driver lacks ${missing.join(', ')}, which every driver has (see drivers/driver.ts)`);
  return driver;
}
