/**
 * The dice players keep out of a simulated re-roll (the synthetic camera), as faces: which of the dice
 * showing they still are, and how a kept pick follows a new throw.
 */
import { facesAmong } from './faces.ts';

/** A pick of faces kept, made when the roll had `readings` readings. */
export interface KeepPick {
  faces: number[];
  readings: number;
}

/** The faces of a pick that the free dice showing (locked 1s left out) still hold, sorted. */
export function keptAmong(pick: readonly number[], free: readonly number[]): number[] {
  return facesAmong(pick, free).sort((a, b) => a - b);
}

/**
 * The pick after the dice were read again: unchanged for the same reading; after a new throw, every free
 * die showing a face kept joins them, as a player at the table leaves a new 2 beside the 2s kept.
 */
export function followPick(pick: KeepPick, free: readonly number[], readings: number): KeepPick {
  if (pick.readings === readings) return pick;
  const kept = new Set(pick.faces);
  return { faces: free.filter((f) => kept.has(f)).sort((a, b) => a - b), readings };
}
