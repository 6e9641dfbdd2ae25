import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class MissingMasterKeyError extends Error {}

/**
 * The master key: VAULT_MASTER_KEY (32 bytes as 64 hex digits or base64), or a key file created
 * with mode 0600 in the data directory on first start. `existingData` names a database that was
 * already written with a key: then a missing key is an error, never a new key, since a new key
 * could only fail to decrypt that data and would leave a file behind that was never the key.
 */
export function loadMasterKey(env: NodeJS.ProcessEnv, dataDir: string, existingData?: string): Buffer {
  const fromEnv = env.VAULT_MASTER_KEY;
  if (fromEnv) return decode(fromEnv, 'VAULT_MASTER_KEY');
  const file = join(dataDir, 'master.key');
  if (existsSync(file)) return decode(readFileSync(file, 'utf8').trim(), file);
  if (existingData !== undefined) {
    throw new MissingMasterKeyError(
      `the master key is missing: ${file} does not exist and VAULT_MASTER_KEY is not set, but the database ${existingData} was written with a key; restore the key file or set VAULT_MASTER_KEY`,
    );
  }
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

function decode(text: string, source: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error(`${source} must hold 32 bytes (64 hex digits or base64)`);
  return key;
}
