// The client settings of specification section 8.9, read from the environment (or an injected copy of
// it). Every default, clamp and ignored value of that table is written here and nowhere else.
import { DEFAULT_BASE_URL } from './generated/document.js';

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

/** Values given in code; each overrides its environment variable. */
export interface SettingOverrides {
  apiKey?: string;
  apiUrl?: string;
  proxyUrl?: string;
  requestTimeoutMs?: number;
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

/** Reads section 8.9 from `env` (default: the process's environment), with `overrides` taking precedence. */
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
  const number = (name: string, given: number | string | undefined): number | undefined => {
    if (given === undefined) return undefined;
    const value = typeof given === 'number' ? given : /^[+-]?\d+(\.\d+)?$/.test(given) ? Number(given) : NaN;
    if (!Number.isFinite(value)) {
      warnings.push(`${name}=${given} is not a number; ignored`);
      return undefined;
    }
    return value;
  };

  const apiKey = overrides.apiKey ?? text('VAULT_API_KEY');
  const apiUrl = overrides.apiUrl ?? text('VAULT_API_URL') ?? DEFAULT_BASE_URL;
  if (!parses(apiUrl, ['http:', 'https:'])) warnings.push(`VAULT_API_URL=${apiUrl} is not an http:// or https:// URL`);

  const configuredProxy = overrides.proxyUrl ?? text('VAULT_PROXY_URL');
  const proxyUrl = configuredProxy ?? SETTING_RULES.proxyUrlFallback;
  if (!parses(proxyUrl, ['ws:', 'wss:'])) warnings.push(`VAULT_PROXY_URL=${proxyUrl} is not a ws:// or wss:// URL`);

  const tunnelValue = text('VAULT_TUNNEL');
  let tunnel: TunnelMode = 'when-possible';
  if (tunnelValue === '1') tunnel = 'required';
  else if (tunnelValue === '0') tunnel = 'never';
  else if (tunnelValue !== undefined) warnings.push(`VAULT_TUNNEL=${tunnelValue} is neither 0 nor 1; ignored (tunnel when possible)`);

  const rules = SETTING_RULES.requestTimeoutMs;
  let requestTimeoutMs = number('VAULT_REQUEST_TIMEOUT_MS', overrides.requestTimeoutMs ?? text('VAULT_REQUEST_TIMEOUT_MS')) ?? rules.default;
  if (requestTimeoutMs <= 0) {
    warnings.push(`VAULT_REQUEST_TIMEOUT_MS=${requestTimeoutMs} is not positive; ignored (${rules.default} ms)`);
    requestTimeoutMs = rules.default;
  } else if (requestTimeoutMs < rules.recommendedMin) {
    warnings.push(
      `VAULT_REQUEST_TIMEOUT_MS=${requestTimeoutMs} is below ${rules.recommendedMin} ms: a call may time out while the proxy still works on it`,
    );
  }

  let actionTimeoutMs = number('VAULT_ACTION_TIMEOUT_MS', text('VAULT_ACTION_TIMEOUT_MS')) ?? null;
  if (actionTimeoutMs !== null && actionTimeoutMs <= 0) {
    warnings.push(`VAULT_ACTION_TIMEOUT_MS=${actionTimeoutMs} is not positive; ignored (no per-action bound)`);
    actionTimeoutMs = null;
  }

  const probe = SETTING_RULES.livenessProbeMs;
  let livenessProbeMs = number('VAULT_LIVENESS_PROBE_MS', text('VAULT_LIVENESS_PROBE_MS')) ?? probe.default;
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
