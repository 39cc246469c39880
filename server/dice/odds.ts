import type { RollOdds, RollOddsOptions, RollOddsOutcome, RollSpec, RollState } from './types.ts';
import { splitGroups } from './best-result.ts';
import { equalGroups } from './faces.ts';
import { decideTargets } from './target-policy.ts';
import { assertValidSpec } from './roll-spec.ts';
import { TARGET_STRATEGY } from './target-policy.ts';
import { CAUTIOUS_SUFFIX, TIER_STRATEGY, tierChain, type TierChainResult } from './tier-odds.ts';
import { targetChain, type TargetChainResult } from './target-odds.ts';

/**
 * Rolls with more dice are refused (a 30-dice chain takes ~0.2 s). Outcome counts are exact
 * integers up to 20 dice and doubles (relative error ~1e-16) beyond.
 */
export const MAX_ODDS_DICE = 30;

const SINGLE_STRATEGY = 'A single roll read as it falls: 1s neither lock nor cost fuel, no re-rolls.';

const tierCache = new Map<string, TierChainResult>();
const targetCache = new Map<string, TargetChainResult>();
const CACHE_LIMIT = 500;

/**
 * Exact odds of a roll under the keep-and-re-roll strategy described in `strategy`
 * (see TIER_STRATEGY and TARGET_STRATEGY). Pure and memoised. `reach` counts only rolls that
 * end without crashing; a crash spends all the fuel that was available (`expectedFuel` includes it).
 * Throws a RangeError for an invalid spec or more than MAX_ODDS_DICE dice.
 */
export function rollOdds(spec: RollSpec, options: RollOddsOptions = {}): RollOdds {
  return oddsFrom(spec, options, null);
}

/**
 * The same odds from where a roll stands now (`state` from the roll tracker): the strategy goes on
 * from the dice showing. `expectedFuel` is the fuel of the whole roll, the fuel already spent included.
 * Before the first reading this is rollOdds(state.spec); after a crash, crash = 1; a single roll
 * once read is decided (probabilities 0 or 1).
 */
export function rollOddsNow(state: RollState, options: RollOddsOptions = {}): RollOdds {
  if (state.faces === null) return rollOdds(state.spec, options);
  return oddsFrom(state.spec, options, state);
}

function oddsFrom(spec: RollSpec, options: RollOddsOptions, now: RollState | null): RollOdds {
  assertValidSpec(spec);
  if (spec.dice > MAX_ODDS_DICE) throw new RangeError(`odds are computed for at most ${MAX_ODDS_DICE} dice, got ${spec.dice}`);
  const onesCostFuel = spec.continuous && spec.onesCostFuel;
  // more fuel than dice can never run out
  const fuel = onesCostFuel ? Math.min(spec.fuelAvailable, spec.dice) : 0;
  const stopBeforeCrash = onesCostFuel && options.stopBeforeCrash === true;
  const strategyText = (base: string): string => (spec.continuous ? base + (stopBeforeCrash ? CAUTIOUS_SUFFIX : '') : SINGLE_STRATEGY);
  const goal = spec.goal;

  if (now?.outOfFuel) {
    const reach: Record<string, number> = {};
    if (goal.kind === 'tiers') for (const tier of goal.tiers) reach[tier.id] = 0;
    if (goal.kind === 'targets') for (const target of goal.targets) reach[target.id] = 0;
    return { reach, expectedFuel: now.fuelSpent, crash: 1, strategy: strategyText(goal.kind === 'targets' ? TARGET_STRATEGY : TIER_STRATEGY) };
  }
  const locked = now?.lockedOnes ?? 0;
  const groups = now?.faces ? equalGroups(now.faces).map((g) => g.count) : [];

  if (goal.kind === 'targets') {
    const chainSpec = { dice: spec.dice, continuous: spec.continuous, onesCostFuel, fuel, targets: goal.targets, stopBeforeCrash };
    let chain: TargetChainResult;
    if (now === null) {
      const key = JSON.stringify({ ...chainSpec, targets: goal.targets.map((t) => [t.equal, t.value]) });
      chain = memo(targetCache, key, () => targetChain(chainSpec));
    } else {
      const decision = spec.continuous
        ? decideTargets(locked, groups, { dice: spec.dice, targets: goal.targets, cautiousFuelLeft: stopBeforeCrash ? fuel - locked : null })
        : { stop: true, keep: [] };
      if (decision.stop) {
        chain = { finalMasks: new Map([[splitGroups(groups, goal.targets).mask, 1]]), crash: 0, expectedFuel: onesCostFuel ? locked : 0 };
      } else {
        const from = { locked, kept: decision.keep.map((i) => groups[i]) };
        const key = JSON.stringify({ ...chainSpec, targets: goal.targets.map((t) => [t.equal, t.value]), from });
        chain = memo(targetCache, key, () => targetChain(chainSpec, from));
      }
    }
    const reach: Record<string, number> = {};
    const takenCount = new Array<number>(goal.targets.length + 1).fill(0);
    const outcomes: RollOddsOutcome[] = [];
    for (const target of goal.targets) reach[target.id] = 0;
    for (const [mask, p] of chain.finalMasks) {
      const taken = goal.targets.filter((_, t) => mask & (1 << t));
      for (const target of taken) reach[target.id] += p;
      takenCount[taken.length] += p;
      outcomes.push({ targetIds: taken.map((t) => t.id), totalValue: taken.reduce((s, t) => s + t.value, 0), probability: p });
    }
    outcomes.sort((a, b) => b.probability - a.probability);
    return { reach, expectedFuel: chain.expectedFuel, crash: chain.crash, strategy: strategyText(TARGET_STRATEGY), outcomes, takenCount };
  }

  const needs = goal.kind === 'tiers' ? [...new Set(goal.tiers.map((t) => t.equal))].sort((a, b) => a - b) : [];
  const chainSpec = { dice: spec.dice, continuous: spec.continuous, onesCostFuel, fuel, needs, stopBeforeCrash };
  const chain = memo(tierCache, JSON.stringify(chainSpec), () => tierChain(chainSpec));
  const figures = now === null ? chain : chain.from(spec.continuous ? locked : 0, groups[0] ?? 0);
  const reach: Record<string, number> = {};
  if (goal.kind === 'tiers') {
    for (const tier of goal.tiers) {
      let p = 0;
      for (let k = tier.equal; k < figures.finalLargest.length; k++) p += figures.finalLargest[k];
      reach[tier.id] = p;
    }
  }
  return { reach, expectedFuel: figures.expectedFuel, crash: figures.crash, strategy: strategyText(TIER_STRATEGY) };
}

/** Forgets memoised odds (benchmarks measure the computation itself). */
export function clearOddsCache(): void {
  tierCache.clear();
  targetCache.clear();
}

function memo<T>(cache: Map<string, T>, key: string, compute: () => T): T {
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const value = compute();
  cache.set(key, value);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  return value;
}
