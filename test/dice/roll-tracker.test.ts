import { describe, expect, it } from 'vitest';
import { applyReading, readingAccepted, startRoll } from '../../server/dice/roll-tracker.ts';
import type { RollGoal, RollSpec, RollState } from '../../server/dice/types.ts';

const search: RollGoal = { kind: 'tiers', tiers: [{ id: 'plus1', equal: 2 }, { id: 'plus2', equal: 3 }] };
const landing: RollGoal = { kind: 'tiers', tiers: [{ id: 'injured', equal: 0 }, { id: 'unharmed', equal: 2 }, { id: 'safe', equal: 3 }] };

const attackRoll = (dice: number, fuel: number): RollSpec => ({ dice, continuous: true, onesCostFuel: true, fuelAvailable: fuel, goal: search });
const landingRoll = (dice: number): RollSpec => ({ dice, continuous: true, onesCostFuel: false, fuelAvailable: 0, goal: landing });
const yorktownAttack = (dice: number): RollSpec => ({ dice, continuous: false, onesCostFuel: false, fuelAvailable: 0, goal: { kind: 'faces' } });

function readAll(state: RollState, ...readings: unknown[][]): RollState {
  return readings.reduce<RollState>((s, r) => applyReading(s, r), state);
}

/** The recorded part of a state (everything but the flags of the last reading). */
function recorded(state: RollState) {
  const { flags: _flags, ...rest } = state;
  return rest;
}

describe('startRoll', () => {
  it('starts with no faces, no locks, no fuel spent; best is the result reached with nothing', () => {
    const state = startRoll(landingRoll(3));
    expect(state).toMatchObject({ faces: null, lockedOnes: 0, fuelSpent: 0, outOfFuel: false, readings: 0, flags: [] });
    expect(state.best).toEqual({ kind: 'tier', tierId: 'injured', equal: 0, value: null });
  });
  it('refuses an invalid spec with a clear error', () => {
    expect(() => startRoll({ ...attackRoll(3, 2), dice: 2.5 })).toThrow(/dice must be a whole number/);
    expect(() => startRoll(attackRoll(3, -1))).toThrow(/fuelAvailable/);
    expect(() => startRoll({ ...attackRoll(3, 2), goal: { kind: 'targets', targets: [{ id: 'a', equal: 0, value: 1 }] } })).toThrow(/equal must be/);
    expect(() => startRoll({ ...attackRoll(3, 2), goal: { kind: 'targets', targets: [{ id: 'a', equal: 2, value: 1 }, { id: 'a', equal: 2, value: 1 }] } })).toThrow(/ids/);
  });
});

describe('applyReading: continuous roll with fuel', () => {
  it('each newly shown 1 locks and costs 1 fuel, once', () => {
    let state = applyReading(startRoll(attackRoll(4, 5)), [1, 2, 3, 4]);
    expect(state).toMatchObject({ lockedOnes: 1, fuelSpent: 1, readings: 1, flags: [] });
    state = applyReading(state, [1, 1, 1, 4]);
    expect(state).toMatchObject({ lockedOnes: 3, fuelSpent: 3 });
    state = applyReading(state, [4, 1, 1, 1]);
    expect(state).toMatchObject({ lockedOnes: 3, fuelSpent: 3, readings: 3 });
  });

  it('tracks the best result as the dice change', () => {
    let state = applyReading(startRoll(attackRoll(5, 5)), [2, 3, 4, 5, 6]);
    expect(state.best).toMatchObject({ tierId: null, equal: 1 });
    state = applyReading(state, [2, 3, 3, 5, 6]);
    expect(state.best).toMatchObject({ tierId: 'plus1', value: 3 });
    state = applyReading(state, [3, 3, 3, 1, 6]);
    expect(state.best).toMatchObject({ tierId: 'plus2', equal: 3, value: 3 });
  });

  it('a repeated identical reading changes nothing but the reading count', () => {
    const once = applyReading(startRoll(attackRoll(3, 5)), [1, 5, 5]);
    const twice = applyReading(once, [1, 5, 5]);
    expect({ ...recorded(twice), readings: once.readings }).toEqual(recorded(once));
    expect(twice.readings).toBe(2);
    // the same dice in another order (the camera sees them elsewhere): faces as read, nothing else moves
    const moved = applyReading(once, [5, 1, 5]);
    expect({ ...recorded(moved), readings: once.readings, faces: once.faces }).toEqual(recorded(once));
  });

  it('a 1 the plane cannot pay for ends the roll: outOfFuel, fuel spent stops at what was available', () => {
    let state = applyReading(startRoll(attackRoll(4, 2)), [1, 3, 3, 5]);
    state = applyReading(state, [1, 1, 1, 5]);
    expect(state).toMatchObject({ outOfFuel: true, fuelSpent: 2, lockedOnes: 3, faces: [1, 1, 1, 5] });
    const after = applyReading(state, [1, 1, 1, 6]);
    expect(after.flags).toEqual([{ type: 'rollOver' }]);
    expect(recorded(after)).toEqual(recorded(state));
    expect(readingAccepted(after)).toBe(false);
  });

  it('with no fuel at all the first 1 crashes', () => {
    const state = applyReading(startRoll(attackRoll(3, 0)), [2, 2, 1]);
    expect(state).toMatchObject({ outOfFuel: true, fuelSpent: 0 });
    expect(applyReading(startRoll(attackRoll(3, 0)), [2, 2, 3]).outOfFuel).toBe(false);
  });

  it('a locked 1 re-rolled is flagged and the reading is not accepted', () => {
    const state = applyReading(startRoll(attackRoll(3, 5)), [1, 4, 4]);
    const bad = applyReading(state, [2, 4, 4]);
    expect(bad.flags).toEqual([{ type: 'illegalReroll', lockedOnes: 1, seenOnes: 0 }]);
    expect(recorded(bad)).toEqual(recorded(state));
    const fixed = applyReading(bad, [1, 4, 4]);
    expect(fixed).toMatchObject({ flags: [], lockedOnes: 1, fuelSpent: 1, readings: 2 });
  });

  it('a reading with the wrong number of dice is flagged and not accepted', () => {
    const state = applyReading(startRoll(attackRoll(3, 5)), [2, 4, 4]);
    const bad = applyReading(state, [1, 4, 4, 4]);
    expect(bad.flags).toEqual([{ type: 'wrongDiceCount', expected: 3, seen: 4 }]);
    expect(recorded(bad)).toEqual(recorded(state));
  });

  it('bad faces are flagged one by one and not accepted; never throws', () => {
    const state = startRoll(attackRoll(3, 5));
    const bad = applyReading(state, [0, 7, 2.5]);
    expect(bad.flags).toEqual([{ type: 'badFace', value: 0 }, { type: 'badFace', value: 7 }, { type: 'badFace', value: 2.5 }]);
    expect(recorded(bad)).toEqual(recorded(state));
    expect(applyReading(state, ['3', null, Number.NaN]).flags.map((f) => f.type)).toEqual(['badFace', 'badFace', 'badFace']);
    expect(applyReading(state, [2, 'x']).flags).toEqual([{ type: 'badFace', value: 'x' }, { type: 'wrongDiceCount', expected: 3, seen: 2 }]);
    expect(applyReading(state, 'not a list' as unknown as unknown[]).flags).toEqual([{ type: 'badFace', value: 'not a list' }]);
  });
});

describe('applyReading: free 1s (Decisive manoeuvre: re-roll the first 1)', () => {
  const decisive = (fuel: number): RollSpec => ({ ...attackRoll(3, fuel), freeOnes: 1 });

  it('the first 1 neither locks nor costs fuel, and is not charged again while it still shows', () => {
    let state = applyReading(startRoll(decisive(5)), [1, 3, 4]);
    expect(state).toMatchObject({ lockedOnes: 0, fuelSpent: 0, freeOnesUsed: 1, freeOnesShowing: 1 });
    state = applyReading(state, [4, 3, 1]);
    expect(state).toMatchObject({ lockedOnes: 0, fuelSpent: 0, freeOnesShowing: 1 });
    state = applyReading(state, [2, 3, 4]);
    expect(state).toMatchObject({ lockedOnes: 0, fuelSpent: 0, freeOnesShowing: 0, flags: [] });
    state = applyReading(state, [1, 3, 4]);
    expect(state).toMatchObject({ lockedOnes: 1, fuelSpent: 1, freeOnesUsed: 1, freeOnesShowing: 0 });
  });

  it('of two 1s shown at once, one is free and one locks', () => {
    const state = applyReading(startRoll(decisive(5)), [1, 1, 4]);
    expect(state).toMatchObject({ lockedOnes: 1, fuelSpent: 1, freeOnesShowing: 1 });
    // the locked 1 may not go, the free one may
    expect(applyReading(state, [1, 2, 4]).flags).toEqual([]);
    expect(applyReading(state, [2, 2, 4]).flags).toEqual([{ type: 'illegalReroll', lockedOnes: 1, seenOnes: 0 }]);
  });

  it('a free 1 costs nothing even with no fuel left', () => {
    expect(applyReading(startRoll(decisive(0)), [1, 5, 5])).toMatchObject({ outOfFuel: false, fuelSpent: 0 });
    expect(() => startRoll({ ...decisive(0), freeOnes: -1 })).toThrow(/freeOnes/);
  });
});

describe('applyReading: landing roll', () => {
  it('1s lock but cost no fuel and never crash', () => {
    let state = applyReading(startRoll(landingRoll(4)), [1, 1, 2, 3]);
    state = applyReading(state, [1, 1, 1, 1]);
    expect(state).toMatchObject({ lockedOnes: 4, fuelSpent: 0, outOfFuel: false });
    expect(state.best).toMatchObject({ tierId: 'injured', equal: 0 });
    expect(applyReading(state, [1, 1, 1, 2]).flags).toEqual([{ type: 'illegalReroll', lockedOnes: 4, seenOnes: 3 }]);
  });
});

describe('applyReading: single roll (Yorktown attack)', () => {
  it('takes the reading as it falls: 1s neither lock nor cost fuel', () => {
    const state = applyReading(startRoll(yorktownAttack(4)), [1, 1, 5, 5]);
    expect(state).toMatchObject({ lockedOnes: 0, fuelSpent: 0, outOfFuel: false, flags: [], best: { kind: 'faces', faces: [1, 1, 5, 5] } });
  });
  it('the same dice read again in another order are no re-roll', () => {
    const state = readAll(startRoll(yorktownAttack(3)), [1, 2, 3], [3, 2, 1]);
    expect(state.flags).toEqual([]);
  });
  it('a later different reading is accepted as a correction and flagged rerollAfterSingle', () => {
    const state = readAll(startRoll(yorktownAttack(3)), [1, 2, 3], [1, 2, 2]);
    expect(state.flags).toEqual([{ type: 'rerollAfterSingle' }]);
    expect(state.faces).toEqual([1, 2, 2]);
    expect(readingAccepted(state)).toBe(true);
    expect(state.readings).toBe(2);
  });
  it('still rejects bad readings', () => {
    const state = applyReading(startRoll(yorktownAttack(2)), [3, 3]);
    const bad = applyReading(state, [3, 3, 3]);
    expect(bad.flags).toEqual([{ type: 'wrongDiceCount', expected: 2, seen: 3 }]);
    expect(recorded(bad)).toEqual(recorded(state));
  });
});

describe('applyReading: targets goal', () => {
  it('shows the best split of the dice over the targets', () => {
    const spec: RollSpec = {
      dice: 5, continuous: true, onesCostFuel: true, fuelAvailable: 3,
      goal: { kind: 'targets', targets: [{ id: 'kate1', equal: 2, value: 1 }, { id: 'kate2', equal: 2, value: 1 }] },
    };
    const state = applyReading(startRoll(spec), [5, 5, 5, 5, 1]);
    expect(state.best).toEqual({ kind: 'targets', taken: [{ targetId: 'kate1', value: 5 }, { targetId: 'kate2', value: 5 }], totalValue: 2 });
    expect(state.fuelSpent).toBe(1);
  });
});
