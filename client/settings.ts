// The client settings of specification section 8.9, read from the environment (or an injected copy of
// it). Every default, clamp, ignored value and refusal of that table is written here and nowhere else:
// the options of createVaultClient and of each call go through the same rules.
import { DEFAULT_BASE_URL } from './generated/document.js';
import { VaultSettingsError } from './errors.js';
import type { OperationId } from './operations.js';

/** Environment variables by name, as `process.env` holds them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Section 8.9's defaults and bounds. */
export const SETTING_RULES = Object.freeze({
  /** The local development proxy used when `VAULT_PROXY_URL` is unset. */
  proxyUrlFallback: 'ws://localhost:4000/v1',
  /** `VAULT_REQUEST_TIMEOUT_MS`: the default, and the least it should be (a warning below it). */
  requestTimeoutMs: Object.freeze({ default: 180_000, recommendedMin: 150_000 }),
  /** `VAULT_LIVENESS_PROBE_MS`: the default, and the bounds values are raised or lowered to. */
  livenessProbeMs: Object.freeze({ default: 30_000, min: 1_000, max: 3_900_000 }),
});

/** `VAULT_TUNNEL`: unset uses the tunnel when possible, `1` requires it, `0` never uses it. */
export type TunnelMode = 'when-possible' | 'required' | 'never';

export interface VaultSettings {
  /** `VAULT_API_KEY`. Required for authenticated calls; per-call and per-session options override it. */
  apiKey: string | undefined;
  /** `VAULT_API_URL`: the HTTP API's base URL; unset, the document's default (the local reference server). */
  apiUrl: string;
  /** `VAULT_PROXY_URL`: the proxy's WebSocket URL; unset, the local development proxy. */
  proxyUrl: string;
  /** True when `proxyUrl` is the local development fallback, not a configured URL. */
  proxyUrlIsFallback: boolean;
  /** `VAULT_TUNNEL`. */
  tunnel: TunnelMode;
  /** `VAULT_REQUEST_TIMEOUT_MS`: the deadline of one call, every attempt included. */
  requestTimeoutMs: number;
  /** `VAULT_ACTION_TIMEOUT_MS`: the per-action bound (`action_timeout`); null means none. */
  actionTimeoutMs: number | null;
  /** `VAULT_RESUME`: resume a session after a network drop; `0` ends it on any drop. */
  resume: boolean;
  /** `VAULT_RESIDENTIAL_EGRESS`: `1` requires residential egress. */
  residentialEgress: boolean;
  /** `VAULT_STRICT_APPROVAL`: `1` means a reported total below the approval threshold never skips approval. */
  strictApproval: boolean;
  /** `VAULT_VERIFIED_OUTCOMES`: challenge results `solved` / `released_unsolved`; `0` gives the single value `completed`. */
  verifiedOutcomes: boolean;
  /** `VAULT_LIVENESS_PROBE_MS`, within its bounds. */
  livenessProbeMs: number;
  /** `VAULT_NETWORK_FAMILY_AUTOSELECTION` (hosted tool server only): `1` races address families; otherwise one address per host. */
  networkFamilyAutoselection: boolean;
  /** `NODE_ENV` is `production`. */
  production: boolean;
}

/** Values given in code; each overrides its environment variable and is checked by the same rule. */
export interface SettingOverrides {
  apiKey?: string | undefined;
  apiUrl?: string | undefined;
  proxyUrl?: string | undefined;
  requestTimeoutMs?: number | undefined;
}

export interface ReadSettings {
  settings: Readonly<VaultSettings>;
  /** One sentence per problem found, each naming its variable. */
  warnings: readonly string[];
}

/** The process's environment where there is one (Node, Deno, Bun); empty elsewhere. */
export function processEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

/**
 * Where a value came from, as a message names it: the variable, or the option that overrides it.
 * `variable` is what `VaultSettingsError.variable` reports either way.
 */
export interface SettingSource {
  variable: string;
  option?: string;
  /** The call whose own option it is. */
  operationId?: OperationId;
}

const shown = (from: SettingSource, value: unknown) => (from.option ? `${from.option} ${JSON.stringify(value)}` : `${from.variable}=${String(value)}`);
const named = (from: SettingSource) => (from.option ? `the ${from.option} option` : from.variable);
const refuse = (from: SettingSource, message: string) => new VaultSettingsError(from.variable, message, from.operationId);

/**
 * The API's base URL (`VAULT_API_URL`, `apiUrl`): an http:// or https:// URL with no credentials, query
 * or fragment, and without the version segment, since every path of the document carries `/v1`
 * itself; a base ending in `/v1` would send `/v1/v1/...`, so it is refused with that reason rather
 * than guessed at. Returned without a trailing slash.
 */
export function checkApiUrl(value: string, from: SettingSource): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse(from, `${shown(from, value)} is not a URL: give the API's base URL, such as ${DEFAULT_BASE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(from, `${shown(from, value)} is not an http:// or https:// URL`);
  // Never quoted: the URL holds a password.
  if (url.username || url.password) throw refuse(from, `${named(from)} carries credentials; send the API key as VAULT_API_KEY`);
  if (url.search || url.hash || value.includes('?') || value.includes('#')) {
    throw refuse(from, `${shown(from, value)} has a query or a fragment; give the base URL alone`);
  }
  const base = url.href.replace(/\/+$/, '');
  const version = /\/(v\d+)$/.exec(url.pathname.replace(/\/+$/, ''));
  if (version) {
    throw refuse(
      from,
      `${shown(from, value)} ends in the version segment /${version[1]}; give the base URL without it (${base.slice(0, -version[0].length)}): ` +
        "the client adds /v1 from the document's paths",
    );
  }
  return base;
}

/**
 * An API key (`VAULT_API_KEY`, `apiKey`, a call's `apiKey`), sent as `Authorization: Bearer <key>`.
 * Empty means none. A key never has whitespace or a control character: one that does is a copy
 * mistake (a trailing newline above all) that would only surface later as a 401 or a failed request,
 * so it is refused here. The message never quotes the key.
 */
export function checkApiKey(value: string | undefined, from: SettingSource): string | undefined {
  if (value === undefined || value === '') return undefined;
  const bad = /[^\x21-\x7e]/.exec(value);
  if (bad) {
    const what = /\s/.test(bad[0]) ? 'whitespace' : 'a character an HTTP header cannot carry';
    throw refuse(from, `${named(from)} has ${what} at character ${bad.index + 1} of ${value.length}; an API key has none (a pasted newline?)`);
  }
  return value;
}

/**
 * A duration setting, in whole milliseconds (section 8.9's `_MS` numbers): a whole number, in decimal
 * notation (`180000`, `1.8e5`). Anything else (`2.5`, `soon`, `0x10`, an empty option) is refused:
 * read as some other number it would set a deadline nobody meant.
 */
export function wholeMilliseconds(value: number | string, from: SettingSource): number {
  const number = typeof value === 'number' ? value : /^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number)) throw refuse(from, `${shown(from, value)} is not a whole number of milliseconds`);
  return number;
}

/**
 * Reads section 8.9 from `env` (default: the process's environment), with `overrides` taking
 * precedence. A value that cannot be used (see `checkApiUrl`, `checkApiKey`, `wholeMilliseconds`, and
 * a proxy URL that is not ws:// or wss://) throws `VaultSettingsError`; one the specification says to
 * ignore, raise or lower is reported in `warnings` and replaced.
 */
export function readVaultSettings(env: Env = processEnv(), overrides: SettingOverrides = {}): ReadSettings {
  const warnings: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  // Section 8.9's flags are either on unless set to `0`, or off unless set to `1`.
  const flag = (name: string, kind: 'on unless 0' | 'off unless 1'): boolean => {
    const value = text(name);
    const on = kind === 'on unless 0' ? value !== '0' : value === '1';
    if (value !== undefined && value !== '0' && value !== '1') warnings.push(`${name}=${value} is neither 0 nor 1; read as ${on ? 'on' : 'off'}`);
    return on;
  };
  const milliseconds = (variable: string, option?: { name: string; value: number | undefined }): number | undefined => {
    if (option?.value !== undefined) return wholeMilliseconds(option.value, { variable, option: option.name });
    const value = text(variable);
    return value === undefined ? undefined : wholeMilliseconds(value, { variable });
  };

  // The key is not trimmed: whitespace around it is a mistake checkApiKey reports.
  const apiKey =
    overrides.apiKey !== undefined
      ? checkApiKey(overrides.apiKey, { variable: 'VAULT_API_KEY', option: 'apiKey' })
      : checkApiKey(env.VAULT_API_KEY, { variable: 'VAULT_API_KEY' });
  const apiUrl =
    overrides.apiUrl !== undefined
      ? checkApiUrl(overrides.apiUrl, { variable: 'VAULT_API_URL', option: 'apiUrl' })
      : checkApiUrl(text('VAULT_API_URL') ?? DEFAULT_BASE_URL, { variable: 'VAULT_API_URL' });

  const configuredProxy = overrides.proxyUrl ?? text('VAULT_PROXY_URL');
  const proxyUrl = configuredProxy ?? SETTING_RULES.proxyUrlFallback;
  if (!parses(proxyUrl, ['ws:', 'wss:'])) {
    const from = overrides.proxyUrl !== undefined ? { variable: 'VAULT_PROXY_URL', option: 'proxyUrl' } : { variable: 'VAULT_PROXY_URL' };
    throw refuse(from, `${shown(from, proxyUrl)} is not a ws:// or wss:// URL`);
  }

  const tunnelValue = text('VAULT_TUNNEL');
  let tunnel: TunnelMode = 'when-possible';
  if (tunnelValue === '1') tunnel = 'required';
  else if (tunnelValue === '0') tunnel = 'never';
  else if (tunnelValue !== undefined) warnings.push(`VAULT_TUNNEL=${tunnelValue} is neither 0 nor 1; ignored (tunnel when possible)`);

  const rules = SETTING_RULES.requestTimeoutMs;
  let requestTimeoutMs = milliseconds('VAULT_REQUEST_TIMEOUT_MS', { name: 'requestTimeoutMs', value: overrides.requestTimeoutMs }) ?? rules.default;
  if (requestTimeoutMs <= 0) {
    warnings.push(`VAULT_REQUEST_TIMEOUT_MS=${requestTimeoutMs} is not positive; ignored (${rules.default} ms)`);
    requestTimeoutMs = rules.default;
  } else if (requestTimeoutMs < rules.recommendedMin) {
    warnings.push(
      `VAULT_REQUEST_TIMEOUT_MS=${requestTimeoutMs} is below ${rules.recommendedMin} ms: a call may time out while the proxy still works on it`,
    );
  }

  let actionTimeoutMs = milliseconds('VAULT_ACTION_TIMEOUT_MS') ?? null;
  if (actionTimeoutMs !== null && actionTimeoutMs <= 0) {
    warnings.push(`VAULT_ACTION_TIMEOUT_MS=${actionTimeoutMs} is not positive; ignored (no per-action bound)`);
    actionTimeoutMs = null;
  }

  const probe = SETTING_RULES.livenessProbeMs;
  let livenessProbeMs = milliseconds('VAULT_LIVENESS_PROBE_MS') ?? probe.default;
  if (livenessProbeMs < probe.min || livenessProbeMs > probe.max) {
    const bounded = Math.min(probe.max, Math.max(probe.min, livenessProbeMs));
    warnings.push(`VAULT_LIVENESS_PROBE_MS=${livenessProbeMs} is outside ${probe.min}-${probe.max}; ${bounded} used`);
    livenessProbeMs = bounded;
  }

  const production = text('NODE_ENV') === 'production';
  if (production && pointsAtLocalhost(proxyUrl)) {
    warnings.push(
      `VAULT_PROXY_URL ${configuredProxy === undefined ? `is unset, so the local development proxy ${proxyUrl} is used` : `=${proxyUrl} points at this machine`}, and NODE_ENV is production`,
    );
  }

  const settings: VaultSettings = {
    apiKey,
    apiUrl,
    proxyUrl,
    proxyUrlIsFallback: configuredProxy === undefined,
    tunnel,
    requestTimeoutMs,
    actionTimeoutMs,
    resume: flag('VAULT_RESUME', 'on unless 0'),
    residentialEgress: flag('VAULT_RESIDENTIAL_EGRESS', 'off unless 1'),
    strictApproval: flag('VAULT_STRICT_APPROVAL', 'off unless 1'),
    verifiedOutcomes: flag('VAULT_VERIFIED_OUTCOMES', 'on unless 0'),
    livenessProbeMs,
    // "Any other value keeps one address per host": no warning, every other value is meaningful.
    networkFamilyAutoselection: text('VAULT_NETWORK_FAMILY_AUTOSELECTION') === '1',
    production,
  };
  return { settings: Object.freeze(settings), warnings: Object.freeze(warnings) };
}

function parses(url: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** localhost, a *.localhost name, or a loopback address. */
export function pointsAtLocalhost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}
