import type { Face, RollFlag, RollSpec, RollState } from './types.ts';
import { bestResult } from './best-result.ts';
import { countOnes, isFace, sameFaces } from './faces.ts';
import { assertValidSpec } from './roll-spec.ts';

/**
 * Flags that reject a reading (faces, locks and fuel stay as they were).
 * `rerollAfterSingle` is the one flag that does not: see applyReading.
 */
export function isRejection(flag: RollFlag): boolean {
  return flag.type !== 'rerollAfterSingle';
}

/** Whether the reading that produced `state` was accepted. */
export function readingAccepted(state: RollState): boolean {
  return !state.flags.some(isRejection);
}

/** A roll before its first reading. Throws a RangeError if the spec is invalid (a game bug). */
export function startRoll(spec: RollSpec): RollState {
  assertValidSpec(spec);
  return {
    spec,
    faces: null,
    lockedOnes: 0,
    fuelSpent: 0,
    outOfFuel: false,
    readings: 0,
    best: bestResult([], spec.goal),
    flags: [],
    freeOnesUsed: 0,
    freeOnesShowing: 0,
  };
}

/**
 * Takes one reading of ALL dice in the tray (locked 1s included). Pure; never throws.
 *
 * Continuous roll: each newly shown 1 locks and, when `onesCostFuel`, costs 1 fuel, except the first
 * `spec.freeOnes` 1s, which stay free to re-roll: a free 1 still showing is not new (a reading is a
 * multiset, so a free 1 re-rolled to 1 again stays free; one re-rolled away is gone). A 1 the plane
 * cannot pay for ends the roll with `outOfFuel` (fuelSpent stops at fuelAvailable). Rejected
 * (state unchanged, `flags` say why): bad faces, a wrong number of dice, fewer 1s than are locked,
 * any reading after the roll ran out of fuel (`rollOver`).
 *
 * Single roll (`continuous: false`, the Yorktown attack): 1s neither lock nor cost fuel. A later
 * reading with different faces is taken as a correction of a misread and ACCEPTED, with the
 * informational flag `rerollAfterSingle` so the UI can show that the dice changed after the roll.
 *
 * `readings` counts accepted readings; a repeated identical reading only increments it.
 */
export function applyReading(state: RollState, faces: readonly unknown[]): RollState {
  if (state.outOfFuel) return { ...state, flags: [{ type: 'rollOver' }] };
  const flags: RollFlag[] = [];
  if (!Array.isArray(faces)) {
    return { ...state, flags: [{ type: 'badFace', value: faces }] };
  }
  for (const value of faces) if (!isFace(value)) flags.push({ type: 'badFace', value });
  if (faces.length !== state.spec.dice) flags.push({ type: 'wrongDiceCount', expected: state.spec.dice, seen: faces.length });
  if (flags.length > 0) return { ...state, flags };
  const read = faces as readonly Face[];
  const seenOnes = countOnes(read);
  const accepted = [...read];

  if (!state.spec.continuous) {
    if (state.faces !== null && !sameFaces(state.faces, read)) flags.push({ type: 'rerollAfterSingle' });
    return { ...state, faces: accepted, readings: state.readings + 1, best: bestResult(accepted, state.spec.goal), flags };
  }

  if (seenOnes < state.lockedOnes) {
    return { ...state, flags: [{ type: 'illegalReroll', lockedOnes: state.lockedOnes, seenOnes }] };
  }
  // 1s not locked: freed 1s not yet re-rolled, then new 1s (freed while free 1s are left)
  const unlockedOnes = seenOnes - state.lockedOnes;
  const freedBefore = Math.min(state.freeOnesShowing ?? 0, unlockedOnes);
  const fresh = unlockedOnes - freedBefore;
  const freeUsed = state.freeOnesUsed ?? 0;
  const freedNow = Math.min(fresh, Math.max(0, (state.spec.freeOnes ?? 0) - freeUsed));
  const newOnes = fresh - freedNow;
  let fuelSpent = state.fuelSpent;
  let outOfFuel = false;
  if (state.spec.onesCostFuel && newOnes > 0) {
    if (fuelSpent + newOnes > state.spec.fuelAvailable) {
      fuelSpent = Math.max(fuelSpent, state.spec.fuelAvailable);
      outOfFuel = true;
    } else {
      fuelSpent += newOnes;
    }
  }
  return {
    ...state,
    faces: accepted,
    lockedOnes: state.lockedOnes + newOnes,
    freeOnesUsed: freeUsed + freedNow,
    freeOnesShowing: freedBefore + freedNow,
    fuelSpent,
    outOfFuel,
    readings: state.readings + 1,
    best: bestResult(accepted, state.spec.goal),
    flags,
  };
}
