import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificates {
  /** The test CA's certificate and key. */
  ca: string;
  caKey: string;
  /** A server certificate for 127.0.0.1 and localhost, signed by the CA. */
  cert: string;
  key: string;
  /** A client certificate (mutual TLS), signed by the CA. */
  clientCert: string;
  clientKey: string;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A certificate signed by the CA, with the extensions of its use. */
function issue(dir: string, name: string, subject: string, extensions: string): void {
  openssl(dir, 'req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(dir, 'x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-out', `${name}.pem`, '-extfile', `${name}.ext`);
}

/** A test CA and the certificates it signs, made with the openssl command line in `dir` (never committed). */
export function makeTestCertificates(dir: string): TestCertificates {
  openssl(dir, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=vault-conformance test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  issue(dir, 'server', '/CN=localhost', 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n');
  issue(dir, 'client', '/CN=vault-conformance test client', 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n');
  const at = (file: string) => join(dir, file);
  return { ca: at('ca.pem'), caKey: at('ca.key'), cert: at('server.pem'), key: at('server.key'), clientCert: at('client.pem'), clientKey: at('client.key') };
}
