import type { AccountHolderDriver } from '../drivers/driver.js';
import type { KeyRole } from './case.js';
import { KEY_OPTION } from './context.js';
import { send } from './http.js';
import { UsageError } from './options.js';
import type { Settings } from './settings.js';
import { RunnerError } from './outcome.js';

/**
 * Before any case: the base URL answers, every key given is accepted, and the driver works. What
 * fails here is a configuration to fix (exit 2), never a verdict on the deployment.
 */
export async function preflight(settings: Settings, driver: AccountHolderDriver | undefined): Promise<{ manualClock: boolean }> {
  const base = settings.baseUrl;
  try {
    const res = await send({ method: 'GET', url: `${base}/v1/recipes`, headers: { accept: 'application/json' } }, settings.timeoutMs);
    if (res.status === 404) throw new UsageError(`${base} does not serve the API: GET /v1/recipes answered 404; check --base-url (no /v1 at its end)`);
  } catch (e) {
    if (e instanceof RunnerError) throw new UsageError(`cannot reach ${base}: ${e.message}`);
    throw e;
  }
  for (const [role, key] of Object.entries(settings.keys) as [KeyRole, string | undefined][]) {
    if (!key) continue;
    const res = await send({ method: 'GET', url: `${base}/v1/tokens`, headers: { accept: 'application/json', authorization: `Bearer ${key}` } }, settings.timeoutMs);
    if (res.status === 401) {
      const code = (res.json as { code?: string } | undefined)?.code ?? '';
      throw new UsageError(`the key given with ${KEY_OPTION[role]} is refused (401 ${code}); check it`);
    }
  }
  if (!driver) {
    if (settings.clock === 'manual') throw new UsageError('--clock manual needs a driver that moves the clock (--driver)');
    return { manualClock: false };
  }
  let manualClock = false;
  if (settings.clock !== 'real' && driver.clock) {
    try {
      manualClock = (await driver.clock()).manual;
    } catch (e) {
      throw new UsageError(`the driver does not work: ${(e as Error).message}`);
    }
  }
  if (settings.clock === 'manual') {
    if (!driver.advanceClock) throw new UsageError('--clock manual needs a driver that moves the clock (advanceClock)');
    if (driver.clock && !manualClock) throw new UsageError('--clock manual, but the driver says the deployment\'s clock is real');
    manualClock = true;
  }
  if (manualClock && !driver.advanceClock) manualClock = false;
  return { manualClock };
}
