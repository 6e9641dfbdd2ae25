import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { randomBytes } from './random.js';
import type Database from 'better-sqlite3';
import { stmt, type Db } from './db.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 1;
const CHECK_PLAINTEXT = 'credential-vault key check';

export class WrongMasterKeyError extends Error {
  constructor() {
    super('the master key does not decrypt this database (VAULT_MASTER_KEY or the key file differs from the one it was written with)');
  }
}

/** AES-256-GCM under the master key. Blob layout: version (1 byte) | IV (12) | tag (16) | ciphertext. */
export class Sealer {
  /** A key of its own for tags (HKDF of the master key), so a tag never reuses the sealing key. */
  private readonly tagKey: Buffer;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the master key must be 32 bytes');
    this.tagKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'credential-vault tags', 32));
  }

  /** HMAC-SHA256 of `purpose` and `data` under the tag key: proves the server issued the data. */
  tag(purpose: string, data: string): Buffer {
    return createHmac('sha256', this.tagKey).update(purpose).update('\0').update(data).digest();
  }

  seal(plain: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  }

  open(blob: Uint8Array): string {
    const buf = Buffer.from(blob);
    if (buf[0] !== VERSION) throw new WrongMasterKeyError();
    const iv = buf.subarray(1, 1 + IV_BYTES);
    const tag = buf.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(buf.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new WrongMasterKeyError();
    }
  }

  sealOptional(plain: string | null | undefined): Buffer | null {
    return plain === null || plain === undefined || plain === '' ? null : this.seal(plain);
  }

  openOptional(blob: Uint8Array | null): string | null {
    return blob === null ? null : this.open(blob);
  }
}

/**
 * Proves at start-up that the key is the one the database was written with, so a wrong key
 * fails with one clear message instead of corrupting data or failing on the first read.
 */
export async function verifyMasterKey(db: Db, sealer: Sealer): Promise<void> {
  const row = (await stmt(db, KEY_CHECK_READ).get('key_check')) as { value: Buffer } | undefined;
  const missing = keyCheck(row?.value, sealer);
  if (missing) await stmt(db, KEY_CHECK_WRITE).run('key_check', missing);
}

/** As verifyMasterKey, on a better-sqlite3 connection before its migrations (server/main.ts). */
export function verifyMasterKeyNow(db: Database.Database, sealer: Sealer): void {
  const row = db.prepare(KEY_CHECK_READ).get('key_check') as { value: Buffer } | undefined;
  const missing = keyCheck(row?.value, sealer);
  if (missing) db.prepare(KEY_CHECK_WRITE).run('key_check', missing);
}

const KEY_CHECK_READ = 'SELECT value FROM meta WHERE key = ?';
const KEY_CHECK_WRITE = 'INSERT INTO meta (key, value) VALUES (?, ?)';

/** The check to store when there is none yet; throws when the stored one was sealed under another key. */
function keyCheck(stored: Buffer | undefined, sealer: Sealer): Buffer | undefined {
  if (!stored) return sealer.seal(CHECK_PLAINTEXT);
  if (sealer.open(stored) !== CHECK_PLAINTEXT) throw new WrongMasterKeyError();
  return undefined;
}
