import type { RollTarget } from './types.ts';
import { splitGroups } from './best-result.ts';
import { binomial } from './reroll-outcomes.ts';
import { decideTargets, type TargetPolicyContext } from './target-policy.ts';

export interface TargetChainSpec {
  dice: number;
  continuous: boolean;
  onesCostFuel: boolean;
  fuel: number;
  targets: readonly RollTarget[];
  stopBeforeCrash: boolean;
}

export interface TargetChainResult {
  /** final sets of targets taken (bit t = target t) with their probability, crash excluded */
  finalMasks: Map<number, number>;
  crash: number;
  expectedFuel: number;
}

/** A decision point: `locked` 1s showing and kept groups of the given sizes (largest first). */
interface ChainState {
  locked: number;
  kept: number[];
  /** transitions: to another state (index) or to a terminal column */
  edges: { to: number; terminal: boolean; p: number }[];
}

const CRASH_COLUMN = 0;
const FUEL_COLUMN = 1;

/**
 * Exact absorbing Markov chain over (locked 1s, sizes of the kept groups), from the first throw
 * of all dice or from `from` (dice kept mid-roll; the rest are thrown next). Kept groups can be
 * released by the strategy, so states of one locked count may form cycles: each level of locked
 * 1s is solved as a linear system (Gaussian elimination), levels in decreasing order.
 * Re-roll outcomes are enumerated by class: 1s, dice joining each kept group, and the counts
 * of the free values as a partition (values are interchangeable), weighted by their multiplicity.
 */
export function targetChain(spec: TargetChainSpec, from: { locked: number; kept: number[] } = { locked: 0, kept: [] }): TargetChainResult {
  const n = spec.dice;
  const ctx = (locked: number): TargetPolicyContext => ({
    dice: n,
    targets: spec.targets,
    cautiousFuelLeft: spec.stopBeforeCrash && spec.onesCostFuel ? spec.fuel - locked : null,
  });
  const states: ChainState[] = [];
  const stateIndex = new Map<string, number>();
  const terminalColumns = new Map<string, number>(); // `${mask}|${locked}` → column
  const terminalInfo: { mask: number; locked: number }[] = [];
  const terminalColumn = (mask: number, locked: number): number => {
    const key = `${mask}|${locked}`;
    let column = terminalColumns.get(key);
    if (column === undefined) {
      column = 2 + terminalInfo.length;
      terminalColumns.set(key, column);
      terminalInfo.push({ mask, locked });
    }
    return column;
  };
  const stateFor = (locked: number, kept: number[]): number => {
    const key = `${locked}|${kept.join(',')}`;
    let index = stateIndex.get(key);
    if (index === undefined) {
      index = states.length;
      stateIndex.set(key, index);
      states.push({ locked, kept, edges: [] });
    }
    return index;
  };

  /** Where the strategy goes from a throw showing `locked` 1s and equal groups of `sizes` (memoised). */
  const decisions = new Map<string, { to: number; terminal: boolean }>();
  const next = (locked: number, sizes: number[]): { to: number; terminal: boolean } => {
    const key = `${locked}|${sizes.join(',')}`;
    const known = decisions.get(key);
    if (known) return known;
    let result: { to: number; terminal: boolean };
    if (spec.onesCostFuel && locked > spec.fuel) {
      result = { to: CRASH_COLUMN, terminal: true };
    } else {
      const decision = spec.continuous ? decideTargets(locked, sizes, ctx(locked)) : { stop: true, keep: [] };
      result = decision.stop
        ? { to: terminalColumn(splitGroups(sizes, spec.targets).mask, locked), terminal: true }
        : { to: stateFor(locked, decision.keep.map((i) => sizes[i])), terminal: false };
    }
    decisions.set(key, result);
    return result;
  };

  const start = stateFor(from.locked, from.kept);
  for (let s = 0; s < states.length; s++) {
    const state = states[s];
    const merged = new Map<string, { to: number; terminal: boolean; p: number }>();
    forEachReroll(n - state.locked - sumOf(state.kept), state.kept, (ones, sizes, p) => {
      const { to, terminal } = next(state.locked + ones, sizes);
      const key = `${terminal}|${to}`;
      const edge = merged.get(key);
      if (edge) edge.p += p;
      else merged.set(key, { to, terminal, p });
    });
    state.edges = [...merged.values()];
  }

  const width = 2 + terminalInfo.length;
  const terminalVector = (column: number): Float64Array => {
    const v = new Float64Array(width);
    v[column] = 1;
    if (column === CRASH_COLUMN) v[FUEL_COLUMN] = spec.fuel;
    else if (spec.onesCostFuel) v[FUEL_COLUMN] = terminalInfo[column - 2].locked;
    return v;
  };
  const terminalVectors = Array.from({ length: width }, (_, c) => (c === FUEL_COLUMN ? null : terminalVector(c)));

  const value: (Float64Array | null)[] = new Array(states.length).fill(null);
  const byLevel = new Map<number, number[]>();
  states.forEach((state, i) => {
    const level = byLevel.get(state.locked) ?? [];
    level.push(i);
    byLevel.set(state.locked, level);
  });
  for (const locked of [...byLevel.keys()].sort((a, b) => b - a)) solveLevel(byLevel.get(locked)!);

  function solveLevel(members: number[]): void {
    const size = members.length;
    const position = new Map(members.map((s, i) => [s, i]));
    const a = members.map(() => new Float64Array(size));
    const b = members.map(() => new Float64Array(width));
    members.forEach((s, row) => {
      a[row][row] += 1;
      for (const edge of states[s].edges) {
        if (edge.terminal) addScaled(b[row], terminalVectors[edge.to]!, edge.p);
        else if (position.has(edge.to)) a[row][position.get(edge.to)!] -= edge.p;
        else addScaled(b[row], value[edge.to]!, edge.p);
      }
    });
    gaussianSolve(a, b);
    members.forEach((s, row) => { value[s] = b[row]; });
  }

  const result = value[start]!;
  const finalMasks = new Map<number, number>();
  terminalInfo.forEach((info, i) => {
    const p = result[2 + i];
    if (p > 0) finalMasks.set(info.mask, (finalMasks.get(info.mask) ?? 0) + p);
  });
  return { finalMasks, crash: result[CRASH_COLUMN], expectedFuel: result[FUEL_COLUMN] };
}

function sumOf(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function addScaled(into: Float64Array, v: Float64Array, p: number): void {
  for (let i = 0; i < into.length; i++) into[i] += p * v[i];
}

/**
 * Solves a·x = b in place (b becomes x). a = I - P within one level of locked 1s is strictly
 * diagonally dominant (every re-roll may show a 1, which leaves the level), so no pivoting is needed.
 */
function gaussianSolve(a: Float64Array[], b: Float64Array[]): void {
  const n = a.length;
  for (let col = 0; col < n; col++) {
    const pivot = a[col][col];
    for (let row = col + 1; row < n; row++) {
      const factor = a[row][col] / pivot;
      if (factor === 0) continue;
      for (let k = col; k < n; k++) a[row][k] -= factor * a[col][k];
      addScaled(b[row], b[col], -factor);
    }
  }
  for (let col = n - 1; col >= 0; col--) {
    const x = b[col];
    for (let k = 0; k < x.length; k++) x[k] /= a[col][col];
    for (let row = 0; row < col; row++) {
      const factor = a[row][col];
      if (factor !== 0) addScaled(b[row], x, -factor);
    }
  }
}

const FREE_VALUES = 5;

/**
 * Every class of outcomes of re-rolling m dice next to kept groups of the given sizes:
 * calls visit(ones, sizes of all equal groups after the throw sorted largest first, probability).
 */
export function forEachReroll(m: number, kept: readonly number[], visit: (ones: number, sizes: number[], p: number) => void): void {
  const total = 6 ** m;
  const freeValues = FREE_VALUES - kept.length;
  const joined = new Array<number>(kept.length).fill(0);
  for (let ones = 0; ones <= m; ones++) {
    const afterOnes = binomial(m, ones);
    const spreadKept = (g: number, left: number, ways: number): void => {
      if (g === kept.length) {
        forEachPartition(left, freeValues, (parts, assignments) => {
          let w = ways * assignments;
          let rest = left;
          for (const part of parts) { w *= binomial(rest, part); rest -= part; }
          const sizes = kept.map((size, i) => size + joined[i]).concat(parts).sort((x, y) => y - x);
          visit(ones, sizes, w / total);
        });
        return;
      }
      for (let j = 0; j <= left; j++) {
        joined[g] = j;
        spreadKept(g + 1, left - j, ways * binomial(left, j));
      }
      joined[g] = 0;
    };
    spreadKept(0, m - ones, afterOnes);
  }
}

/**
 * Partitions of `total` dice over at most `values` interchangeable values (parts largest first),
 * with the number of ways to assign the parts to distinct values.
 */
function forEachPartition(total: number, values: number, visit: (parts: number[], assignments: number) => void): void {
  const parts: number[] = [];
  const walk = (left: number, maxPart: number): void => {
    if (left === 0) {
      visit(parts, assignmentsOf(parts, values));
      return;
    }
    if (parts.length === values) return;
    for (let part = Math.min(left, maxPart); part >= 1; part--) {
      parts.push(part);
      walk(left - part, part);
      parts.pop();
    }
  };
  walk(total, total);
}

/** Ways to give the parts (a multiset) to distinct values out of `values`: values! / (unused! · Π multiplicity!). */
function assignmentsOf(parts: readonly number[], values: number): number {
  let ways = factorial(values) / factorial(values - parts.length);
  let run = 1;
  for (let i = 1; i <= parts.length; i++) {
    if (i < parts.length && parts[i] === parts[i - 1]) run++;
    else { ways /= factorial(run); run = 1; }
  }
  return ways;
}

function factorial(k: number): number {
  let f = 1;
  for (let i = 2; i <= k; i++) f *= i;
  return f;
}
