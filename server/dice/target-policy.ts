import type { RollTarget } from './types.ts';
import { bestPossibleSplit, splitGroups } from './best-result.ts';

export const TARGET_STRATEGY =
  'Throw all dice; if the split of equal groups over the targets is already the best any unlocked dice could make, stop. ' +
  'Otherwise keep the groups the best split uses plus the largest unused group and re-roll every other unlocked die; ' +
  'if that would keep every unlocked die, keep only the largest group. Groups are ranked by size (ties: highest value). ' +
  'Each 1 locks; with fuel, a 1 the plane cannot pay for crashes it.';

export interface TargetDecision {
  stop: boolean;
  /** indices (into the sizes given) of the groups kept when not stopping */
  keep: number[];
}

export interface TargetPolicyContext {
  dice: number;
  targets: readonly RollTarget[];
  /** fuel left before the next 1 would crash the plane, or null when 1s cost no fuel */
  cautiousFuelLeft: number | null;
}

/**
 * The keep-and-re-roll decision for a targets goal, from the sizes of the equal groups showing
 * (sorted largest first; callers with real faces sort by size, then by highest value).
 */
export function decideTargets(locked: number, sizes: readonly number[], ctx: TargetPolicyContext): TargetDecision {
  const free = ctx.dice - locked;
  const split = splitGroups(sizes, ctx.targets);
  const best = bestPossibleSplit(free, ctx.targets);
  if (split.totalValue >= best.totalValue && split.targetsTaken >= best.targetsTaken) return { stop: true, keep: [] };
  if (ctx.cautiousFuelLeft === 0 && split.targetsTaken > 0) return { stop: true, keep: [] };
  const used = new Set(split.groupOf.filter((g) => g >= 0));
  const keep = [...used];
  const unused = sizes.findIndex((_, i) => !used.has(i));
  if (unused >= 0) keep.push(unused);
  const keptDice = keep.reduce((sum, i) => sum + sizes[i], 0);
  if (keptDice >= free) return { stop: false, keep: [0] };
  return { stop: false, keep: keep.sort((a, b) => a - b) };
}
