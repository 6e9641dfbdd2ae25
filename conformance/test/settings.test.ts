import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../runner/options.js';
import { resolveSettings } from '../runner/settings.js';

/**
 * The staging options as a QA team gives them: on the command line, in a config file with ${VAR},
 * and secrets in the environment. The TLS files and --help are in settings.e2e.test.ts.
 */

const NO_LOCAL = { VAULT_DATA_DIR: join(tmpdir(), 'no-such-vault-data') };

describe('staging options', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-settings-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const settings = (argv: string[], env: Record<string, string> = {}) => resolveSettings(parseArgs(argv), dir, { ...NO_LOCAL, ...env });
  const config = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('when the keys and the admin token are in the environment, then they are used, the admin token implies the fixtures driver, and an option wins over them', () => {
    const env = { VAULT_CONFORMANCE_KEY: 'vk_env_agent', VAULT_CONFORMANCE_SIGNUP_KEY: 'vk_env_signup', VAULT_CONFORMANCE_OTHER_ACCOUNT_KEY: 'vk_env_other', VAULT_CONFORMANCE_SCOPED_KEY: '', VAULT_ADMIN_TOKEN: 'adm_env' };
    const s = settings(['--base-url', 'https://vault.example.com', '--signup-key', 'vk_option'], env);
    expect(s.keys).toEqual({ key: 'vk_env_agent', signupKey: 'vk_option', otherAccountKey: 'vk_env_other', scopedKey: undefined });
    expect(s.driver).toEqual({ module: 'back-office', options: { 'admin-token': 'adm_env' } });
  });

  it('when the environment names a proxy, then a --base-url goes through it and the local sandbox of data/local.json does not', () => {
    const env = { HTTPS_PROXY: 'http://proxy.example.com:3128', HTTP_PROXY: 'http://proxy.example.com:3128', NO_PROXY: '.internal' };
    expect(settings(['--base-url', 'https://vault.example.com'], env).connection.proxy).toEqual({ https: 'http://proxy.example.com:3128/', http: 'http://proxy.example.com:3128/', noProxy: '.internal' });
    writeFileSync(join(dir, 'local.json'), JSON.stringify({ baseUrl: 'http://127.0.0.1:3000', adminToken: 'adm_local' }));
    const local = settings([], { ...env, VAULT_DATA_DIR: '.' });
    expect([local.local, local.connection.proxy]).toEqual([true, {}]);
  });

  it('when a config file uses ${VAR}, then each is the environment variable, $${VAR} is the text itself, and an unset or empty one is a usage error naming it', () => {
    const file = config('qa.yaml', 'baseUrl: https://${VAULT_HOST}/vault\nsignupKey: ${SIGNUP}\nheaders:\n  X-Gateway-Key: ${GATEWAY_KEY}\n  X-Note: "$${NOT_EXPANDED}"\nonly: ["${FIRST}/*"]\ncaCert: ca.pem\ninsecure: false\nwaitForReady: 30\n');
    const s = settings(['--config', file], { VAULT_HOST: 'staging.example.com', SIGNUP: 'vk_from_env', GATEWAY_KEY: 'gw-123456', FIRST: 'getRecipes' });
    expect(s.baseUrl).toBe('https://staging.example.com/vault');
    expect(s.keys.signupKey).toBe('vk_from_env');
    expect(s.only).toEqual(['getRecipes/*']);
    expect(s.waitForReadyS).toBe(30);
    expect(s.connection).toEqual({ headers: { 'X-Gateway-Key': 'gw-123456', 'X-Note': '${NOT_EXPANDED}' }, caCert: join(dir, 'ca.pem'), clientCert: undefined, clientKey: undefined, insecure: false, proxy: {} });
    expect(() => settings(['--config', file], { VAULT_HOST: 'h', SIGNUP: 's', FIRST: 'f' })).toThrow(new UsageError(`the config file ${file} uses \${GATEWAY_KEY} (in headers.X-Gateway-Key), which is not set in the environment`));
    expect(() => settings(['--config', file], { VAULT_HOST: 'h', SIGNUP: '', GATEWAY_KEY: 'g', FIRST: 'f' })).toThrow(/uses \$\{SIGNUP\} \(in signupKey\), which is not set/);
  });

  it('when --header is repeated, then every one is kept over the config file\'s; a header the cases own, one that frames the message, or a bad one is a usage error', () => {
    const file = config('headers.json', JSON.stringify({ baseUrl: 'https://vault.example.com', headers: { 'X-Tenant': 'file', 'X-Region': 'eu' } }));
    expect(settings(['--config', file, '--header', 'X-Tenant=cli', '--header', 'X-Trace=a=b']).connection.headers).toEqual({ 'X-Tenant': 'cli', 'X-Region': 'eu', 'X-Trace': 'a=b' });
    const base = ['--base-url', 'https://vault.example.com'];
    expect(() => settings([...base, '--header', 'Authorization=Bearer x'])).toThrow(/^--header Authorization: the cases set Authorization themselves, and leave it out on purpose; give the API keys with --key/);
    expect(() => settings([...base, '--header', 'Content-Type=text/plain'])).toThrow(/the cases set Content-Type themselves/);
    expect(() => settings([...base, '--header', 'Transfer-Encoding=chunked'])).toThrow('--header Transfer-Encoding: it frames the message or the connection, which the runner does itself');
    expect(() => settings([...base, '--header', 'X Bad=1'])).toThrow('--header "X Bad": not a header name (give NAME=VALUE)');
    expect(() => settings([...base, '--header', 'X-A=1\r\nX-B: 2'])).toThrow('--header X-A: its value holds a line break or another character a header cannot carry');
    // As curl takes it, too.
    expect(settings([...base, '--header', 'X-Gateway-Key: 1', '-H', 'X-Tenant: qa']).connection.headers).toEqual({ 'X-Gateway-Key': '1', 'X-Tenant': 'qa' });
    expect(() => settings([...base, '--header', 'X-Gateway-Key 1'])).toThrow(/--header needs NAME=VALUE or "Name: value"/);
  });
});

describe('a header as curl takes it', () => {
  it('when given as -H "Name: value" or --header "Name: value", then it is the same as NAME=VALUE', () => {
    expect(parseArgs(['-H', 'X-Tenant: qa']).header).toEqual({ 'X-Tenant': 'qa' });
    expect(parseArgs(['--header', 'X-Tenant:qa', '-H', 'X-Gateway-Key=k=1']).header).toEqual({ 'X-Tenant': 'qa', 'X-Gateway-Key': 'k=1' });
    expect(parseArgs(['--header', 'X-Tenant: a=b']).header).toEqual({ 'X-Tenant': 'a=b' });
    expect(() => parseArgs(['-H'])).toThrow(UsageError);
    expect(() => parseArgs(['-H', 'no separator'])).toThrow('--header needs NAME=VALUE or "Name: value", got "no separator"');
  });
});
