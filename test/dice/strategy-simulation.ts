/**
 * Monte Carlo of the odds strategies, played die by die through the roll tracker, to check the
 * exact Markov chains in server/dice/ against an independent simulation.
 */
import type { Face, RollSpec, RollState } from '../../server/dice/types.ts';
import { applyReading, startRoll } from '../../server/dice/roll-tracker.ts';
import { equalGroups } from '../../server/dice/faces.ts';
import { decideTargets } from '../../server/dice/target-policy.ts';
import { highestTierReached } from '../../server/dice/best-result.ts';
import { rollDie } from '../../server/dice/prng.ts';

export interface SimulatedRoll {
  final: RollState;
  crashed: boolean;
  /** tiers: size of the largest equal group at the end; targets: ids of the targets taken */
  largest: number;
  taken: string[];
}

export function simulateRoll(spec: RollSpec, random: () => number, stopBeforeCrash = false): SimulatedRoll {
  let state = startRoll(spec);
  let faces: Face[] = Array.from({ length: spec.dice }, () => rollDie(random));
  state = accept(state, faces);
  for (;;) {
    if (state.outOfFuel) return { final: state, crashed: true, largest: 0, taken: [] };
    const keepValues = spec.continuous ? decideKeep(spec, state, faces, stopBeforeCrash) : null;
    if (keepValues === null) break;
    faces = faces.map((face) => (face === 1 || keepValues.has(face) ? face : rollDie(random)));
    state = accept(state, faces);
  }
  const groups = equalGroups(faces);
  const taken = state.best.kind === 'targets' ? state.best.taken.map((t) => t.targetId) : [];
  return { final: state, crashed: false, largest: groups[0]?.count ?? 0, taken };
}

function accept(state: RollState, faces: Face[]): RollState {
  const next = applyReading(state, faces);
  if (next.flags.length > 0) throw new Error(`simulation produced a rejected reading: ${JSON.stringify(next.flags)}`);
  return next;
}

/** Values of the groups to keep, or null to stop. */
function decideKeep(spec: RollSpec, state: RollState, faces: Face[], stopBeforeCrash: boolean): Set<Face> | null {
  const groups = equalGroups(faces);
  const fuelLeft = spec.onesCostFuel ? spec.fuelAvailable - state.fuelSpent : null;
  if (spec.goal.kind === 'tiers') {
    const free = spec.dice - state.lockedOnes;
    const largest = groups[0]?.count ?? 0;
    const reachable = spec.goal.tiers.filter((t) => t.equal <= free).map((t) => t.equal);
    if (reachable.length === 0 || largest >= Math.max(...reachable)) return null;
    const reached = highestTierReached(spec.goal.tiers, largest);
    if (stopBeforeCrash && fuelLeft === 0 && reached !== null && reached.equal > 0) return null;
    return new Set([groups[0].value]);
  }
  if (spec.goal.kind === 'targets') {
    const decision = decideTargets(state.lockedOnes, groups.map((g) => g.count), {
      dice: spec.dice,
      targets: spec.goal.targets,
      cautiousFuelLeft: stopBeforeCrash ? fuelLeft : null,
    });
    if (decision.stop) return null;
    return new Set(decision.keep.map((i) => groups[i].value));
  }
  return null;
}
