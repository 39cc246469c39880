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
  };
}

/**
 * Takes one reading of ALL dice in the tray (locked 1s included). Pure; never throws.
 *
 * Continuous roll: each newly shown 1 locks and, when `onesCostFuel`, costs 1 fuel; a 1 the plane
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
  const newOnes = seenOnes - state.lockedOnes;
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
    lockedOnes: seenOnes,
    fuelSpent,
    outOfFuel,
    readings: state.readings + 1,
    best: bestResult(accepted, state.spec.goal),
    flags,
  };
}
