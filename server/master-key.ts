import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The master key: VAULT_MASTER_KEY (32 bytes as 64 hex digits or base64), or a key file created
 * with mode 0600 in the data directory on first start.
 */
export function loadMasterKey(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  const fromEnv = env.VAULT_MASTER_KEY;
  if (fromEnv) return decode(fromEnv, 'VAULT_MASTER_KEY');
  const file = join(dataDir, 'master.key');
  if (existsSync(file)) return decode(readFileSync(file, 'utf8').trim(), file);
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
