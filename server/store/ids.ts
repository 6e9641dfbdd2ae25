import { randomBytes } from './random.js';

/** Random identifiers with a readable prefix; 128 bits, so they cannot be guessed or enumerated. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('hex')}`;
}

/**
 * As newId, after the time of `now` (timePrefix): rows filed together then sort together,
 * and share the last page of the id's index instead of each writing a page of its own.
 */
export function newTimedId(prefix: string, now: number): string {
  return `${prefix}_${timePrefix(now)}${randomBytes(16).toString('hex')}`;
}

/** The hex digits of milliseconds a timed id or token begins with. */
export const TIME_DIGITS = 12;

/** `now` as TIME_DIGITS hex digits of milliseconds, the order of the times it is given. */
export function timePrefix(now: number): string {
  return Math.max(0, Math.trunc(now)).toString(16).padStart(TIME_DIGITS, '0');
}
