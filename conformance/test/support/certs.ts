import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** File paths of a test CA, a server certificate it signed for 127.0.0.1, and a client certificate it signed. */
export interface TestCertificates {
  ca: string;
  caKey: string;
  cert: string;
  key: string;
  clientCert: string;
  clientKey: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A P-256 key and a certificate signed by the CA, with the extensions of `ext` (openssl's `-extfile` format). */
function signed(dir: string, name: string, subject: string, ext: string): void {
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(dir, ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  openssl(dir, [
    'x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', `0x${randomBytes(8).toString('hex')}`,
    '-days', '2', '-sha256', '-extfile', `${name}.ext`, '-out', `${name}.pem`,
  ]);
}

/**
 * Certificates made at test time with the `openssl` command, never committed: a CA, a server
 * certificate for 127.0.0.1 and localhost, and a client certificate, each valid for two days.
 */
export function makeTestCertificates(dir: string): TestCertificates {
  openssl(dir, [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem',
    '-days', '2', '-sha256', '-subj', '/CN=Credential Vault Test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  signed(dir, 'server', '/CN=127.0.0.1', 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n');
  signed(dir, 'client', '/CN=conformance runner', 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n');
  return {
    ca: join(dir, 'ca.pem'),
    caKey: join(dir, 'ca.key'),
    cert: join(dir, 'server.pem'),
    key: join(dir, 'server.key'),
    clientCert: join(dir, 'client.pem'),
    clientKey: join(dir, 'client.key'),
  };
}
