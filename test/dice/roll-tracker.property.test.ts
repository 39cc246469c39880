import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyReading, readingAccepted, startRoll } from '../../server/dice/roll-tracker.ts';
import { bestResult } from '../../server/dice/best-result.ts';
import type { Face, RollGoal, RollSpec, RollState, RollTarget } from '../../server/dice/types.ts';

const faceArb = fc.integer({ min: 1, max: 6 }) as fc.Arbitrary<Face>;

const goalArb: fc.Arbitrary<RollGoal> = fc.oneof(
  fc.constant<RollGoal>({ kind: 'tiers', tiers: [{ id: 'none', equal: 0 }, { id: 'two', equal: 2 }, { id: 'three', equal: 3 }] }),
  fc.constant<RollGoal>({ kind: 'targets', targets: [{ id: 'k1', equal: 2, value: 1 }, { id: 'k2', equal: 2, value: 1 }, { id: 'z', equal: 4, value: 3 }] }),
  fc.constant<RollGoal>({ kind: 'faces' }),
);

const specArb: fc.Arbitrary<RollSpec> = fc.record({
  dice: fc.integer({ min: 0, max: 8 }),
  continuous: fc.boolean(),
  onesCostFuel: fc.boolean(),
  fuelAvailable: fc.integer({ min: 0, max: 6 }),
  goal: goalArb,
  freeOnes: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
});

type Step =
  | { kind: 'reroll'; faces: Face[]; keep: boolean[] }
  | { kind: 'raw'; reading: unknown[] }
  | { kind: 'repeat' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('reroll' as const), faces: fc.array(faceArb, { minLength: 8, maxLength: 8 }), keep: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('raw' as const),
      reading: fc.array(fc.oneof(fc.integer({ min: -1, max: 8 }), fc.double(), fc.constant(null), fc.string({ maxLength: 2 })), { maxLength: 10 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'repeat' as const }) },
);

/** The next reading a player could produce: locked 1s stay, kept dice stay, the rest are re-rolled. */
function nextReading(state: RollState, step: Step): unknown[] {
  const dice = state.spec.dice;
  if (step.kind === 'raw') return step.reading;
  if (step.kind === 'repeat') return state.faces ?? [];
  if (state.faces === null) return step.faces.slice(0, dice);
  return state.faces.map((face, i) => (face === 1 && state.spec.continuous) || step.keep[i] ? face : step.faces[i]);
}

function recorded(state: RollState) {
  const { flags: _flags, ...rest } = state;
  return rest;
}

describe('roll tracker properties over random reading streams', () => {
  it('fuel never exceeds what was available, locks never decrease, flagged readings change nothing', () => {
    fc.assert(
      fc.property(specArb, fc.array(stepArb, { maxLength: 30 }), (spec, steps) => {
        let state = startRoll(spec);
        for (const step of steps) {
          const reading = nextReading(state, step);
          const next = applyReading(state, reading);
          const fuelCosts = spec.continuous && spec.onesCostFuel;
          // fuel spent never exceeds what was available; it only moves with fuel-costing 1s
          expect(next.fuelSpent).toBeLessThanOrEqual(fuelCosts ? spec.fuelAvailable : 0);
          expect(next.fuelSpent).toBeGreaterThanOrEqual(state.fuelSpent);
          expect(next.lockedOnes).toBeGreaterThanOrEqual(state.lockedOnes);
          if (!fuelCosts) expect(next.outOfFuel).toBe(false);
          if (state.outOfFuel) expect(next.outOfFuel).toBe(true);
          if (!readingAccepted(next)) {
            expect(recorded(next)).toEqual(recorded(state));
            expect(next.flags.length).toBeGreaterThan(0);
          } else {
            expect(next.faces).toEqual(reading);
            expect(next.readings).toBe(state.readings + 1);
            expect(next.best).toEqual(bestResult(next.faces!, spec.goal));
            const ones = next.faces!.filter((f) => f === 1).length;
            if (spec.continuous) {
              // every 1 showing is locked or one of the free 1s (at most spec.freeOnes of them)
              expect(next.lockedOnes + (next.freeOnesShowing ?? 0)).toBe(ones);
              expect(next.freeOnesUsed ?? 0).toBeLessThanOrEqual(spec.freeOnes ?? 0);
              if (!spec.freeOnes) expect(next.lockedOnes).toBe(ones);
              // each locked 1 costs exactly one fuel, unless the plane ran out of fuel here
              if (fuelCosts && !next.outOfFuel) expect(next.fuelSpent).toBe(next.lockedOnes);
              if (fuelCosts && next.outOfFuel) {
                expect(next.lockedOnes).toBeGreaterThan(spec.fuelAvailable);
                expect(next.fuelSpent).toBe(spec.fuelAvailable);
              }
            } else {
              expect(next.lockedOnes).toBe(0);
            }
          }
          state = next;
        }
      }),
      { numRuns: 400, seed: 1942 },
    );
  });

  it('a player who keeps the locked 1s in the tray is never flagged in a continuous roll', () => {
    fc.assert(
      fc.property(specArb.filter((s) => s.continuous && s.dice > 0), fc.array(stepArb.filter((s) => s.kind === 'reroll'), { minLength: 1, maxLength: 20 }), (spec, steps) => {
        let state = startRoll(spec);
        for (const step of steps) {
          if (state.outOfFuel) break;
          state = applyReading(state, nextReading(state, step));
          expect(state.flags).toEqual([]);
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});

/** Every way to give each target to one value 2..6 (or to none), checked against the dice. */
function bruteForceSplit(faces: Face[], targets: RollTarget[]): { value: number; count: number } {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const f of faces) if (f !== 1) counts[f]++;
  let best = { value: 0, count: 0 };
  const assign = (t: number, used: number[]): void => {
    if (t === targets.length) {
      let value = 0;
      let count = 0;
      const need = [0, 0, 0, 0, 0, 0, 0];
      used.forEach((v, i) => { if (v > 0) { need[v] += targets[i].equal; value += targets[i].value; count++; } });
      if (need.every((n, v) => n <= counts[v]) && (value > best.value || (value === best.value && count > best.count))) best = { value, count };
      return;
    }
    for (const v of [0, 2, 3, 4, 5, 6]) assign(t + 1, [...used, v]);
  };
  assign(0, []);
  return best;
}

describe('bestResult targets split properties', () => {
  it('matches a brute-force search over all assignments of targets to values', () => {
    const targetArb = fc.record({ equal: fc.integer({ min: 1, max: 5 }), value: fc.integer({ min: 0, max: 4 }) });
    fc.assert(
      fc.property(fc.array(faceArb, { maxLength: 10 }), fc.array(targetArb, { maxLength: 4 }), (faces, raw) => {
        const targets = raw.map((t, i) => ({ id: `t${i}`, ...t }));
        const result = bestResult(faces, { kind: 'targets', targets });
        if (result.kind !== 'targets') throw new Error('wrong kind');
        const brute = bruteForceSplit(faces, targets);
        expect(result.totalValue).toBe(brute.value);
        expect(result.taken.length).toBe(brute.count);
        // the split shown is feasible: each value's dice cover the targets it takes
        for (const value of [2, 3, 4, 5, 6]) {
          const need = result.taken.filter((t) => t.value === value).reduce((s, t) => s + targets.find((x) => x.id === t.targetId)!.equal, 0);
          expect(need).toBeLessThanOrEqual(faces.filter((f) => f === value).length);
        }
      }),
      { numRuns: 500, seed: 42 },
    );
  });
});
