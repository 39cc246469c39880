import type { Face, RollGoal, RollResult, RollTarget, RollTier } from './types.ts';
import { GROUP_VALUES, equalGroups } from './faces.ts';

/** More targets than this cannot be split exactly in reasonable time (3^n subsets). */
export const MAX_TARGETS = 12;

/**
 * The best result reachable from the dice now showing.
 * - tiers: the highest tier whose `equal` the largest equal group reaches; `equal`/`value`
 *   in the result describe that largest group (0 / null when no die other than 1 shows).
 * - targets: the split of equal groups over targets of most total value (ties: more targets).
 * - faces: the faces as they are.
 */
export function bestResult(faces: readonly Face[], goal: RollGoal): RollResult {
  switch (goal.kind) {
    case 'tiers': {
      const [largest] = equalGroups(faces);
      const equal = largest?.count ?? 0;
      const tier = highestTierReached(goal.tiers, equal);
      return { kind: 'tier', tierId: tier?.id ?? null, equal, value: largest?.value ?? null };
    }
    case 'targets': {
      const counts = [0, 0, 0, 0, 0, 0, 0];
      for (const face of faces) if (face !== 1) counts[face]++;
      return splitOverTargets(counts, goal.targets);
    }
    case 'faces':
      return { kind: 'faces', faces: [...faces] };
  }
}

/** The highest tier reached by a group of `equal` dice (on equal needs, the later tier wins). */
export function highestTierReached(tiers: readonly RollTier[], equal: number): RollTier | null {
  let best: RollTier | null = null;
  for (const tier of tiers) if (tier.equal <= equal && (best === null || tier.equal >= best.equal)) best = tier;
  return best;
}

interface SubsetTable {
  need: number[];
  value: number[];
  count: number[];
  /** memo of bestPossibleSplit by number of free dice */
  bestWith?: { totalValue: number; targetsTaken: number }[];
}

const subsetTables = new WeakMap<readonly RollTarget[], SubsetTable>();

function subsetTable(targets: readonly RollTarget[]): SubsetTable {
  const cached = subsetTables.get(targets);
  if (cached) return cached;
  if (targets.length > MAX_TARGETS) throw new RangeError(`at most ${MAX_TARGETS} targets can be split, got ${targets.length}`);
  const size = 1 << targets.length;
  const table: SubsetTable = { need: new Array(size).fill(0), value: new Array(size).fill(0), count: new Array(size).fill(0) };
  for (let mask = 1; mask < size; mask++) {
    const low = 31 - Math.clz32(mask & -mask);
    const rest = mask & (mask - 1);
    table.need[mask] = table.need[rest] + targets[low].equal;
    table.value[mask] = table.value[rest] + targets[low].value;
    table.count[mask] = table.count[rest] + 1;
  }
  subsetTables.set(targets, table);
  return table;
}

/** How groups of equal dice split over targets. */
export interface GroupSplit {
  /** bit t set: target t is taken */
  mask: number;
  /** groupOf[t] = index of the group taking target t, -1 when not taken */
  groupOf: number[];
  totalValue: number;
  targetsTaken: number;
}

const splitCache = new WeakMap<readonly RollTarget[], Map<string, GroupSplit>>();

/**
 * Splits groups of equal dice (`sizes[i]` dice in group i, each group a different value) over the
 * targets: each target is taken by one group, a group may take several targets whose needs add up
 * to at most its size. Maximises the total value, then the number of targets taken; on a tie the
 * first split found wins, which hands targets to earlier groups first.
 */
export function splitGroups(sizes: readonly number[], targets: readonly RollTarget[]): GroupSplit {
  let cache = splitCache.get(targets);
  if (!cache) {
    cache = new Map();
    splitCache.set(targets, cache);
  }
  const key = sizes.join(',');
  const cached = cache.get(key);
  if (cached) return cached;
  const table = subsetTable(targets);
  const size = 1 << targets.length;
  const full = size - 1;
  let reachable = new Uint8Array(size);
  reachable[0] = 1;
  const picks: Int32Array[] = [];
  for (const groupSize of sizes) {
    const next = new Uint8Array(size);
    const pick = new Int32Array(size).fill(-1);
    for (let mask = 0; mask < size; mask++) {
      if (!reachable[mask]) continue;
      if (!next[mask]) { next[mask] = 1; pick[mask] = 0; }
      const free = full & ~mask;
      for (let sub = free; sub > 0; sub = (sub - 1) & free) {
        if (table.need[sub] > groupSize) continue;
        const to = mask | sub;
        if (!next[to]) { next[to] = 1; pick[to] = sub; }
      }
    }
    picks.push(pick);
    reachable = next;
  }
  let bestMask = 0;
  for (let mask = 1; mask < size; mask++) {
    if (!reachable[mask]) continue;
    const better = table.value[mask] > table.value[bestMask]
      || (table.value[mask] === table.value[bestMask] && table.count[mask] > table.count[bestMask]);
    if (better) bestMask = mask;
  }
  const groupOf: number[] = new Array(targets.length).fill(-1);
  let mask = bestMask;
  for (let g = sizes.length - 1; g >= 0; g--) {
    const sub = picks[g][mask];
    for (let t = 0; t < targets.length; t++) if (sub & (1 << t)) groupOf[t] = g;
    mask &= ~sub;
  }
  const split: GroupSplit = { mask: bestMask, groupOf, totalValue: table.value[bestMask], targetsTaken: table.count[bestMask] };
  cache.set(key, split);
  return split;
}

/** The best split any `freeDice` dice could make: one group of them can take any targets needing ≤ freeDice in all. */
export function bestPossibleSplit(freeDice: number, targets: readonly RollTarget[]): { totalValue: number; targetsTaken: number } {
  const table = subsetTable(targets);
  table.bestWith ??= [];
  const cached = table.bestWith[freeDice];
  if (cached) return cached;
  let bestMask = 0;
  for (let mask = 1; mask < 1 << targets.length; mask++) {
    if (table.need[mask] > freeDice) continue;
    const better = table.value[mask] > table.value[bestMask]
      || (table.value[mask] === table.value[bestMask] && table.count[mask] > table.count[bestMask]);
    if (better) bestMask = mask;
  }
  const best = { totalValue: table.value[bestMask], targetsTaken: table.count[bestMask] };
  table.bestWith[freeDice] = best;
  return best;
}

/**
 * The split of the dice showing (`counts[v]` dice showing v) over the targets. Groups are offered
 * largest first (ties: highest value), the same order the odds strategy uses.
 */
export function splitOverTargets(counts: readonly number[], targets: readonly RollTarget[]): RollResult & { kind: 'targets' } {
  const groups = GROUP_VALUES.filter((v) => counts[v] > 0)
    .map((value) => ({ value, count: counts[value] }))
    .sort((a, b) => b.count - a.count || b.value - a.value);
  const split = splitGroups(groups.map((g) => g.count), targets);
  const taken: { targetId: string; value: Face }[] = [];
  split.groupOf.forEach((g, t) => { if (g >= 0) taken.push({ targetId: targets[t].id, value: groups[g].value }); });
  return { kind: 'targets', taken, totalValue: split.totalValue };
}
