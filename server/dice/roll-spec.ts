import type { RollSpec } from './types.ts';
import { MAX_TARGETS } from './best-result.ts';

/** Throws a RangeError naming the first thing wrong with a roll spec built by a game. */
export function assertValidSpec(spec: RollSpec): void {
  const problem = specProblem(spec);
  if (problem) throw new RangeError(`invalid roll spec: ${problem}`);
}

export function specProblem(spec: RollSpec): string | null {
  if (!Number.isInteger(spec.dice) || spec.dice < 0) return `dice must be a whole number ≥ 0, got ${String(spec.dice)}`;
  if (typeof spec.continuous !== 'boolean') return 'continuous must be true or false';
  if (typeof spec.onesCostFuel !== 'boolean') return 'onesCostFuel must be true or false';
  if (spec.onesCostFuel && (!Number.isInteger(spec.fuelAvailable) || spec.fuelAvailable < 0)) {
    return `fuelAvailable must be a whole number ≥ 0, got ${String(spec.fuelAvailable)}`;
  }
  if (spec.freeOnes !== undefined && (!Number.isInteger(spec.freeOnes) || spec.freeOnes < 0)) {
    return `freeOnes must be a whole number ≥ 0, got ${String(spec.freeOnes)}`;
  }
  const goal = spec.goal;
  switch (goal?.kind) {
    case 'tiers':
      if (!Array.isArray(goal.tiers)) return 'tiers must be a list';
      for (const tier of goal.tiers) {
        if (!Number.isInteger(tier.equal) || tier.equal < 0) return `tier ${tier.id}: equal must be a whole number ≥ 0, got ${String(tier.equal)}`;
      }
      return null;
    case 'targets':
      if (!Array.isArray(goal.targets)) return 'targets must be a list';
      if (goal.targets.length > MAX_TARGETS) return `at most ${MAX_TARGETS} targets, got ${goal.targets.length}`;
      for (const target of goal.targets) {
        if (!Number.isInteger(target.equal) || target.equal < 1) return `target ${target.id}: equal must be a whole number ≥ 1, got ${String(target.equal)}`;
        if (!Number.isFinite(target.value)) return `target ${target.id}: value must be a number, got ${String(target.value)}`;
      }
      if (new Set(goal.targets.map((t) => t.id)).size !== goal.targets.length) return 'target ids must be different';
      return null;
    case 'faces':
      return null;
    default:
      return `unknown goal kind ${String((goal as { kind?: unknown } | undefined)?.kind)}`;
  }
}
