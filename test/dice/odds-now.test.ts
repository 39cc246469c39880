import { describe, expect, it } from 'vitest';
import { rollOdds, rollOddsNow } from '../../server/dice/odds.ts';
import { applyReading, startRoll } from '../../server/dice/roll-tracker.ts';
import type { Face, RollGoal, RollOdds, RollSpec } from '../../server/dice/types.ts';

const pair: RollGoal = { kind: 'tiers', tiers: [{ id: 'pair', equal: 2 }] };
const shoho: RollGoal = { kind: 'tiers', tiers: [{ id: 'hit1', equal: 2 }, { id: 'hit2', equal: 3 }, { id: 'sunk', equal: 4 }] };
const kates: RollGoal = { kind: 'targets', targets: [{ id: 'kate1', equal: 2, value: 1 }, { id: 'kate2', equal: 2, value: 1 }, { id: 'jake', equal: 3, value: 2 }] };

const spec = (dice: number, goal: RollGoal, fuel: number | null): RollSpec => ({ dice, continuous: true, onesCostFuel: fuel !== null, fuelAvailable: fuel ?? 0, goal });

function allThrows(dice: number): Face[][] {
  let throws: Face[][] = [[]];
  for (let i = 0; i < dice; i++) throws = throws.flatMap((t) => ([1, 2, 3, 4, 5, 6] as Face[]).map((f) => [...t, f]));
  return throws;
}

/** Averages the odds from every equally likely first throw: must give back the odds from the start. */
function averageAfterFirstThrow(s: RollSpec, stopBeforeCrash = false): RollOdds {
  const throws = allThrows(s.dice);
  const sum: RollOdds = { reach: {}, crash: 0, expectedFuel: 0, strategy: '' };
  for (const faces of throws) {
    const odds = rollOddsNow(applyReading(startRoll(s), faces), { stopBeforeCrash });
    sum.crash += odds.crash / throws.length;
    sum.expectedFuel += odds.expectedFuel / throws.length;
    for (const [id, p] of Object.entries(odds.reach)) sum.reach[id] = (sum.reach[id] ?? 0) + p / throws.length;
  }
  return sum;
}

describe('rollOddsNow: odds from where the roll stands', () => {
  it('2 dice needing a pair: a kept single die gets there half the time; a 1 ends it; a pair is done', () => {
    const s = spec(2, pair, 14);
    expect(rollOddsNow(applyReading(startRoll(s), [3, 5])).reach.pair).toBeCloseTo(0.5, 14);
    expect(rollOddsNow(applyReading(startRoll(s), [1, 5])).reach.pair).toBe(0);
    expect(rollOddsNow(applyReading(startRoll(s), [5, 5]))).toMatchObject({ reach: { pair: 1 }, crash: 0, expectedFuel: 0 });
    // the fuel of the whole roll: the 1 already spent counts
    expect(rollOddsNow(applyReading(startRoll(s), [1, 5])).expectedFuel).toBe(1);
  });

  it('before the first reading it is rollOdds; after a crash the crash is certain', () => {
    const s = spec(3, shoho, 1);
    expect(rollOddsNow(startRoll(s))).toEqual(rollOdds(s));
    const crashed = applyReading(startRoll(s), [1, 1, 4]);
    expect(crashed.outOfFuel).toBe(true);
    expect(rollOddsNow(crashed)).toMatchObject({ crash: 1, reach: { hit1: 0, hit2: 0, sunk: 0 } });
  });

  it('a single roll once read is decided', () => {
    const s: RollSpec = { dice: 3, continuous: false, onesCostFuel: false, fuelAvailable: 0, goal: pair };
    expect(rollOddsNow(applyReading(startRoll(s), [4, 4, 1])).reach.pair).toBe(1);
    expect(rollOddsNow(applyReading(startRoll(s), [4, 2, 1])).reach.pair).toBe(0);
  });

  for (const [name, s, cautious] of [
    ['tiers, 4 dice, 2 fuel', spec(4, shoho, 2), false],
    ['tiers, 5 dice, 1 fuel, cautious', spec(5, shoho, 1), true],
    ['targets, 4 dice, 2 fuel', spec(4, kates, 2), false],
    ['targets, 5 dice, no fuel cost', spec(5, kates, null), false],
  ] as const) {
    it(`averaged over every first throw it gives back rollOdds (${name})`, () => {
      const whole = rollOdds(s, { stopBeforeCrash: cautious });
      const averaged = averageAfterFirstThrow(s, cautious);
      expect(averaged.crash).toBeCloseTo(whole.crash, 12);
      expect(averaged.expectedFuel).toBeCloseTo(whole.expectedFuel, 12);
      for (const id of Object.keys(whole.reach)) expect(averaged.reach[id]).toBeCloseTo(whole.reach[id], 12);
    });
  }

  it('from a state the strategy would not reach itself (two pairs kept towards a Jake)', () => {
    const s = spec(5, { kind: 'targets', targets: [{ id: 'jake', equal: 3, value: 2 }] }, 3);
    const state = applyReading(startRoll(s), [2, 2, 3, 3, 6]);
    const odds = rollOddsNow(state);
    expect(odds.reach.jake).toBeGreaterThan(0);
    expect(odds.reach.jake + odds.crash).toBeLessThanOrEqual(1 + 1e-12);
    expect(odds.takenCount!.reduce((a, b) => a + b, 0) + odds.crash).toBeCloseTo(1, 12);
  });
});
