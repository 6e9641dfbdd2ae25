import { randomBytes } from './random.js';

/** Random identifiers with a readable prefix; 128 bits, so they cannot be guessed or enumerated. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('hex')}`;
}
