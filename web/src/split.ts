/**
 * The ways one attack roll can be split over its targets (Japanese planes on the island, CAP
 * fighters): every set of targets the dice showing can take together, checked the way the engine
 * checks a `confirmRoll {assign}` (server/dice bestResult on the chosen targets).
 */
import { bestResult } from '../../server/dice/best-result.ts';
import type { Face } from '../../server/dice/types.ts';
import type { AttackTargetInfo } from '../../server/games/yorktown1942/types.ts';

export interface SplitOption {
  /** the target ids to send as `assign` */
  ids: string[];
  /** which face's group takes each target */
  taken: { target: AttackTargetInfo; face: Face }[];
  /** skill the plane gains */
  skill: number;
  /** the split the engine takes when nothing is assigned */
  best: boolean;
}

/** Enumerating subsets is cheap up to here; a roll never has more (2 on an island, 2 in the CAP). */
const MAX_ENUMERATED = 8;

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** What the dice showing can take if exactly `chosen` are assigned, or null when they cannot take them all. */
export function checkAssignment(faces: readonly number[], chosen: readonly AttackTargetInfo[]): SplitOption['taken'] | null {
  const goal = { kind: 'targets' as const, targets: chosen.map((t) => ({ id: t.id, equal: t.equal, value: 1 })) };
  const result = bestResult(faces as Face[], goal);
  if (result.kind !== 'targets' || result.taken.length !== chosen.length) return null;
  return result.taken.map((x) => ({ target: chosen.find((t) => t.id === x.targetId)!, face: x.value }));
}

/**
 * Every maximal set of targets the faces can take (no target could be added to it), most skill
 * first, the engine's default split marked. With nothing takeable: one empty option.
 */
export function splitOptions(faces: readonly number[], targets: readonly AttackTargetInfo[], bestIds: readonly string[]): SplitOption[] {
  const mark = (ids: string[]) => sameSet(ids, [...bestIds]);
  if (targets.length > MAX_ENUMERATED) {
    const chosen = targets.filter((t) => bestIds.includes(t.id));
    const taken = checkAssignment(faces, chosen) ?? [];
    return [{ ids: chosen.map((t) => t.id), taken, skill: chosen.reduce((n, t) => n + t.skill, 0), best: true }];
  }
  const feasible: { mask: number; taken: SplitOption['taken'] }[] = [];
  for (let mask = 0; mask < 1 << targets.length; mask++) {
    const chosen = targets.filter((_, i) => mask & (1 << i));
    const taken = checkAssignment(faces, chosen);
    if (taken) feasible.push({ mask, taken });
  }
  const maximal = feasible.filter((f) => !feasible.some((g) => g.mask !== f.mask && (g.mask & f.mask) === f.mask));
  const options = maximal.map(({ mask, taken }): SplitOption => {
    const chosen = targets.filter((_, i) => mask & (1 << i));
    const ids = chosen.map((t) => t.id);
    return { ids, taken, skill: chosen.reduce((n, t) => n + t.skill, 0), best: mark(ids) };
  });
  // the engine's default may be a subset of a maximal set only if no maximal set is better; keep it visible anyway
  if (!options.some((o) => o.best)) {
    const chosen = targets.filter((t) => bestIds.includes(t.id));
    const taken = checkAssignment(faces, chosen);
    if (taken) options.push({ ids: chosen.map((t) => t.id), taken, skill: chosen.reduce((n, t) => n + t.skill, 0), best: true });
  }
  return options.sort((a, b) => Number(b.best) - Number(a.best) || b.skill - a.skill || b.ids.length - a.ids.length);
}

export function optionKey(ids: readonly string[]): string {
  return ids.length ? [...ids].sort().join('+') : 'none';
}
