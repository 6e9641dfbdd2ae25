import type { AccountHolderDriver } from '../drivers/driver.js';
import type { KeyRole } from './case.js';
import { KEY_OPTION } from './context.js';
import type { Connection, HttpResponse } from './http.js';
import { UsageError } from './options.js';
import type { Settings } from './settings.js';
import { RunnerError } from './outcome.js';
import { sleep } from './throttle.js';
import { checkKeys } from './key-checks.js';
import { withNetworkHint } from './network-hints.js';
import type { Stop } from './interruption.js';

/**
 * Before any case: the base URL answers like the API, every key given is accepted and is what its
 * option claims (key-checks.ts), and the driver works. What fails here is a configuration to fix (exit 2), never a verdict on the deployment:
 * no case has run. A deployment that never became ready within --wait-for-ready is one too, the
 * same as one that cannot be reached; exit 3 is kept for a run that started and could not finish.
 */
export async function preflight(
  settings: Settings,
  driver: AccountHolderDriver | undefined,
  connection: Connection,
  log: (line: string) => void = () => {},
  stop?: Stop,
): Promise<{ manualClock: boolean }> {
  const base = settings.baseUrl;
  await untilReady(settings, connection, log, stop);
  try {
    for (const [role, key] of Object.entries(settings.keys) as [KeyRole, string | undefined][]) {
      if (!key) continue;
      const request = connection.request({ method: 'GET', url: `${base}/v1/tokens`, headers: { accept: 'application/json', authorization: `Bearer ${key}` } });
      const res = await connection.send(request, settings.timeoutMs);
      if (res.status === 401) {
        const code = (res.json as { code?: string } | undefined)?.code ?? '';
        throw new UsageError(`the key given with ${KEY_OPTION[role]} is refused (401 ${code}); check it`);
      }
    }
    await checkKeys({ connection, baseUrl: base, timeoutMs: settings.timeoutMs }, settings.keys, log);
  } catch (e) {
    // A deployment that answered the probe and then no more (a timeout, a reset) ends the run here, as an unreachable one does.
    if (e instanceof RunnerError) throw new UsageError(`${base} answered the start-up probe, then not the key checks: ${e.message}`);
    throw e;
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
  await checkDriver(driver);
  return { manualClock };
}

/**
 * The driver works before the first case: its own `check()` when it has one, else one account
 * opened and deleted. A back office that is down is one line and exit 2, never an error per case.
 */
async function checkDriver(driver: AccountHolderDriver): Promise<void> {
  let step = driver.check ? 'check()' : 'openAccount';
  try {
    if (driver.check) return await driver.check();
    const { accountId } = await driver.openAccount({ plan: 'Free', name: 'conformance driver check' });
    step = 'deleteAccount';
    await driver.deleteAccount?.(accountId);
  } catch (e) {
    throw new UsageError(`the driver does not work: its ${step} failed before any case: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Asks once, or with --wait-for-ready again and again (1 s apart, then up to 5 s) until the deadline. */
async function untilReady(settings: Settings, connection: Connection, log: (line: string) => void, stop?: Stop): Promise<void> {
  const started = Date.now();
  const deadline = started + (settings.waitForReadyS ?? 0) * 1000;
  for (let attempt = 0; ; attempt++) {
    const left = deadline - Date.now();
    const problem = await probe(settings, connection, settings.waitForReadyS === undefined ? settings.timeoutMs : Math.max(1000, Math.min(settings.timeoutMs, left)));
    if (!problem) {
      if (attempt > 0) log(`${settings.baseUrl} answered like the API after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      return;
    }
    if (settings.waitForReadyS === undefined) throw new UsageError(problem);
    if (stop?.requested) throw new UsageError(`interrupted by ${stop.signal} while waiting for ${settings.baseUrl} to answer like the API: ${problem}`);
    if (Date.now() >= deadline) throw new UsageError(`not ready within ${settings.waitForReadyS} s (--wait-for-ready): ${problem}`);
    if (attempt === 0) log(`waiting up to ${settings.waitForReadyS} s for ${settings.baseUrl} to answer like the API (${problem})\n`);
    await sleep(Math.min(1000 * 1.5 ** attempt, 5000, Math.max(0, deadline - Date.now())));
  }
}

/** Why the base URL does not answer like the API, or undefined when it does. */
async function probe(settings: Settings, connection: Connection, timeoutMs: number): Promise<string | undefined> {
  const base = settings.baseUrl;
  let res: HttpResponse;
  try {
    res = await connection.send(connection.request({ method: 'GET', url: `${base}/v1/recipes`, headers: { accept: 'application/json' } }), timeoutMs);
  } catch (e) {
    if (e instanceof RunnerError) return `cannot reach ${base}: ${withNetworkHint(e.message, base)}`;
    throw e;
  }
  return notTheApi(base, res);
}

/** GET /v1/recipes answers 200 with a JSON object holding a `recipes` array: a catch-all that answers 200 to anything does not. */
function notTheApi(base: string, res: HttpResponse): string | undefined {
  const answered = `GET /v1/recipes answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
  if (res.status === 404) return `${base} does not serve the API: ${answered}; check --base-url (no /v1 at its end)`;
  if (res.status >= 300 && res.status < 400) {
    return `${base} does not serve the API: ${answered} to ${res.headers.location ?? 'nowhere'}; the runner follows no redirect, give the URL that serves the API as --base-url`;
  }
  if (res.status === 401 || res.status === 403 || res.status === 407) {
    return `${base} does not serve the API to the runner: ${answered}; an edge in front of it may need --header NAME=VALUE (or a proxy's credentials)`;
  }
  if (res.status !== 200) return `${base} does not answer like the API yet: ${answered}`;
  if (res.wire?.undecodable) return `${base} does not answer like the API: GET /v1/recipes answered ${res.wire.undecodable}`;
  const body = res.json as { recipes?: unknown } | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Array.isArray(body.recipes)) {
    const type = res.headers['content-type'];
    return `${base} does not answer like the credential-vault API: GET /v1/recipes answered 200 ${type ? `with ${type.split(';')[0]}` : 'without a Content-Type'}, not a JSON object with a recipes array; check --base-url`;
  }
  return undefined;
}
