import { rerollOutcomes } from './reroll-outcomes.ts';

/** What the tier odds depend on (tier ids left out so that equal specs share one computation). */
export interface TierChainSpec {
  dice: number;
  continuous: boolean;
  onesCostFuel: boolean;
  /** fuel available; only used when onesCostFuel */
  fuel: number;
  /** distinct `equal` needs of the tiers, ascending */
  needs: number[];
  /** stop re-rolling when the next 1 would crash the plane and a tier needing > 0 equal dice is reached */
  stopBeforeCrash: boolean;
}

/** Final distribution of the roll under the strategy. */
export interface TierChainResult {
  /** finalLargest[k] = P(the roll ends, without crashing, with a largest kept group of k dice) */
  finalLargest: number[];
  crash: number;
  expectedFuel: number;
  /** the same figures from a decision point mid-roll: `locked` 1s showing, largest equal group of `kept` */
  from(locked: number, kept: number): Omit<TierChainResult, 'from'>;
}

export const TIER_STRATEGY =
  'Throw all dice; keep the largest group of equal dice (ties: highest value) and re-roll every other unlocked die; ' +
  'stop as soon as the kept group reaches the highest tier still reachable with the unlocked dice (or no tier is). ' +
  'Each 1 locks; with fuel, a 1 the plane cannot pay for crashes it.';

export const CAUTIOUS_SUFFIX = ' Cautious: also stop when the next 1 would crash the plane and a tier needing equal dice is already reached.';

/**
 * Exact absorbing Markov chain over (locked 1s L, kept group size K); fuel left is fuel - L.
 * Under the strategy K never shrinks and L never decreases, so the states form a DAG apart from
 * self-loops (a re-roll that changes nothing), which are solved in closed form: v = Σ p·v' / (1 - p_self).
 */
export function tierChain(spec: TierChainSpec): TierChainResult {
  const n = spec.dice;
  const width = n + 3; // [P(final K = 0..n)], crash, expected fuel
  const CRASH = n + 1;
  const FUEL = n + 2;
  const canCrash = spec.onesCostFuel;
  const topNeedWith = (free: number): number | null => {
    let best: number | null = null;
    for (const need of spec.needs) if (need <= free) best = need;
    return best;
  };
  const lowestPositiveNeed = spec.needs.find((need) => need > 0) ?? null;

  const terminal = (locked: number, kept: number): Float64Array => {
    const v = new Float64Array(width);
    v[kept] = 1;
    v[FUEL] = canCrash ? locked : 0;
    return v;
  };
  const crashed = new Float64Array(width);
  crashed[CRASH] = 1;
  crashed[FUEL] = spec.fuel;

  const stops = (locked: number, kept: number): boolean => {
    if (!spec.continuous) return true;
    const target = topNeedWith(n - locked);
    if (target === null || kept >= target) return true;
    if (spec.stopBeforeCrash && canCrash && locked >= spec.fuel && lowestPositiveNeed !== null && kept >= lowestPositiveNeed) return true;
    return false;
  };

  // value[L][K] = outcome vector from the decision point with L locked 1s and a kept group of K
  const value: Float64Array[][] = [];
  for (let locked = 0; locked <= n; locked++) value.push(new Array<Float64Array>(n - locked + 1));

  const afterThrow = (locked: number, kept: number, into: Float64Array, weight: number, selfLoop: { p: number } | null): void => {
    const m = n - locked - kept;
    for (const o of rerollOutcomes(m, kept > 0)) {
      const newLocked = locked + o.ones;
      const newKept = Math.max(kept + o.matching, o.largestOther);
      const p = weight * o.probability;
      if (canCrash && newLocked > spec.fuel) {
        addScaled(into, crashed, p);
      } else if (selfLoop && newLocked === locked && newKept === kept) {
        selfLoop.p += p;
      } else {
        addScaled(into, value[newLocked][newKept], p);
      }
    }
  };

  for (let locked = n; locked >= 0; locked--) {
    for (let kept = n - locked; kept >= 0; kept--) {
      if (stops(locked, kept)) {
        value[locked][kept] = terminal(locked, kept);
        continue;
      }
      const v = new Float64Array(width);
      const self = { p: 0 };
      afterThrow(locked, kept, v, 1, self);
      const scale = 1 / (1 - self.p);
      for (let i = 0; i < width; i++) v[i] *= scale;
      value[locked][kept] = v;
    }
  }

  let start: Float64Array;
  if (n === 0) {
    start = terminal(0, 0);
  } else {
    start = new Float64Array(width);
    afterThrow(0, 0, start, 1, null);
  }
  const figures = (v: Float64Array) => ({ finalLargest: Array.from(v.subarray(0, n + 1)), crash: v[CRASH], expectedFuel: v[FUEL] });
  return {
    ...figures(start),
    from: (locked, kept) => {
      if (canCrash && locked > spec.fuel) return figures(crashed);
      const v = value[locked]?.[kept];
      if (!v) throw new RangeError(`no roll state with ${locked} locked 1s and a group of ${kept} among ${n} dice`);
      return figures(v);
    },
  };
}

function addScaled(into: Float64Array, v: Float64Array, p: number): void {
  for (let i = 0; i < into.length; i++) into[i] += p * v[i];
}
