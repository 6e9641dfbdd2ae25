import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { UsageError } from './options.js';

/** The TLS files of a run: a CA to trust (in place of the system's, as curl's --cacert), a client certificate and key (mTLS), or no verification. */
export interface TlsSettings {
  caCert?: string;
  clientCert?: string;
  clientKey?: string;
  insecure: boolean;
}

function read(file: string, option: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${option} ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Reads and checks the files once, before any request, so a wrong path or a key that is not the certificate's is a usage error. */
export function tlsOptions(settings: TlsSettings): SecureContextOptions & { rejectUnauthorized: boolean } {
  const options: SecureContextOptions & { rejectUnauthorized: boolean } = { rejectUnauthorized: !settings.insecure };
  if (settings.caCert) {
    const ca = read(settings.caCert, '--ca-cert');
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`--ca-cert ${settings.caCert}: no PEM certificate in it`);
    try {
      createSecureContext({ ca });
    } catch (e) {
      throw new UsageError(`--ca-cert ${settings.caCert}: ${(e as Error).message}`);
    }
    options.ca = ca;
  }
  if (settings.clientKey && !settings.clientCert) throw new UsageError('--client-key needs --client-cert');
  if (settings.clientCert) {
    const cert = read(settings.clientCert, '--client-cert');
    const key = settings.clientKey ? read(settings.clientKey, '--client-key') : cert;
    if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) {
      throw new UsageError(settings.clientKey ? `--client-key ${settings.clientKey}: no PEM private key in it` : '--client-cert needs --client-key (or a file that holds both)');
    }
    try {
      createSecureContext({ cert, key });
    } catch (e) {
      throw new UsageError(`--client-cert and --client-key do not go together: ${(e as Error).message}`);
    }
    options.cert = cert;
    options.key = key;
  }
  return options;
}

const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** What to do about a TLS failure, in a few words; undefined when it is not one. */
export function tlsHint(code: string | undefined, settings: TlsSettings): string | undefined {
  if (!code) return undefined;
  if (UNTRUSTED.has(code)) return `the deployment's certificate is not trusted (${code}): give its CA with --ca-cert FILE${settings.caCert ? ' (the one given did not sign it)' : ''}, or --insecure for a sandbox`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return `the deployment's certificate is not valid now (${code})`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `the deployment's certificate does not name this host (${code})`;
  if (/CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|UNKNOWN_CA/.test(code)) {
    return settings.clientCert
      ? `the deployment refused the client certificate of --client-cert (${code})`
      : `the deployment asks for a client certificate (${code}): give --client-cert FILE and --client-key FILE`;
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'EPROTO') return `no TLS answer (${code}): is the deployment served over https at this port?`;
  return undefined;
}
