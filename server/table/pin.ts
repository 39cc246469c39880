/** Table PINs: generated once per table (4-6 digits), compared in constant time (their length too). */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

export function generatePin(): string {
  const digits = randomInt(4, 7);
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

const digest = (text: string) => createHash('sha256').update(text).digest();

export function pinMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  // compared as digests of one length: how long the given PIN is tells nothing either
  return timingSafeEqual(digest(expected), digest(given));
}
