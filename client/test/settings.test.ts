// Section 8.9, table by table: each variable's default, each clamp, each ignored value, and the
// warnings; then every value that cannot be used, refused by readVaultSettings, createVaultClient and
// a call alike, with one rule each. The environment is injected; process.env is never touched.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createVaultClient,
  DEFAULT_BASE_URL,
  readVaultSettings,
  SETTING_RULES,
  VaultError,
  VaultSettingsError,
  type Env,
  type VaultClientOptions,
  type VaultSettings,
} from '../index.js';
import { clientFor } from './support/clients.js';
import { EMPTY_CATALOG, json, startTinyServer, type TinyServer } from './support/tiny-server.js';

type Case = [description: string, env: Env, expected: Partial<VaultSettings>, warning?: RegExp];

const cases: Case[] = [
  // VAULT_API_KEY
  ['VAULT_API_KEY unset', {}, { apiKey: undefined }],
  ['VAULT_API_KEY set', { VAULT_API_KEY: 'vk_1' }, { apiKey: 'vk_1' }],
  ['VAULT_API_KEY empty', { VAULT_API_KEY: '' }, { apiKey: undefined }],
  // VAULT_API_URL
  ['VAULT_API_URL unset', {}, { apiUrl: DEFAULT_BASE_URL }],
  ['VAULT_API_URL set', { VAULT_API_URL: 'https://vault.example' }, { apiUrl: 'https://vault.example' }],
  ['VAULT_API_URL with a trailing slash', { VAULT_API_URL: 'https://gw.example/vault/' }, { apiUrl: 'https://gw.example/vault' }],
  // VAULT_PROXY_URL
  ['VAULT_PROXY_URL unset', {}, { proxyUrl: 'ws://localhost:4000/v1', proxyUrlIsFallback: true }],
  ['VAULT_PROXY_URL set', { VAULT_PROXY_URL: 'wss://proxy.example/v1' }, { proxyUrl: 'wss://proxy.example/v1', proxyUrlIsFallback: false }],
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
  ['VAULT_REQUEST_TIMEOUT_MS=1.8e5', { VAULT_REQUEST_TIMEOUT_MS: '1.8e5' }, { requestTimeoutMs: 180_000 }],
  ['VAULT_REQUEST_TIMEOUT_MS=1e3', { VAULT_REQUEST_TIMEOUT_MS: '1e3' }, { requestTimeoutMs: 1_000 }, /=1000 is below 150000 ms/],
  // VAULT_ACTION_TIMEOUT_MS
  ['VAULT_ACTION_TIMEOUT_MS unset', {}, { actionTimeoutMs: null }],
  ['VAULT_ACTION_TIMEOUT_MS=5000', { VAULT_ACTION_TIMEOUT_MS: '5000' }, { actionTimeoutMs: 5_000 }],
  ['VAULT_ACTION_TIMEOUT_MS=0', { VAULT_ACTION_TIMEOUT_MS: '0' }, { actionTimeoutMs: null }, /VAULT_ACTION_TIMEOUT_MS=0 is not positive; ignored/],
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

/** The VaultSettingsError `act` throws; fails the test when it throws anything else, or nothing. */
function refusal(act: () => unknown): VaultSettingsError {
  let thrown: unknown;
  try {
    act();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(VaultSettingsError);
  expect(thrown).toBeInstanceOf(VaultError);
  expect(thrown).toMatchObject({ name: 'VaultSettingsError', code: null, operationId: undefined, requestId: undefined });
  return thrown as VaultSettingsError;
}

// [case, variable, value, what the message says]: each refused whether it comes from the environment
// or from the option that overrides it.
type Refused = [description: string, variable: string, option: keyof VaultClientOptions, value: string, message: RegExp];
const refused: Refused[] = [
  ['a URL without a scheme', 'VAULT_API_URL', 'apiUrl', 'vault.example', /is not a URL: give the API's base URL/],
  ['an ftp URL', 'VAULT_API_URL', 'apiUrl', 'ftp://vault.example', /is not an http:\/\/ or https:\/\/ URL/],
  ['a URL with a query', 'VAULT_API_URL', 'apiUrl', 'https://vault.example/?region=eu', /has a query or a fragment/],
  ['a URL with a fragment', 'VAULT_API_URL', 'apiUrl', 'https://vault.example/#v1', /has a query or a fragment/],
  ['a URL ending in /v1', 'VAULT_API_URL', 'apiUrl', 'https://vault.example/v1', /ends in the version segment \/v1; give the base URL without it \(https:\/\/vault\.example\): the client adds \/v1/],
  ['a URL ending in /v1/', 'VAULT_API_URL', 'apiUrl', 'https://gw.example/vault/v1/', /ends in the version segment \/v1; give the base URL without it \(https:\/\/gw\.example\/vault\)/],
  ['a proxy URL that is not ws://', 'VAULT_PROXY_URL', 'proxyUrl', 'https://proxy.example/v1', /is not a ws:\/\/ or wss:\/\/ URL/],
  ['a key with a trailing newline', 'VAULT_API_KEY', 'apiKey', 'vk_live_1\n', /has whitespace at character 10 of 10; an API key has none/],
  ['a key with a space', 'VAULT_API_KEY', 'apiKey', 'vk live', /has whitespace at character 3/],
  ['a key only of spaces', 'VAULT_API_KEY', 'apiKey', '   ', /has whitespace at character 1/],
  ['a key with a character a header cannot carry', 'VAULT_API_KEY', 'apiKey', 'vk_clé', /has a character an HTTP header cannot carry at character 6/],
];

describe('settings that cannot be used', () => {
  it.each(refused)('when %s is given, then readVaultSettings and createVaultClient refuse it, from the environment or the option', (_d, variable, option, value, message) => {
    for (const act of [
      () => readVaultSettings({ [variable]: value }),
      () => createVaultClient({ env: { [variable]: value } }),
      () => createVaultClient({ env: {}, [option]: value }),
    ]) {
      const error = refusal(act);
      expect(error.variable).toBe(variable);
      expect(error.message).toMatch(message);
    }
    // The option is named as such, so the message points at the line to fix.
    expect(refusal(() => createVaultClient({ env: {}, [option]: value })).message).toContain(`${option}`);
  });

  it('when a key is refused, then the message never quotes it', () => {
    for (const key of ['vk_secret_value\n', 'vk secret']) {
      expect(refusal(() => readVaultSettings({ VAULT_API_KEY: key })).message).not.toContain('secret');
      expect(refusal(() => createVaultClient({ env: {}, apiKey: key })).message).not.toContain('secret');
    }
  });

  it('when a URL carries credentials, then it is refused without being quoted', () => {
    const error = refusal(() => createVaultClient({ env: { VAULT_API_URL: 'https://agent:hunter2@vault.example' } }));
    expect(error.message).toBe('VAULT_API_URL carries credentials; send the API key as VAULT_API_KEY');
  });

  it.each([
    ['VAULT_REQUEST_TIMEOUT_MS', '2.5'],
    ['VAULT_REQUEST_TIMEOUT_MS', 'soon'],
    ['VAULT_REQUEST_TIMEOUT_MS', '0x10'],
    ['VAULT_REQUEST_TIMEOUT_MS', '180000ms'],
    ['VAULT_ACTION_TIMEOUT_MS', 'abc'],
    ['VAULT_ACTION_TIMEOUT_MS', '0.5'],
    ['VAULT_LIVENESS_PROBE_MS', 'often'],
    ['VAULT_LIVENESS_PROBE_MS', '1e-3'],
  ])('when %s=%s, which is not a whole number of milliseconds, then it is refused', (variable, value) => {
    for (const act of [() => readVaultSettings({ [variable]: value }), () => createVaultClient({ env: { [variable]: value } })]) {
      const error = refusal(act);
      expect(error.variable).toBe(variable);
      expect(error.message).toBe(`${variable}=${value} is not a whole number of milliseconds`);
    }
  });

  it('when requestTimeoutMs is not a whole number, then createVaultClient refuses it by the same rule', () => {
    for (const value of [2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = refusal(() => createVaultClient({ env: {}, requestTimeoutMs: value }));
      expect(error).toMatchObject({ variable: 'VAULT_REQUEST_TIMEOUT_MS', message: `requestTimeoutMs ${JSON.stringify(value)} is not a whole number of milliseconds` });
    }
  });
});

describe("a call's own settings", () => {
  let server: TinyServer;
  afterEach(() => server?.close());

  it("when a call's timeoutMs or apiKey cannot be used, then it is refused before any request, by the rules of the client's settings", async () => {
    server = await startTinyServer((_req, res) => json(res, 200, EMPTY_CATALOG));
    const vault = clientFor(server, 'vk_test');
    for (const [options, message] of [
      [{ timeoutMs: 2.5 }, 'timeoutMs 2.5 is not a whole number of milliseconds'],
      [{ timeoutMs: 0 }, 'timeoutMs 0 is not positive'],
      [{ apiKey: 'vk test' }, 'the apiKey option has whitespace at character 3 of 7; an API key has none (a pasted newline?)'],
    ] as const) {
      const error = await vault.getTokenCatalog(undefined, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VaultSettingsError);
      expect(error).toMatchObject({ message, operationId: 'getTokenCatalog' });
    }
    expect(server.seen).toHaveLength(0);
    await vault.getTokenCatalog(undefined, { timeoutMs: 5_000 });
    expect(server.seen).toHaveLength(1);
  });
});
