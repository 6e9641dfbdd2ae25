// Section 8.9, table by table: each variable's default, each clamp, each ignored value, and the
// warnings. The environment is injected; process.env is never touched.
import { describe, expect, it } from 'vitest';
import { createVaultClient, DEFAULT_BASE_URL, readVaultSettings, SETTING_RULES, type Env, type VaultSettings } from '../index.js';

type Case = [description: string, env: Env, expected: Partial<VaultSettings>, warning?: RegExp];

const cases: Case[] = [
  // VAULT_API_KEY
  ['VAULT_API_KEY unset', {}, { apiKey: undefined }],
  ['VAULT_API_KEY set', { VAULT_API_KEY: 'vk_1' }, { apiKey: 'vk_1' }],
  ['VAULT_API_KEY empty', { VAULT_API_KEY: '' }, { apiKey: undefined }],
  // VAULT_API_URL
  ['VAULT_API_URL unset', {}, { apiUrl: DEFAULT_BASE_URL }],
  ['VAULT_API_URL set', { VAULT_API_URL: 'https://vault.example' }, { apiUrl: 'https://vault.example' }],
  ['VAULT_API_URL not a URL', { VAULT_API_URL: 'vault.example' }, { apiUrl: 'vault.example' }, /VAULT_API_URL=vault.example is not an http/],
  // VAULT_PROXY_URL
  ['VAULT_PROXY_URL unset', {}, { proxyUrl: 'ws://localhost:4000/v1', proxyUrlIsFallback: true }],
  ['VAULT_PROXY_URL set', { VAULT_PROXY_URL: 'wss://proxy.example/v1' }, { proxyUrl: 'wss://proxy.example/v1', proxyUrlIsFallback: false }],
  ['VAULT_PROXY_URL with another scheme', { VAULT_PROXY_URL: 'https://proxy.example/v1' }, { proxyUrl: 'https://proxy.example/v1' }, /not a ws:\/\/ or wss:\/\//],
  // VAULT_TUNNEL
  ['VAULT_TUNNEL unset', {}, { tunnel: 'when-possible' }],
  ['VAULT_TUNNEL=1', { VAULT_TUNNEL: '1' }, { tunnel: 'required' }],
  ['VAULT_TUNNEL=0', { VAULT_TUNNEL: '0' }, { tunnel: 'never' }],
  ['VAULT_TUNNEL=yes', { VAULT_TUNNEL: 'yes' }, { tunnel: 'when-possible' }, /VAULT_TUNNEL=yes is neither 0 nor 1; ignored/],
  // VAULT_REQUEST_TIMEOUT_MS
  ['VAULT_REQUEST_TIMEOUT_MS unset', {}, { requestTimeoutMs: 180_000 }],
  ['VAULT_REQUEST_TIMEOUT_MS=200000', { VAULT_REQUEST_TIMEOUT_MS: '200000' }, { requestTimeoutMs: 200_000 }],
  ['VAULT_REQUEST_TIMEOUT_MS=150000', { VAULT_REQUEST_TIMEOUT_MS: '150000' }, { requestTimeoutMs: 150_000 }],
  ['VAULT_REQUEST_TIMEOUT_MS=149999', { VAULT_REQUEST_TIMEOUT_MS: '149999' }, { requestTimeoutMs: 149_999 }, /is below 150000 ms/],
  ['VAULT_REQUEST_TIMEOUT_MS=0', { VAULT_REQUEST_TIMEOUT_MS: '0' }, { requestTimeoutMs: 180_000 }, /=0 is not positive; ignored/],
  ['VAULT_REQUEST_TIMEOUT_MS=-5', { VAULT_REQUEST_TIMEOUT_MS: '-5' }, { requestTimeoutMs: 180_000 }, /=-5 is not positive; ignored/],
  ['VAULT_REQUEST_TIMEOUT_MS=soon', { VAULT_REQUEST_TIMEOUT_MS: 'soon' }, { requestTimeoutMs: 180_000 }, /=soon is not a number; ignored/],
  // VAULT_ACTION_TIMEOUT_MS
  ['VAULT_ACTION_TIMEOUT_MS unset', {}, { actionTimeoutMs: null }],
  ['VAULT_ACTION_TIMEOUT_MS=5000', { VAULT_ACTION_TIMEOUT_MS: '5000' }, { actionTimeoutMs: 5_000 }],
  ['VAULT_ACTION_TIMEOUT_MS=0', { VAULT_ACTION_TIMEOUT_MS: '0' }, { actionTimeoutMs: null }, /VAULT_ACTION_TIMEOUT_MS=0 is not positive; ignored/],
  ['VAULT_ACTION_TIMEOUT_MS=abc', { VAULT_ACTION_TIMEOUT_MS: 'abc' }, { actionTimeoutMs: null }, /VAULT_ACTION_TIMEOUT_MS=abc is not a number/],
  // VAULT_RESUME
  ['VAULT_RESUME unset', {}, { resume: true }],
  ['VAULT_RESUME=0', { VAULT_RESUME: '0' }, { resume: false }],
  ['VAULT_RESUME=1', { VAULT_RESUME: '1' }, { resume: true }],
  ['VAULT_RESUME=false', { VAULT_RESUME: 'false' }, { resume: true }, /VAULT_RESUME=false is neither 0 nor 1; read as on/],
  // VAULT_RESIDENTIAL_EGRESS
  ['VAULT_RESIDENTIAL_EGRESS unset', {}, { residentialEgress: false }],
  ['VAULT_RESIDENTIAL_EGRESS=1', { VAULT_RESIDENTIAL_EGRESS: '1' }, { residentialEgress: true }],
  ['VAULT_RESIDENTIAL_EGRESS=true', { VAULT_RESIDENTIAL_EGRESS: 'true' }, { residentialEgress: false }, /read as off/],
  // VAULT_STRICT_APPROVAL
  ['VAULT_STRICT_APPROVAL unset', {}, { strictApproval: false }],
  ['VAULT_STRICT_APPROVAL=1', { VAULT_STRICT_APPROVAL: '1' }, { strictApproval: true }],
  ['VAULT_STRICT_APPROVAL=0', { VAULT_STRICT_APPROVAL: '0' }, { strictApproval: false }],
  // VAULT_VERIFIED_OUTCOMES
  ['VAULT_VERIFIED_OUTCOMES unset', {}, { verifiedOutcomes: true }],
  ['VAULT_VERIFIED_OUTCOMES=0', { VAULT_VERIFIED_OUTCOMES: '0' }, { verifiedOutcomes: false }],
  // VAULT_LIVENESS_PROBE_MS
  ['VAULT_LIVENESS_PROBE_MS unset', {}, { livenessProbeMs: 30_000 }],
  ['VAULT_LIVENESS_PROBE_MS=1000', { VAULT_LIVENESS_PROBE_MS: '1000' }, { livenessProbeMs: 1_000 }],
  ['VAULT_LIVENESS_PROBE_MS=999', { VAULT_LIVENESS_PROBE_MS: '999' }, { livenessProbeMs: 1_000 }, /=999 is outside 1000-3900000; 1000 used/],
  ['VAULT_LIVENESS_PROBE_MS=0', { VAULT_LIVENESS_PROBE_MS: '0' }, { livenessProbeMs: 1_000 }, /1000 used/],
  ['VAULT_LIVENESS_PROBE_MS=3900000', { VAULT_LIVENESS_PROBE_MS: '3900000' }, { livenessProbeMs: 3_900_000 }],
  ['VAULT_LIVENESS_PROBE_MS=3900001', { VAULT_LIVENESS_PROBE_MS: '3900001' }, { livenessProbeMs: 3_900_000 }, /3900000 used/],
  ['VAULT_LIVENESS_PROBE_MS=often', { VAULT_LIVENESS_PROBE_MS: 'often' }, { livenessProbeMs: 30_000 }, /=often is not a number; ignored/],
  // VAULT_NETWORK_FAMILY_AUTOSELECTION
  ['VAULT_NETWORK_FAMILY_AUTOSELECTION unset', {}, { networkFamilyAutoselection: false }],
  ['VAULT_NETWORK_FAMILY_AUTOSELECTION=1', { VAULT_NETWORK_FAMILY_AUTOSELECTION: '1' }, { networkFamilyAutoselection: true }],
  ['VAULT_NETWORK_FAMILY_AUTOSELECTION=true', { VAULT_NETWORK_FAMILY_AUTOSELECTION: 'true' }, { networkFamilyAutoselection: false }],
  // NODE_ENV with a proxy on this machine
  ['NODE_ENV=production, proxy unset', { NODE_ENV: 'production' }, { production: true }, /VAULT_PROXY_URL is unset, so the local development proxy ws:\/\/localhost:4000\/v1 is used, and NODE_ENV is production/],
  ['NODE_ENV=production, proxy on 127.0.0.1', { NODE_ENV: 'production', VAULT_PROXY_URL: 'ws://127.0.0.1:4000/v1' }, { production: true }, /=ws:\/\/127.0.0.1:4000\/v1 points at this machine/],
  ['NODE_ENV=production, proxy on [::1]', { NODE_ENV: 'production', VAULT_PROXY_URL: 'ws://[::1]:4000/v1' }, { production: true }, /points at this machine/],
  ['NODE_ENV=production, remote proxy', { NODE_ENV: 'production', VAULT_PROXY_URL: 'wss://proxy.example/v1' }, { production: true }],
  ['NODE_ENV=development, proxy unset', { NODE_ENV: 'development' }, { production: false }],
];

describe('readVaultSettings', () => {
  it.each(cases)('when %s, then the settings and warnings follow section 8.9', (_description, env, expected, warning) => {
    const { settings, warnings } = readVaultSettings(env);
    expect(settings).toMatchObject(expected);
    if (warning) expect(warnings).toEqual([expect.stringMatching(warning)]);
    else expect(warnings).toEqual([]);
  });

  it('when read, then the settings object is frozen', () => {
    const { settings, warnings } = readVaultSettings({});
    expect(Object.isFrozen(settings)).toBe(true);
    expect(Object.isFrozen(warnings)).toBe(true);
    expect(Object.isFrozen(SETTING_RULES)).toBe(true);
  });

  it('when overrides are given, then each takes precedence over its variable and is checked the same way', () => {
    const env = { VAULT_API_KEY: 'vk_env', VAULT_API_URL: 'https://env.example', VAULT_PROXY_URL: 'wss://env.example/v1', VAULT_REQUEST_TIMEOUT_MS: '200000' };
    const { settings, warnings } = readVaultSettings(env, {
      apiKey: 'vk_option',
      apiUrl: 'https://option.example',
      proxyUrl: 'wss://option.example/v1',
      requestTimeoutMs: -1,
    });
    expect(settings).toMatchObject({ apiKey: 'vk_option', apiUrl: 'https://option.example', proxyUrl: 'wss://option.example/v1', requestTimeoutMs: 180_000 });
    expect(warnings).toEqual([expect.stringMatching(/VAULT_REQUEST_TIMEOUT_MS=-1 is not positive; ignored/)]);
  });
});

describe('createVaultClient settings', () => {
  it('when options and an injected environment are given, then options win and each warning reaches onWarning once', () => {
    const warnings: string[] = [];
    const vault = createVaultClient({
      env: { VAULT_API_KEY: 'vk_env', VAULT_REQUEST_TIMEOUT_MS: '200000', NODE_ENV: 'production' },
      apiKey: 'vk_option',
      requestTimeoutMs: 60_000,
      onWarning: (w) => warnings.push(w),
    });
    expect(vault.settings).toMatchObject({ apiKey: 'vk_option', requestTimeoutMs: 60_000, apiUrl: DEFAULT_BASE_URL });
    expect(warnings).toEqual([expect.stringMatching(/VAULT_REQUEST_TIMEOUT_MS=60000 is below 150000/), expect.stringMatching(/NODE_ENV is production/)]);
  });

  it('when no env is injected, then the process environment is read', () => {
    const { settings } = readVaultSettings();
    expect(settings.apiKey).toBe(process.env.VAULT_API_KEY?.trim() || undefined);
  });
});
