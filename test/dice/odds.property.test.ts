import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rollOdds } from '../../server/dice/odds.ts';
import type { RollSpec } from '../../server/dice/types.ts';

const baseArb = fc.record({
  dice: fc.integer({ min: 0, max: 9 }),
  continuous: fc.boolean(),
  onesCostFuel: fc.boolean(),
  fuelAvailable: fc.integer({ min: 0, max: 10 }),
  stopBeforeCrash: fc.boolean(),
});

describe('rollOdds properties', () => {
  it('tiers: probabilities in [0,1], reach falls as tiers need more, everything adds up, no crash without fuel cost', () => {
    fc.assert(
      fc.property(baseArb, fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 4 }), (base, needs) => {
        const spec: RollSpec = { ...base, goal: { kind: 'tiers', tiers: needs.map((equal) => ({ id: `e${equal}`, equal })) } };
        const odds = rollOdds(spec, { stopBeforeCrash: base.stopBeforeCrash });
        const sorted = [...needs].sort((a, b) => a - b);
        for (let i = 0; i < sorted.length; i++) {
          const p = odds.reach[`e${sorted[i]}`];
          expect(p).toBeGreaterThanOrEqual(-1e-12);
          expect(p + odds.crash).toBeLessThanOrEqual(1 + 1e-9);
          if (i > 0) expect(p).toBeLessThanOrEqual(odds.reach[`e${sorted[i - 1]}`] + 1e-12);
          if (sorted[i] > base.dice) expect(p).toBe(0);
        }
        if (sorted[0] === 0) expect(odds.reach.e0 + odds.crash).toBeCloseTo(1, 9);
        const canCrash = base.continuous && base.onesCostFuel && base.fuelAvailable < base.dice;
        if (!canCrash) expect(odds.crash).toBe(0);
        expect(odds.expectedFuel).toBeGreaterThanOrEqual(0);
        expect(odds.expectedFuel).toBeLessThanOrEqual(base.continuous && base.onesCostFuel ? Math.min(base.dice, base.fuelAvailable) + 1e-9 : 0);
      }),
      { numRuns: 150, seed: 5 },
    );
  });

  it('targets: final sets plus crash add up to 1; a target needing more dice than rolled is never taken', () => {
    const targetArb = fc.record({ equal: fc.integer({ min: 1, max: 5 }), value: fc.integer({ min: 1, max: 3 }) });
    fc.assert(
      fc.property(baseArb.filter((b) => b.dice <= 7), fc.array(targetArb, { maxLength: 3 }), (base, raw) => {
        const targets = raw.map((t, i) => ({ id: `t${i}`, ...t }));
        const odds = rollOdds({ ...base, goal: { kind: 'targets', targets } }, { stopBeforeCrash: base.stopBeforeCrash });
        const total = odds.takenCount!.reduce((a, b) => a + b, 0) + odds.crash;
        expect(total).toBeCloseTo(1, 9);
        expect(odds.outcomes!.reduce((a, o) => a + o.probability, 0) + odds.crash).toBeCloseTo(1, 9);
        for (const t of targets) {
          expect(odds.reach[t.id]).toBeGreaterThanOrEqual(-1e-12);
          if (t.equal > base.dice) expect(odds.reach[t.id]).toBe(0);
        }
      }),
      { numRuns: 80, seed: 9 },
    );
  });
});
