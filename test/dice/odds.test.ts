import { describe, expect, it } from 'vitest';
import { rollOdds, MAX_ODDS_DICE } from '../../server/dice/odds.ts';
import { seededRandom } from '../../server/dice/prng.ts';
import type { RollGoal, RollSpec } from '../../server/dice/types.ts';
import { simulateRoll } from './strategy-simulation.ts';

const pair: RollGoal = { kind: 'tiers', tiers: [{ id: 'pair', equal: 2 }] };
const landing: RollGoal = { kind: 'tiers', tiers: [{ id: 'injured', equal: 0 }, { id: 'unharmed', equal: 2 }, { id: 'safe', equal: 3 }] };
const shoho: RollGoal = { kind: 'tiers', tiers: [{ id: 'hit1', equal: 2 }, { id: 'hit2', equal: 3 }, { id: 'sunk', equal: 4 }] };

function spec(dice: number, goal: RollGoal, fuel: number | null, continuous = true): RollSpec {
  return { dice, continuous, onesCostFuel: fuel !== null, fuelAvailable: fuel ?? 0, goal };
}

describe('rollOdds: hand-computed cases', () => {
  it('2 dice needing a pair: 5/36 at once, else from one kept die 1/2 → 15/36; fuel 2/6 + 20/36·1/2', () => {
    const odds = rollOdds(spec(2, pair, 14));
    expect(odds.reach.pair).toBeCloseTo(15 / 36, 14);
    expect(odds.expectedFuel).toBeCloseTo(2 / 6 + (20 / 36) * 0.5, 14);
    expect(odds.crash).toBe(0);
    expect(odds.strategy).toMatch(/largest group/);
  });

  it('2 dice needing a pair with no fuel: any 1 crashes (11/36 on the throw, then 1/2 of the 20/36)', () => {
    const odds = rollOdds(spec(2, pair, 0));
    expect(odds.crash).toBeCloseTo(11 / 36 + (20 / 36) * 0.5, 14);
    expect(odds.reach.pair).toBeCloseTo(15 / 36, 14);
    expect(odds.expectedFuel).toBe(0);
  });

  it('1 die with 1 fuel: no tier is reachable, the throw is the roll', () => {
    const odds = rollOdds(spec(1, pair, 1));
    expect(odds.reach.pair).toBe(0);
    expect(odds.expectedFuel).toBeCloseTo(1 / 6, 14);
    expect(odds.crash).toBe(0);
  });

  it('a landing roll never crashes and costs no fuel; the worst tier is always reached', () => {
    const odds = rollOdds(spec(4, landing, null));
    expect(odds.crash).toBe(0);
    expect(odds.expectedFuel).toBe(0);
    expect(odds.reach.injured).toBeCloseTo(1, 14);
    expect(odds.reach.safe).toBeLessThan(odds.reach.unharmed);
  });

  it('3 dice needing three equal, without fuel cost: from a kept pair the last die hits 1/6, locks 1/6', () => {
    // with a pair kept: success 1/2. From all different (K=1): hand-solved below.
    // K=1, 2 dice re-rolled (36 outcomes): both match 1; one match + other non-1 (not 1) → pair: 2·1·4 = 8;
    // 1s: any 1 makes three equal unreachable (11); pair of another value: 4; both different non-matching: 12 → stay.
    // P(K=1) = (1 + 8·½ + 4·½) / (36 - 12) = 7/24.
    // First throw of 3: three equal 5/216; exactly a pair, no 1: 5·3·4 = 60 → ½; any 1: 91 → fail; all different non-1: 60 → 7/24.
    const expected = 5 / 216 + (60 / 216) * 0.5 + (60 / 216) * (7 / 24);
    expect(rollOdds(spec(3, { kind: 'tiers', tiers: [{ id: 'three', equal: 3 }] }, null)).reach.three).toBeCloseTo(expected, 14);
  });

  it('single roll (Yorktown attack): one throw, 1s cost nothing; P(a pair among 2 dice) = 5/36', () => {
    const odds = rollOdds(spec(2, pair, 3, false));
    expect(odds.reach.pair).toBeCloseTo(5 / 36, 14);
    expect(odds.crash).toBe(0);
    expect(odds.expectedFuel).toBe(0);
    expect(odds.strategy).toMatch(/single roll/);
  });

  it('single roll with targets (Kate on the Yorktown, 4 dice, each pair a hit): two hits 65/1296, one or more 795/1296', () => {
    const odds = rollOdds(spec(4, { kind: 'targets', targets: [{ id: 'hit1', equal: 2, value: 1 }, { id: 'hit2', equal: 2, value: 1 }] }, null, false));
    expect(odds.takenCount![2]).toBeCloseTo(65 / 1296, 14);
    expect(odds.takenCount![1] + odds.takenCount![2]).toBeCloseTo(795 / 1296, 14);
    expect(odds.reach.hit1).toBeCloseTo(795 / 1296, 14);
    expect(odds.crash).toBe(0);
  });

  it('targets: one target needing a pair with 2 dice matches the pair tier; two targets need two pairs', () => {
    const one = rollOdds(spec(2, { kind: 'targets', targets: [{ id: 'kate', equal: 2, value: 1 }] }, 14));
    expect(one.reach.kate).toBeCloseTo(15 / 36, 14);
    expect(one.takenCount![1]).toBeCloseTo(15 / 36, 14);
    const two = rollOdds(spec(4, { kind: 'targets', targets: [{ id: 'a', equal: 2, value: 1 }, { id: 'b', equal: 2, value: 1 }] }, null));
    expect(two.takenCount!.reduce((s, p) => s + p, 0) + two.crash).toBeCloseTo(1, 12);
    expect(two.reach.a).toBeGreaterThan(two.reach.b - 1e-12);
  });

  it('0 dice: nothing rolled, only a tier needing nothing is reached', () => {
    const odds = rollOdds(spec(0, landing, 3));
    expect(odds).toMatchObject({ reach: { injured: 1, unharmed: 0, safe: 0 }, crash: 0, expectedFuel: 0 });
  });

  it('probabilities add up and more fuel never crashes more', () => {
    for (let fuel = 0; fuel <= 8; fuel++) {
      const odds = rollOdds(spec(8, shoho, fuel));
      const more = rollOdds(spec(8, shoho, fuel + 1));
      expect(more.crash).toBeLessThanOrEqual(odds.crash + 1e-12);
      expect(odds.reach.hit1).toBeGreaterThanOrEqual(odds.reach.hit2);
      expect(odds.reach.hit2).toBeGreaterThanOrEqual(odds.reach.sunk);
      expect(odds.reach.hit1 + odds.crash).toBeLessThanOrEqual(1 + 1e-12);
    }
  });

  it('is memoised: the same spec gives the same object figures', () => {
    const a = rollOdds(spec(12, shoho, 6));
    const b = rollOdds(spec(12, shoho, 6));
    expect(b).toEqual(a);
  });

  it('refuses invalid specs and too many dice with a clear error', () => {
    expect(() => rollOdds(spec(-1, pair, 1))).toThrow(/dice must be a whole number/);
    expect(() => rollOdds(spec(MAX_ODDS_DICE + 1, pair, 1))).toThrow(/at most 30 dice/);
    expect(() => rollOdds(spec(3, pair, 1.5))).toThrow(/fuelAvailable/);
  });
});

/** |exact - simulated| within `z` standard errors of the simulated mean (seeded: cannot flake). */
function expectAgreement(label: string, exact: number, samples: number[], z = 4.5): void {
  const n = samples.length;
  const mean = samples.reduce((s, x) => s + x, 0) / n;
  const variance = samples.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
  const se = Math.sqrt(variance / n);
  const tolerance = Math.max(z * se, 1e-9);
  expect(Math.abs(exact - mean), `${label}: exact ${exact}, simulated ${mean} ± ${se}`).toBeLessThanOrEqual(tolerance);
}

describe('rollOdds agrees with a seeded Monte Carlo of the same strategy', () => {
  const cases: { name: string; spec: RollSpec; runs: number; seed: number; cautious?: boolean }[] = [
    { name: 'Shōhō, 7 dice, 2 fuel', spec: spec(7, shoho, 2), runs: 200_000, seed: 1942 },
    { name: 'landing, 9 dice, no fuel cost', spec: spec(9, landing, null), runs: 60_000, seed: 7 },
    { name: 'search tiers, 5 dice, 1 fuel, cautious', spec: spec(5, { kind: 'tiers', tiers: [{ id: 's1', equal: 2 }, { id: 's2', equal: 3 }] }, 1), runs: 60_000, seed: 11, cautious: true },
    {
      name: 'two Kates and a Zeke, 8 dice, 3 fuel',
      spec: spec(8, { kind: 'targets', targets: [{ id: 'kate1', equal: 2, value: 1 }, { id: 'kate2', equal: 2, value: 1 }, { id: 'zeke', equal: 4, value: 3 }] }, 3),
      runs: 100_000,
      seed: 604,
    },
    {
      name: 'Jake and Zeke, 6 dice, no fuel cost',
      spec: spec(6, { kind: 'targets', targets: [{ id: 'jake', equal: 3, value: 2 }, { id: 'zeke', equal: 4, value: 3 }] }, null),
      runs: 60_000,
      seed: 3,
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const odds = rollOdds(c.spec, { stopBeforeCrash: c.cautious });
      const random = seededRandom(c.seed);
      const rolls = Array.from({ length: c.runs }, () => simulateRoll(c.spec, random, c.cautious));
      expectAgreement('crash', odds.crash, rolls.map((r) => (r.crashed ? 1 : 0)));
      expectAgreement('fuel', odds.expectedFuel, rolls.map((r) => r.final.fuelSpent));
      const goal = c.spec.goal;
      if (goal.kind === 'tiers') {
        for (const tier of goal.tiers) {
          expectAgreement(tier.id, odds.reach[tier.id], rolls.map((r) => (!r.crashed && r.largest >= tier.equal ? 1 : 0)));
        }
      } else if (goal.kind === 'targets') {
        for (const target of goal.targets) {
          expectAgreement(target.id, odds.reach[target.id], rolls.map((r) => (r.taken.includes(target.id) ? 1 : 0)));
        }
        odds.takenCount!.forEach((p, k) => {
          expectAgreement(`${k} taken`, p, rolls.map((r) => (!r.crashed && r.taken.length === k ? 1 : 0)));
        });
      }
    });
  }
});
