/**
 * Values a case stores or sends. Stored secrets are random and long, so that finding one in a
 * response is never a coincidence; names are unique per run, so that runs on a deployment that
 * keeps its data never meet each other's.
 */

/** A small seeded generator (mulberry32): the same seed gives the same values. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  string(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

export function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const ALNUM = `${LOWER}0123456789`;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A 16-digit card number that passes the Luhn check. */
export function cardNumber(random: Random): string {
  const digits = [4, ...Array.from({ length: 14 }, () => random.int(0, 9))];
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let d = digits[14 - i]!;
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return [...digits, (10 - (sum % 10)) % 10].join('');
}

export function password(random: Random): string {
  return `Pw-${random.string(ALNUM, 20)}-Q7`;
}

export function totpSecret(random: Random): string {
  return random.string(BASE32, 32);
}

export function word(random: Random, length = 10): string {
  return random.string(LOWER, length);
}

export function alnum(random: Random, length: number): string {
  return random.string(ALNUM, length);
}
