/** Table PINs: generated once per table (4-6 digits), compared in constant time. */
import { randomInt, timingSafeEqual } from 'node:crypto';

export function generatePin(): string {
  const digits = randomInt(4, 7);
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

export function pinMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
