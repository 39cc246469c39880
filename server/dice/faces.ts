import type { Face } from './types.ts';

/** Values that can form groups of equal dice: 1s never count. */
export const GROUP_VALUES: readonly Face[] = [2, 3, 4, 5, 6];

export function isFace(value: unknown): value is Face {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 6;
}

export function countOnes(faces: readonly Face[]): number {
  let ones = 0;
  for (const face of faces) if (face === 1) ones++;
  return ones;
}

/** An equal group: `count` dice showing `value` (never 1). */
export interface EqualGroup {
  value: Face;
  count: number;
}

/**
 * Groups of equal dice showing, largest first (ties: highest value first).
 * Single dice are groups of 1; 1s are never part of a group.
 */
export function equalGroups(faces: readonly Face[]): EqualGroup[] {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const face of faces) if (face !== 1) counts[face]++;
  const groups: EqualGroup[] = [];
  for (const value of GROUP_VALUES) if (counts[value] > 0) groups.push({ value, count: counts[value] });
  return groups.sort((a, b) => b.count - a.count || b.value - a.value);
}

/** Same dice regardless of the order they were read in. */
export function sameFaces(a: readonly Face[], b: readonly Face[]): boolean {
  if (a.length !== b.length) return false;
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const face of a) counts[face]++;
  for (const face of b) counts[face]--;
  return counts.every((c) => c === 0);
}

/** The dice a player may still pick up: the faces less the roll's `locked` 1s (those that are there). */
export function withoutLockedOnes(faces: readonly number[], locked: number): number[] {
  const free = [...faces];
  for (let i = 0; i < locked; i++) {
    const one = free.indexOf(1);
    if (one < 0) break;
    free.splice(one, 1);
  }
  return free;
}

/** The faces of `wanted` that `showing` holds, each die of `showing` used once, in `wanted`'s order. */
export function facesAmong(wanted: readonly number[], showing: readonly number[]): number[] {
  const left = [...showing];
  return wanted.filter((f) => {
    const at = left.indexOf(f);
    if (at < 0) return false;
    left.splice(at, 1);
    return true;
  });
}
