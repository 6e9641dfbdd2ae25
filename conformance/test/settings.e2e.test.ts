import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../runner/options.js';
import { Connection, DIRECT } from '../runner/http.js';
import { makeTestCertificates, type TestCertificates } from './support/certs.js';
import { ROOT } from './support/processes.js';

/** The staging options that need a process: TLS files made by the openssl command line, and the runner's --help. */

describe('staging options', () => {
  let dir: string;
  let certs: TestCertificates;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-settings-'));
    certs = makeTestCertificates(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when the TLS files are wrong, then the run stops before any request with a usage error that names the file', () => {
    const tls = (over: Partial<typeof DIRECT>) => () => new Connection({ ...DIRECT, ...over });
    const missing = join(dir, 'missing.pem');
    expect(tls({ caCert: missing })).toThrow(new UsageError(`--ca-cert ${missing}: cannot read it (ENOENT)`));
    expect(tls({ caCert: certs.key })).toThrow(`--ca-cert ${certs.key}: no PEM certificate in it`);
    expect(tls({ clientKey: certs.clientKey })).toThrow('--client-key needs --client-cert');
    expect(tls({ clientCert: certs.clientCert })).toThrow('--client-cert needs --client-key (or a file that holds both)');
    expect(tls({ clientCert: certs.clientCert, clientKey: certs.key })).toThrow(/^--client-cert and --client-key do not go together: .*key values mismatch/);
    const both = join(dir, 'client-both.pem');
    writeFileSync(both, `${readFileSync(certs.clientCert, 'utf8')}${readFileSync(certs.clientKey, 'utf8')}`);
    expect(tls({ clientCert: both, caCert: certs.ca })).not.toThrow();
  });

  it('when --help is asked for, then it names the connection options and the environment variables', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'conformance', 'bin.ts'), '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(0);
    for (const text of ['--header NAME=VALUE', '--ca-cert FILE', '--client-cert FILE', '--client-key FILE', '--insecure', '--wait-for-ready S', 'VAULT_CONFORMANCE_KEY', 'VAULT_CONFORMANCE_SIGNUP_KEY', 'VAULT_CONFORMANCE_OTHER_ACCOUNT_KEY', 'VAULT_CONFORMANCE_SCOPED_KEY', 'VAULT_ADMIN_TOKEN', 'HTTPS_PROXY, HTTP_PROXY', 'NO_PROXY']) {
      expect(run.stdout).toContain(text);
    }
  });
});
